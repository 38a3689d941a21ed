-- The rate limits' counters, PostgreSQL's own: several nodes share one budget only if they count in
-- the database (SQLite's one process counts in memory, src/http/rate-limit.ts). One row per bucket
-- (a key, a learner, an address) and fixed one-minute window (minutes since the epoch); rows of
-- past windows are deleted as a new window begins. Unlogged: a crash may forget a minute's counts,
-- which costs nothing worth a write-ahead log record per request.
CREATE UNLOGGED TABLE rate_windows (
  bucket text NOT NULL,
  window_start bigint NOT NULL,
  used integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
