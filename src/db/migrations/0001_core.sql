-- Tenants, keys, learners, courses with their chapters, quiz questions and sources,
-- documents, the usage ledger and the persistent job queue.

CREATE TABLE tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  rate_limit_per_minute INTEGER,
  tts_provider TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  prefix TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  rate_limit_per_minute INTEGER,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_tenant ON api_keys(tenant_id);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  external_id TEXT,
  email TEXT,
  name TEXT,
  learning_goal TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (tenant_id, external_id)
);

CREATE TABLE courses (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  topic TEXT NOT NULL,
  slug TEXT NOT NULL,
  description TEXT,
  outline TEXT,
  source_type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('generating', 'completed', 'failed')),
  organization TEXT,
  learning_goal TEXT,
  search_enabled INTEGER NOT NULL DEFAULT 0,
  search_note TEXT,
  num_chapters INTEGER NOT NULL,
  engine TEXT,
  model TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT
);
-- Serves the newest-first keyset pagination of GET /v2/courses.
CREATE INDEX courses_owner_created ON courses(tenant_id, user_id, created_at DESC, id DESC);

CREATE TABLE chapters (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  order_index INTEGER NOT NULL,
  title TEXT NOT NULL,
  objectives TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed')),
  content TEXT,
  key_concepts TEXT NOT NULL DEFAULT '[]',
  engine TEXT,
  model TEXT,
  completed_at TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (course_id, order_index)
);

CREATE TABLE quiz_questions (
  id TEXT PRIMARY KEY,
  chapter_id TEXT NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  type TEXT NOT NULL,
  prompt TEXT NOT NULL,
  choices TEXT NOT NULL DEFAULT '[]',
  answer TEXT NOT NULL,
  explanation TEXT,
  UNIQUE (chapter_id, position)
);

CREATE TABLE chapter_sources (
  id TEXT PRIMARY KEY,
  chapter_id TEXT NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  document_id TEXT,
  chunk_id TEXT,
  filename TEXT,
  page INTEGER,
  timestamp_seconds REAL,
  url TEXT,
  title TEXT,
  excerpt TEXT,
  score REAL,
  UNIQUE (chapter_id, position)
);

CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  space_id TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('extract', 'index')),
  filename TEXT NOT NULL,
  source_type TEXT NOT NULL CHECK (source_type IN ('file', 'youtube', 'web')),
  source_url TEXT,
  blob_key TEXT,
  mime_type TEXT,
  pages INTEGER,
  char_count INTEGER NOT NULL DEFAULT 0,
  markdown TEXT,
  status TEXT NOT NULL CHECK (status IN ('processing', 'ready', 'error')),
  error TEXT,
  chunk_count INTEGER NOT NULL DEFAULT 0,
  billed_micros INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX documents_owner ON documents(tenant_id, user_id, created_at DESC, id DESC);
CREATE INDEX documents_space ON documents(tenant_id, space_id);

-- Documents a course was built from (course Q&A retrieves over them).
CREATE TABLE course_documents (
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  PRIMARY KEY (course_id, document_id)
);

CREATE TABLE usage_events (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT,
  api_key_id TEXT,
  key_env TEXT NOT NULL CHECK (key_env IN ('test', 'production')),
  operation TEXT NOT NULL,
  quantity INTEGER NOT NULL DEFAULT 1,
  amount_micros INTEGER NOT NULL DEFAULT 0,
  ref_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX usage_events_tenant_month ON usage_events(tenant_id, key_env, operation, created_at);

CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  tenant_id TEXT REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT,
  type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  payload TEXT NOT NULL DEFAULT '{}',
  result TEXT,
  error TEXT,
  course_id TEXT,
  request_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL DEFAULT 3,
  run_after TEXT NOT NULL,
  lease_owner TEXT,
  lease_until TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT
);
CREATE INDEX jobs_claim ON jobs(status, run_after);
CREATE INDEX jobs_course ON jobs(course_id);
