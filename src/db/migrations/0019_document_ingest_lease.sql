-- A lease on an upload's ingestion: until when the node named by ingest_node is known to be
-- ingesting it. The node renews it while it works; on a PostgreSQL shared by several nodes, another
-- node ends an upload whose lease ran out (its node died and may never come back). The partial
-- index finds a node's uploads in flight without reading the ready ones.
ALTER TABLE documents ADD COLUMN ingest_lease_until TEXT;
CREATE INDEX documents_ingesting ON documents(ingest_node) WHERE status = 'processing';
