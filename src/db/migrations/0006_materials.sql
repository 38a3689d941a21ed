-- Per-course study materials: the study guide (one per course, built at completion), and the
-- cached notes, flashcard decks and exams with the keys their caches are looked up by.

CREATE TABLE study_guides (
  course_id TEXT PRIMARY KEY REFERENCES courses(id) ON DELETE CASCADE,
  guide TEXT NOT NULL,
  engine TEXT NOT NULL,
  model TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Cached per (course, model, options); a new combination is a new, charged generation.
CREATE TABLE course_notes (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  learning_goal TEXT NOT NULL,
  learning_style TEXT NOT NULL,
  tutor_tone TEXT NOT NULL,
  notes TEXT NOT NULL,
  engine TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (course_id, model, learning_goal, learning_style, tutor_tone)
);
CREATE INDEX course_notes_latest ON course_notes(course_id, created_at DESC);

CREATE TABLE flashcard_decks (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  deck TEXT NOT NULL,
  engine TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (course_id, model)
);

CREATE TABLE exams (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  exam_size INTEGER NOT NULL,
  exam TEXT NOT NULL,
  engine TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (course_id, model, exam_size)
);
