-- PostgreSQL's own search structures, standing for SQLite's FTS5 and vec0 tables (0003_retrieval),
-- with which they share no SQL. Full text: a tsvector generated from each chunk's heading context
-- (weight B) and text (weight A), English-stemmed as FTS5's porter tokenizer stems, under a GIN
-- index; PostgreSQL keeps it in step with the row, so no trigger or second insert is needed.
ALTER TABLE retrieval_chunks ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, context), 'B') || setweight(to_tsvector('english'::regconfig, text), 'A')
) STORED;
CREATE INDEX retrieval_chunks_search ON retrieval_chunks USING gin (search);

-- Vectors: pgvector when the server has it (src/retrieval/postgres-vector-tables.ts then makes one
-- table per vector space, as on SQLite). Without it, or without the right to install it (a
-- role that may not create extensions), the server starts and searches by full text.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pgvector is available but this role may not install it: search ranks by full text';
END
$$;
