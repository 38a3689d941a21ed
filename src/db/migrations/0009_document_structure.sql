-- The document model's roles: each chunk and course segment says whether it is body text or a
-- kind of front/back matter (references, table of contents, index…), so retrieval and courses can
-- leave front/back matter out. Rows made before this migration are body text, as they were read.
ALTER TABLE retrieval_chunks ADD COLUMN role TEXT NOT NULL DEFAULT 'body';
ALTER TABLE document_segments ADD COLUMN role TEXT NOT NULL DEFAULT 'body';
ALTER TABLE document_segments ADD COLUMN heading_path TEXT NOT NULL DEFAULT '[]';
