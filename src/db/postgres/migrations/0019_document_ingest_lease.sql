-- SQLite's 0019_document_ingest_lease: the lease on an upload's ingestion, and the uploads in flight.
ALTER TABLE documents ADD COLUMN ingest_lease_until text;
CREATE INDEX documents_ingesting ON documents(ingest_node) WHERE status = 'processing';
