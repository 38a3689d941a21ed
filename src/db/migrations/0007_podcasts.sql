-- Podcast episodes: one per chapter at most (the unique key is what makes repeated and concurrent
-- generate calls safe). The script is kept once written, so a retried episode only re-does speech.

CREATE TABLE podcast_episodes (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id TEXT NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  chapter_order INTEGER NOT NULL,
  title TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('generating', 'ready', 'error')),
  tts_provider TEXT NOT NULL CHECK (tts_provider IN ('piper', 'espeak')),
  script TEXT,
  script_engine TEXT,
  script_model TEXT,
  voices TEXT,
  blob_key TEXT,
  content_type TEXT,
  duration_seconds REAL,
  size_bytes INTEGER,
  error TEXT,
  job_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ready_at TEXT,
  UNIQUE (course_id, chapter_id)
);
CREATE INDEX podcast_episodes_course_order ON podcast_episodes(course_id, chapter_order);
