-- Webhooks: tenant registrations, the outbox of deliveries (one row per event and webhook, written
-- in the transaction that changed the course state) and the log of every delivery attempt.

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,                 -- JSON array of subscribed event names
  secret TEXT NOT NULL,                 -- kept in clear: it signs every delivery
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deactivated_at TEXT
);
-- Registering the same URL again updates (and re-activates) the existing webhook.
CREATE UNIQUE INDEX webhooks_tenant_url ON webhooks(tenant_id, url);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,                  -- sent as X-Service-Delivery, the same on every retry
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,                   -- the exact bytes sent and signed
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'canceled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  job_id TEXT,                          -- the queued job that makes the next attempt
  next_attempt_at TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
-- Rows of one webhook in rowid order: the delivery log reads newest first by rowid.
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id);

CREATE TABLE webhook_attempts (
  id TEXT PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,             -- 1 = first try, 2 = first retry, ...
  started_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  ok INTEGER NOT NULL,
  UNIQUE (delivery_id, attempt)
);
