-- Web console sessions: a browser signs in once with an API key and a learner, and then carries an
-- HttpOnly cookie instead of the key. Only the SHA-256 of the cookie's token is kept; a session
-- dies with its key (revoked or deleted), its learner, its expiry, or sign-out.

CREATE TABLE console_sessions (
  token_hash TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX console_sessions_expires ON console_sessions(expires_at);
CREATE INDEX console_sessions_key ON console_sessions(key_id);
