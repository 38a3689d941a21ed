-- PostgreSQL's own BM25 statistics, standing for what FTS5 keeps inside its index (no SQLite twin):
-- each chunk's length, how many chunks hold each lexeme (its IDF), and the chunks' count and total
-- length (the average BM25 normalises by). Triggers keep the counts in step with retrieval_chunks
-- whatever writes or deletes chunks (indexing, a document's delete, a course's or a tenant's
-- cascade). A chunk's length counts its runs of letters and digits, as FTS5's unicode61 tokenizer
-- does: the parser's one lexeme for a section number such as 3.1.2.3 is four words there, and a
-- contents page dense with them would otherwise be short enough to outrank the section it lists.
ALTER TABLE retrieval_chunks ADD COLUMN search_length integer GENERATED ALWAYS AS (
  regexp_count(context, '[[:alnum:]]+') + regexp_count(text, '[[:alnum:]]+')
) STORED;

CREATE TABLE retrieval_terms (
  term text PRIMARY KEY,
  chunks integer NOT NULL
);

CREATE TABLE retrieval_term_totals (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  chunks bigint NOT NULL,
  tokens bigint NOT NULL
);

-- One function for both triggers: the changed rows are `changed`, added on insert, taken off on
-- delete. Chunks are written once and never edited (re-embedding changes only their embedder), so
-- no update is counted. Every change takes one advisory lock first, so writers update the shared
-- rows one transaction at a time and never deadlock on them.
CREATE FUNCTION retrieval_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('courseforge.retrieval.terms'));
  INSERT INTO retrieval_terms AS t (term, chunks)
    SELECT u.lexeme, sign * count(*) FROM changed c, unnest(c.search) AS u GROUP BY u.lexeme ORDER BY u.lexeme
    ON CONFLICT (term) DO UPDATE SET chunks = t.chunks + excluded.chunks;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM retrieval_terms
     WHERE chunks <= 0 AND term IN (SELECT u.lexeme FROM changed c, unnest(c.search) AS u);
  END IF;
  UPDATE retrieval_term_totals
     SET chunks = chunks + sign * (SELECT count(*) FROM changed),
         tokens = tokens + sign * (SELECT coalesce(sum(search_length), 0) FROM changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER retrieval_chunks_terms_insert AFTER INSERT ON retrieval_chunks
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION retrieval_count_terms();
CREATE TRIGGER retrieval_chunks_terms_delete AFTER DELETE ON retrieval_chunks
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION retrieval_count_terms();

-- A database that already holds chunks starts with their counts.
INSERT INTO retrieval_terms (term, chunks)
  SELECT u.lexeme, count(*) FROM retrieval_chunks c, unnest(c.search) AS u GROUP BY u.lexeme;
INSERT INTO retrieval_term_totals (chunks, tokens)
  SELECT count(*), coalesce(sum(search_length), 0) FROM retrieval_chunks;
