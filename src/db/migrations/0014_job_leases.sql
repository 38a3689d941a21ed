-- A job's stall count (times its process stopped while running it: the job fails past JOB_MAX_STALLS)
-- and the token of its current lease, which fences every write of the run that holds it.
ALTER TABLE jobs ADD COLUMN stalls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN lease_token TEXT;
