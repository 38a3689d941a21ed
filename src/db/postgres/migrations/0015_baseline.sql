-- The PostgreSQL schema, equal to the SQLite one after its migrations 0001 to 0015 (a PostgreSQL
-- database starts empty, so it starts here; from 0016 on each migration is written for both engines).
-- Mapped types: TEXT is text (timestamps stay ISO-8601 strings, JSON stays text, so values and their
-- ordering are the same on both), INTEGER is integer (bigint where a value may pass 2^31: money in
-- micros), REAL is double precision. Every table but retrieval_chunks (whose seq is its rowid) has
-- `rowid`, an identity column standing for SQLite's implicit rowid: the queries that order by
-- insertion say `rowid` on both engines. The full-text and vector indexes are not here: they are
-- retrieval's own migration (0015_retrieval_search).

CREATE TABLE tenants (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  rate_limit_per_minute integer,
  tts_provider text,
  created_at text NOT NULL,
  environment_of text REFERENCES tenants(id) ON DELETE CASCADE
);

CREATE TABLE api_keys (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  env text NOT NULL CHECK (env IN ('test', 'production')),
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  rate_limit_per_minute integer,
  created_at text NOT NULL,
  revoked_at text
);
CREATE INDEX api_keys_tenant ON api_keys(tenant_id);

CREATE TABLE users (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  external_id text,
  email text,
  name text,
  learning_goal text,
  created_at text NOT NULL,
  UNIQUE (tenant_id, external_id)
);

CREATE TABLE courses (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title text NOT NULL,
  topic text NOT NULL,
  slug text NOT NULL,
  description text,
  outline text,
  source_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('generating', 'completed', 'failed')),
  organization text,
  learning_goal text,
  search_enabled integer NOT NULL DEFAULT 0,
  search_note text,
  num_chapters integer NOT NULL,
  engine text,
  model text,
  error text,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  completed_at text
);
CREATE INDEX courses_owner_created ON courses(tenant_id, user_id, created_at DESC, id DESC);

CREATE TABLE chapters (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  order_index integer NOT NULL,
  title text NOT NULL,
  objectives text NOT NULL DEFAULT '[]',
  status text NOT NULL CHECK (status IN ('pending', 'running', 'completed')),
  content text,
  key_concepts text NOT NULL DEFAULT '[]',
  engine text,
  model text,
  completed_at text,
  created_at text NOT NULL,
  UNIQUE (course_id, order_index)
);

CREATE TABLE quiz_questions (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  chapter_id text NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  position integer NOT NULL,
  type text NOT NULL,
  prompt text NOT NULL,
  choices text NOT NULL DEFAULT '[]',
  answer text NOT NULL,
  explanation text,
  UNIQUE (chapter_id, position)
);

CREATE TABLE chapter_sources (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  chapter_id text NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  position integer NOT NULL,
  document_id text,
  chunk_id text,
  filename text,
  page integer,
  timestamp_seconds double precision,
  url text,
  title text,
  excerpt text,
  score double precision,
  paragraphs text NOT NULL DEFAULT '[]',
  UNIQUE (chapter_id, position)
);

CREATE TABLE documents (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  space_id text,
  kind text NOT NULL CHECK (kind IN ('extract', 'index')),
  filename text NOT NULL,
  source_type text NOT NULL CHECK (source_type IN ('file', 'youtube', 'web')),
  source_url text,
  blob_key text,
  mime_type text,
  pages integer,
  char_count integer NOT NULL DEFAULT 0,
  markdown text,
  status text NOT NULL CHECK (status IN ('processing', 'ready', 'error')),
  error text,
  chunk_count integer NOT NULL DEFAULT 0,
  billed_micros bigint NOT NULL DEFAULT 0,
  created_at text NOT NULL,
  title text,
  repeats text,
  repeated_chunks text
);
CREATE INDEX documents_owner ON documents(tenant_id, user_id, created_at DESC, id DESC);
CREATE INDEX documents_space ON documents(tenant_id, space_id);

CREATE TABLE course_documents (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  document_id text NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  PRIMARY KEY (course_id, document_id)
);

CREATE TABLE usage_events (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text,
  api_key_id text,
  key_env text NOT NULL CHECK (key_env IN ('test', 'production')),
  operation text NOT NULL,
  quantity integer NOT NULL DEFAULT 1,
  amount_micros bigint NOT NULL DEFAULT 0,
  ref_id text,
  created_at text NOT NULL
);
CREATE INDEX usage_events_tenant_month ON usage_events(tenant_id, key_env, operation, created_at);

CREATE TABLE jobs (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text,
  type text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  payload text NOT NULL DEFAULT '{}',
  result text,
  error text,
  course_id text,
  request_id text,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  run_after text NOT NULL,
  lease_owner text,
  lease_until text,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  started_at text,
  finished_at text,
  stalls integer NOT NULL DEFAULT 0,
  lease_token text
);
CREATE INDEX jobs_claim ON jobs(status, run_after);
CREATE INDEX jobs_course ON jobs(course_id);

CREATE TABLE retrieval_chunks (
  seq integer PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY,
  id text NOT NULL UNIQUE,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text,
  document_id text REFERENCES documents(id) ON DELETE CASCADE,
  course_id text REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id text REFERENCES chapters(id) ON DELETE CASCADE,
  space_id text,
  position integer NOT NULL,
  text text NOT NULL,
  -- Document title and heading path, prepended to the text when it is embedded and indexed.
  context text NOT NULL DEFAULT '',
  heading_path text NOT NULL DEFAULT '[]',
  page integer,
  slide integer,
  timestamp_seconds double precision,
  embedder text NOT NULL,
  dimension integer NOT NULL,
  created_at text NOT NULL,
  role text NOT NULL DEFAULT 'body',
  CHECK ((document_id IS NULL) <> (chapter_id IS NULL))
);
CREATE INDEX retrieval_chunks_document ON retrieval_chunks(document_id, position);
CREATE INDEX retrieval_chunks_chapter ON retrieval_chunks(chapter_id, position);
CREATE INDEX retrieval_chunks_course ON retrieval_chunks(course_id);
CREATE INDEX retrieval_chunks_owner ON retrieval_chunks(tenant_id, user_id);
CREATE INDEX retrieval_chunks_embedder ON retrieval_chunks(embedder, dimension);

CREATE TABLE retrieval_vector_tables (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  embedder text NOT NULL,
  dimension integer NOT NULL,
  table_name text NOT NULL UNIQUE,
  created_at text NOT NULL,
  PRIMARY KEY (embedder, dimension)
);

CREATE TABLE study_guides (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  course_id text PRIMARY KEY REFERENCES courses(id) ON DELETE CASCADE,
  guide text NOT NULL,
  engine text NOT NULL,
  model text NOT NULL,
  created_at text NOT NULL
);

CREATE TABLE course_notes (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  model text NOT NULL,
  learning_goal text NOT NULL,
  learning_style text NOT NULL,
  tutor_tone text NOT NULL,
  notes text NOT NULL,
  engine text NOT NULL,
  created_at text NOT NULL,
  UNIQUE (course_id, model, learning_goal, learning_style, tutor_tone)
);
CREATE INDEX course_notes_latest ON course_notes(course_id, created_at DESC);

CREATE TABLE flashcard_decks (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  model text NOT NULL,
  deck text NOT NULL,
  engine text NOT NULL,
  created_at text NOT NULL,
  UNIQUE (course_id, model)
);

CREATE TABLE exams (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  model text NOT NULL,
  exam_size integer NOT NULL,
  exam text NOT NULL,
  engine text NOT NULL,
  created_at text NOT NULL,
  UNIQUE (course_id, model, exam_size)
);

CREATE TABLE podcast_episodes (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id text NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  chapter_order integer NOT NULL,
  title text NOT NULL,
  status text NOT NULL CHECK (status IN ('generating', 'ready', 'error')),
  tts_provider text NOT NULL CHECK (tts_provider IN ('piper', 'espeak')),
  script text,
  script_engine text,
  script_model text,
  voices text,
  blob_key text,
  content_type text,
  duration_seconds double precision,
  size_bytes integer,
  error text,
  job_id text,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  ready_at text,
  UNIQUE (course_id, chapter_id)
);
CREATE INDEX podcast_episodes_course_order ON podcast_episodes(course_id, chapter_order);

CREATE TABLE webhooks (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  url text NOT NULL,
  events text NOT NULL,                 -- JSON array of subscribed event names
  secret text NOT NULL,                 -- kept in clear: it signs every delivery
  active integer NOT NULL DEFAULT 1,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  deactivated_at text
);
CREATE UNIQUE INDEX webhooks_tenant_url ON webhooks(tenant_id, url);

CREATE TABLE webhook_deliveries (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,                  -- sent as X-Service-Delivery, the same on every retry
  webhook_id text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  tenant_id text NOT NULL,
  event text NOT NULL,
  body text NOT NULL,                   -- the exact bytes sent and signed
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'canceled')),
  attempts integer NOT NULL DEFAULT 0,
  job_id text,                          -- the queued job that makes the next attempt
  next_attempt_at text,
  created_at text NOT NULL,
  finished_at text
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id);

CREATE TABLE webhook_attempts (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,             -- 1 = first try, 2 = first retry, ...
  started_at text NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  ok integer NOT NULL,
  UNIQUE (delivery_id, attempt)
);

CREATE TABLE quiz_attempts (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id text NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  order_index integer NOT NULL,
  score double precision NOT NULL,
  total integer NOT NULL,
  -- The questions as graded, the answers as sent and the per-question results (JSON): a quiz
  -- written again by a resume does not change what an old attempt was marked against.
  questions text NOT NULL,
  answers text NOT NULL,
  results text NOT NULL,
  created_at text NOT NULL
);
CREATE INDEX quiz_attempts_learner ON quiz_attempts(user_id, course_id, order_index, created_at);

CREATE TABLE exam_attempts (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  exam_id text NOT NULL REFERENCES exams(id) ON DELETE CASCADE,
  exam_size integer NOT NULL,
  exam_model text NOT NULL,
  score double precision NOT NULL,
  total integer NOT NULL,
  answers text NOT NULL,
  results text NOT NULL,
  -- Who marked the short answers: the built-in rubric grader or a model.
  grader_engine text NOT NULL,
  grader_model text NOT NULL,
  created_at text NOT NULL
);
CREATE INDEX exam_attempts_learner ON exam_attempts(user_id, course_id, created_at);

CREATE TABLE flashcard_schedules (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  deck_id text NOT NULL REFERENCES flashcard_decks(id) ON DELETE CASCADE,
  card_index integer NOT NULL,
  card text NOT NULL,
  due text NOT NULL,
  updated_at text NOT NULL,
  PRIMARY KEY (user_id, deck_id, card_index)
);
CREATE INDEX flashcard_schedules_due ON flashcard_schedules(user_id, deck_id, due);

CREATE TABLE flashcard_reviews (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  deck_id text NOT NULL REFERENCES flashcard_decks(id) ON DELETE CASCADE,
  card_index integer NOT NULL,
  rating text NOT NULL CHECK (rating IN ('again', 'hard', 'good', 'easy')),
  reviewed_at text NOT NULL,
  due text NOT NULL
);
CREATE INDEX flashcard_reviews_learner ON flashcard_reviews(user_id, deck_id, reviewed_at);

CREATE TABLE chapter_reads (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id text NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  read_at text NOT NULL,
  PRIMARY KEY (user_id, chapter_id)
);

CREATE TABLE podcast_feeds (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  course_id text NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  created_at text NOT NULL,
  revoked_at text
);
CREATE UNIQUE INDEX podcast_feeds_live ON podcast_feeds(course_id) WHERE revoked_at IS NULL;
CREATE TABLE console_sessions (
  rowid bigint GENERATED ALWAYS AS IDENTITY,
  token_hash text PRIMARY KEY,
  tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  key_id text NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at text NOT NULL,
  expires_at text NOT NULL
);
CREATE INDEX console_sessions_expires ON console_sessions(expires_at);
CREATE INDEX console_sessions_key ON console_sessions(key_id);
CREATE UNIQUE INDEX tenants_environment_of ON tenants(environment_of);
