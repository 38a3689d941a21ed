-- Retrieval: chunks of indexed documents and of course chapters, their full-text index, and the
-- registry of per-embedder vector tables. `seq` is the rowid shared by a chunk, its FTS5 row and
-- its vec0 row. Vector tables (one per embedder id and dimension) are created on demand by
-- src/retrieval/vector-tables.ts, each with a trigger that drops a chunk's vector with the chunk.

CREATE TABLE retrieval_chunks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT,
  document_id TEXT REFERENCES documents(id) ON DELETE CASCADE,
  course_id TEXT REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id TEXT REFERENCES chapters(id) ON DELETE CASCADE,
  space_id TEXT,
  position INTEGER NOT NULL,
  text TEXT NOT NULL,
  -- Document title and heading path, prepended to the text when it is embedded and indexed.
  context TEXT NOT NULL DEFAULT '',
  heading_path TEXT NOT NULL DEFAULT '[]',
  page INTEGER,
  slide INTEGER,
  timestamp_seconds REAL,
  embedder TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  CHECK ((document_id IS NULL) <> (chapter_id IS NULL))
);
CREATE INDEX retrieval_chunks_document ON retrieval_chunks(document_id, position);
CREATE INDEX retrieval_chunks_chapter ON retrieval_chunks(chapter_id, position);
CREATE INDEX retrieval_chunks_course ON retrieval_chunks(course_id);
CREATE INDEX retrieval_chunks_owner ON retrieval_chunks(tenant_id, user_id);
CREATE INDEX retrieval_chunks_embedder ON retrieval_chunks(embedder, dimension);

-- Contentless: the text lives once, in retrieval_chunks; the index holds only postings. `scope`
-- holds tokens for the chunk's tenant, learner, document, course and space (src/retrieval/scope-tokens.ts),
-- so a search filters by them inside the FTS5 query itself.
CREATE VIRTUAL TABLE retrieval_fts USING fts5(
  heading,
  body,
  scope,
  content = '',
  contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Document frequency of each indexed term: search leaves out the commonest terms of a long question.
CREATE VIRTUAL TABLE retrieval_fts_vocab USING fts5vocab(retrieval_fts, 'row');

CREATE TRIGGER retrieval_chunks_fts_delete AFTER DELETE ON retrieval_chunks BEGIN
  DELETE FROM retrieval_fts WHERE rowid = old.seq;
END;

CREATE TABLE retrieval_vector_tables (
  embedder TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  table_name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (embedder, dimension)
);
