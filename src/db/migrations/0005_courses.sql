-- Course generation: the extracted segments of a course's sources, in document order. Kept so a
-- job resumed after a restart can plan its outline (sequential sections, shared themes) without
-- extracting the sources again.
CREATE TABLE document_segments (
  document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  markdown TEXT NOT NULL,
  page INTEGER,
  slide INTEGER,
  timestamp_seconds REAL,
  heading TEXT,
  PRIMARY KEY (document_id, position)
);
