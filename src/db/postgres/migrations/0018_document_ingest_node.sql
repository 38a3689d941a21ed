-- SQLite's 0018_document_ingest_node: the node whose request ingests an uploaded document.
ALTER TABLE documents ADD COLUMN ingest_node text;
