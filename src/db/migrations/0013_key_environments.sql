-- Test and production keys of a tenant work on separate data. The test environment of a tenant
-- is a tenants row of its own (environment_of = the tenant), so every tenant_id scope (learners,
-- courses, documents, chunks, jobs, webhooks, usage) keeps the two apart with no change to the
-- domain tables. Its name is never shown: keys and their tenant are listed through api_keys.
ALTER TABLE tenants ADD COLUMN environment_of TEXT REFERENCES tenants(id) ON DELETE CASCADE;
CREATE UNIQUE INDEX tenants_environment_of ON tenants(environment_of);
-- Tenants that already have test keys get their test environment now; what those keys made
-- before this migration cannot be told apart from production data and stays with production.
INSERT INTO tenants (id, name, created_at, environment_of)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
             hex(randomblob(2)) || '-' || hex(randomblob(6))),
       'test-environment:' || t.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), t.id
  FROM tenants t
 WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.tenant_id = t.id AND k.env = 'test');
