-- Learning progress: graded quiz and exam attempts, flashcard schedules and their review log,
-- chapters marked read. Every row names its tenant and learner (reads filter on them) and its
-- course, so deleting a course, a learner or a tenant deletes its progress too.

CREATE TABLE quiz_attempts (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id TEXT NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  order_index INTEGER NOT NULL,
  score REAL NOT NULL,
  total INTEGER NOT NULL,
  -- The questions as graded, the answers as sent and the per-question results (JSON): a quiz
  -- written again by a resume does not change what an old attempt was marked against.
  questions TEXT NOT NULL,
  answers TEXT NOT NULL,
  results TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX quiz_attempts_learner ON quiz_attempts(user_id, course_id, order_index, created_at);

CREATE TABLE exam_attempts (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  exam_id TEXT NOT NULL REFERENCES exams(id) ON DELETE CASCADE,
  exam_size INTEGER NOT NULL,
  exam_model TEXT NOT NULL,
  score REAL NOT NULL,
  total INTEGER NOT NULL,
  answers TEXT NOT NULL,
  results TEXT NOT NULL,
  -- Who marked the short answers: the built-in rubric grader or a model.
  grader_engine TEXT NOT NULL,
  grader_model TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX exam_attempts_learner ON exam_attempts(user_id, course_id, created_at);

-- The FSRS state of each card a learner has reviewed; a card with no row is new (due now).
CREATE TABLE flashcard_schedules (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  deck_id TEXT NOT NULL REFERENCES flashcard_decks(id) ON DELETE CASCADE,
  card_index INTEGER NOT NULL,
  card TEXT NOT NULL,
  due TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, deck_id, card_index)
);
CREATE INDEX flashcard_schedules_due ON flashcard_schedules(user_id, deck_id, due);

-- Every review as it was made, oldest first.
CREATE TABLE flashcard_reviews (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  deck_id TEXT NOT NULL REFERENCES flashcard_decks(id) ON DELETE CASCADE,
  card_index INTEGER NOT NULL,
  rating TEXT NOT NULL CHECK (rating IN ('again', 'hard', 'good', 'easy')),
  reviewed_at TEXT NOT NULL,
  due TEXT NOT NULL
);
CREATE INDEX flashcard_reviews_learner ON flashcard_reviews(user_id, deck_id, reviewed_at);

CREATE TABLE chapter_reads (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  chapter_id TEXT NOT NULL REFERENCES chapters(id) ON DELETE CASCADE,
  read_at TEXT NOT NULL,
  PRIMARY KEY (user_id, chapter_id)
);
