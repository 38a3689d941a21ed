-- Podcast feeds: a course's revocable RSS feed. The feed's token is not stored: it is the feed id
-- with an HMAC of it under the server's feed secret, so it can be shown again and checked without
-- keeping a secret in the database. A revoked feed keeps its row (revoked_at set); a new one is a new id.

CREATE TABLE podcast_feeds (
  id TEXT PRIMARY KEY,
  course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE UNIQUE INDEX podcast_feeds_live ON podcast_feeds(course_id) WHERE revoked_at IS NULL;
