-- The node whose request ingests an uploaded document (its data directory's identity, kept in the
-- data-directory lock): at start a node marks interrupted only the documents it was ingesting,
-- never another node's in flight on the same PostgreSQL. Rows made before this migration stay NULL.
ALTER TABLE documents ADD COLUMN ingest_node TEXT;
