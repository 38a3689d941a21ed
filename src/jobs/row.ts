/** A row of the `jobs` table. */
export type JobStatus = "queued" | "running" | "completed" | "failed";

export interface JobRow {
  id: string;
  tenant_id: string | null;
  user_id: string | null;
  type: string;
  status: JobStatus;
  payload: string;
  result: string | null;
  error: string | null;
  course_id: string | null;
  request_id: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Times the job's process stopped while running it (a crash or a lost lease). */
  stalls: number;
  /** Token of the current lease: a run's writes apply only while the job still carries it. */
  lease_token: string | null;
}
