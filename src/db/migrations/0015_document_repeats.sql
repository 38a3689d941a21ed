-- Text a document repeats (concatenated copies, a pasted appendix), found at ingest: `repeats`
-- summarises it for the document's details, `repeated_chunks` lists the chunks courses leave out.
-- Rows made before this migration were never checked and stay NULL.
ALTER TABLE documents ADD COLUMN repeats TEXT;
ALTER TABLE documents ADD COLUMN repeated_chunks TEXT;
