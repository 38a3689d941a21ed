-- The document model reaches storage: each chunk says whether it is body text or a kind of
-- front/back matter (references, table of contents, index…), so retrieval and courses can leave
-- front/back matter out; rows made before this migration are body text, as they were read.
ALTER TABLE retrieval_chunks ADD COLUMN role TEXT NOT NULL DEFAULT 'body';
-- The title the extractor found (PDF metadata, the first heading, a page's <title>).
ALTER TABLE documents ADD COLUMN title TEXT;
-- Which paragraphs of the chapter's content each source grounds (0-based, blank-line separated
-- blocks of the markdown, headings included).
ALTER TABLE chapter_sources ADD COLUMN paragraphs TEXT NOT NULL DEFAULT '[]';
-- Courses now plan from the indexed chunks' heading paths and roles; page segments are gone.
DROP TABLE document_segments;
