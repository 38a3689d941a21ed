/**
 * A small pool of extraction processes (INGEST_WORKERS). Each parse (and, for uploads that are
 * indexed, the indexing: worker-index.ts) runs in a child process, so no input can take the
 * server's memory or event loop with it: a process whose resident memory passes
 * INGEST_WORKER_MEMORY_MB is killed, as is one that runs past INGEST_TIMEOUT_MS (which stops even
 * a parser stuck in a loop), and the next job gets a fresh one. A process is also replaced after
 * a crash, and recycled after a large job or a number of jobs, so memory a parser took or leaked
 * is given back.
 *
 * A process whose job failed is replaced too: a parser given up on may still be running in it.
 *
 * Jobs are queued per tenant and started round-robin across tenants, and one tenant holds at most
 * `tenantWorkers` processes at once (INGEST_WORKERS - 1 by default), so another tenant's file
 * always finds a process free within one turn's time.
 *
 * A turn is one job, or a batch of a tenant's small text-like files queued together: sent in one
 * message and run one after another by the process, each answered as it ends, under the CPU
 * ceiling of one file, set once (a message per file cost the server more than the process spends
 * parsing an abstract). Each file of a batch keeps its own time limit;
 * the memory limit, a crash or a failed file fails only the file running then, and the files not
 * yet started go back to the front of the queue, for a fresh process. The files of a turn that are
 * indexed have their chunks committed together (extract-worker.ts): each is answered `held`, and
 * settled when the commit's message comes; if the process goes first, they go back to the queue too.
 */
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Subprocess } from "bun";
import { AppError, type ErrorCode } from "../errors.ts";
import { limitCpu } from "./cpu-limit.ts";
import type { ExtractResult, FileJob, FileJobRunner, FileKind, IngestConfig } from "./types.ts";

export interface WireError {
  code: ErrorCode;
  message: string;
}

/** A turn, as sent to an extraction process. */
export interface TurnMessage {
  turn: { id: number; job: FileJob }[];
}

export type WorkerReply = ({ ok: true; result: ExtractResult } | { ok: false; error: WireError }) & {
  id: number;
  /**
   * The process's JS heap when the turn's last job ended, before it collected garbage; measured
   * once a turn (a tenth of an abstract's work), as a turn of small files does not grow it.
   */
  heapMb?: number;
  /** Its chunks are written but not yet committed: it is settled by the next CommitMessage. */
  held?: boolean;
};

/** The held writes of a turn's files were committed, or failed to be (their files fail). */
export type CommitMessage = { committed: true } | { committed: false; error: WireError };

/** Sent by a process that starts indexing what it extracted: indexing gets a time budget of its own. */
export interface PhaseMessage {
  phase: "indexing";
}

/**
 * Jobs a process runs before it is replaced; a small file that shares a turn counts as
 * 1/SMALL_FILES_PER_JOB of one. A process start costs ~0.15 s of CPU: counted by turns, a
 * process ran 500-1,600 abstracts; counted so, 2,000.
 */
const RECYCLE_AFTER = 50;
const SMALL_FILES_PER_JOB = 40;
/**
 * Files batched into one turn: kinds whose parser is quick on a small file (no OCR, no page
 * loop), at most this size. 32 abstracts take ~0.3 s of a process, so another tenant waits little.
 */
const BATCH_KINDS: ReadonlySet<FileKind> = new Set(["txt", "md", "html"]);
const BATCH_FILE_BYTES = 256 * 1024;
const BATCH_MAX_FILES = 32;
/**
 * A process whose job left its heap at least this large is replaced. After the worker's own
 * collection the allocator still holds RSS in proportion to the largest job: ~155 MB after a
 * 339-page PDF (heap ~70-110 MB), ~250-310 MB after a 1,017-page one (heap ~155-180 MB), and only
 * ending the process returns it. A new process compiles pdf.js afresh: recycling after every
 * 339-page PDF cost 1.7x the CPU time for no lower peak, so only the largest jobs pay that.
 */
const RECYCLE_HEAP_MB = 128;
/** An idle process is stopped after this long, giving its memory back. */
const IDLE_MS = 60_000;
/** How often a busy process's resident memory is read. Parsers grow by well under 200 MB in this time. */
const WATCH_MS = 50;
const PAGE_BYTES = 4096;
const MB = 1024 * 1024;

const WORKER_URL = new URL("./extract-worker.ts", import.meta.url);

/**
 * The allocator (mimalloc) keeps freed memory a second before giving it back, not 10 ms: a
 * process that parses and indexes file after file otherwise returned and faulted in the same pages
 * for each, its scavenger thread alone ~1 ms of CPU per abstract (0.3 ms so). A 339-page PDF
 * peaked 5% higher (219 MB against 209). An operator's own setting is kept.
 */
const WORKER_ENV = { MIMALLOC_PURGE_DELAY: "1000" };

/**
 * The command that starts one extraction process: the worker script under Bun, or the executable
 * itself with its hidden `extract-worker` command once everything is one file.
 */
function workerCommand(): string[] {
  if (WORKER_URL.href.includes("$bunfs")) return [process.execPath, "extract-worker"];
  return [process.execPath, fileURLToPath(WORKER_URL)];
}

/** Resident memory of a process (Linux; null elsewhere, where only the time limit applies). */
function residentMb(pid: number): number | null {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return Number.isFinite(pages) ? (pages * PAGE_BYTES) / MB : null;
  } catch {
    return null;
  }
}

/** A file small enough, of a kind quick enough to parse, to share a turn with others. */
export function sharesTurns(kind: FileKind, path: string): boolean {
  if (!BATCH_KINDS.has(kind)) return false;
  try {
    return statSync(path).size <= BATCH_FILE_BYTES;
  } catch {
    return false;
  }
}

interface Slot {
  proc: Subprocess<"ignore", "inherit", "inherit">;
  busy: boolean;
  /** Jobs run, small files counted as parts of one (RECYCLE_AFTER). */
  jobs: number;
  idleTimer: ReturnType<typeof setTimeout> | null;
  tenant: string | null;
  /** Receives the messages of the turn running now. */
  onReply: ((message: WorkerReply | PhaseMessage | CommitMessage) => void) | null;
  /** Called if the process ends while a turn runs. */
  onExit: ((signal: string | null, code: number | null) => void) | null;
}

interface Task {
  job: FileJob;
  /** Whether the file may share a turn (sharesTurns), decided once when it is queued. */
  shares: boolean;
  tenant: string;
  timeoutMs: number;
  resolve: (result: ExtractResult) => void;
  reject: (err: AppError) => void;
}

export interface PoolStats {
  /** Processes running now. */
  processes: number;
  /** Processes started since the pool was created. */
  started: number;
  /** Processes replaced because their job left a large heap. */
  recycledLarge: number;
  /** Processes killed for passing the memory limit. */
  killedForMemory: number;
  /** Turns sent to processes; a batch of small files is one. */
  turns: number;
  /** Largest resident memory any extraction process reached, in MB. */
  peakWorkerMb: number;
}

export interface PoolOptions {
  recycleHeapMb?: number;
  /** Jobs a process runs before it is replaced (small files of shared turns counting as parts of one). */
  recycleAfter?: number;
  /** Resident memory (MB) past which a process is killed; 0 for no limit. */
  memoryMb?: number;
  /** Processes one tenant may hold at once; 0 for size - 1 (at least 1). */
  tenantWorkers?: number;
}

export class ExtractionPool implements FileJobRunner {
  private slots: Slot[] = [];
  /** Queued tasks by tenant, tenants in the order they are served. */
  private queues = new Map<string, Task[]>();
  private nextId = 1;
  private started = 0;
  private recycledLarge = 0;
  private killedForMemory = 0;
  private turns = 0;
  private peakWorkerMb = 0;
  private readonly perTenant: number;

  constructor(
    private readonly size: number,
    private readonly opts: PoolOptions = {},
  ) {
    this.perTenant = opts.tenantWorkers || Math.max(1, size - 1);
  }

  /** Extracts one file; `tenant` names whose turn it is in the queue. */
  run(job: FileJob, timeoutMs: number, tenant = ""): Promise<ExtractResult> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(tenant) ?? [];
      queue.push({ job, shares: sharesTurns(job.kind, job.path), tenant, timeoutMs, resolve, reject });
      this.queues.set(tenant, queue);
      this.pump();
    });
  }

  stats(): PoolStats {
    return {
      processes: this.slots.length,
      started: this.started,
      recycledLarge: this.recycledLarge,
      killedForMemory: this.killedForMemory,
      turns: this.turns,
      peakWorkerMb: Math.round(this.peakWorkerMb),
    };
  }

  /** Kills every process; queued jobs fail. */
  close(): void {
    for (const queue of this.queues.values()) {
      for (const task of queue) task.reject(new AppError("SHUTTING_DOWN", "the server is shutting down"));
    }
    this.queues.clear();
    for (const slot of this.slots.splice(0)) this.stop(slot);
  }

  private running(tenant: string): number {
    return this.slots.filter((s) => s.busy && s.tenant === tenant).length;
  }

  /** The first tenant in round-robin order with work queued and fewer than its share running. */
  private nextTenant(): string | null {
    for (const tenant of this.queues.keys()) if (this.running(tenant) < this.perTenant) return tenant;
    return null;
  }

  /** That tenant's next turn: its next task, with the small files queued behind it when it is one; the tenant goes to the back of the order. */
  private takeTurn(tenant: string): Task[] {
    const queue = this.queues.get(tenant)!;
    const turn = [queue.shift()!];
    if (turn[0]!.shares) while (turn.length < BATCH_MAX_FILES && queue[0]?.shares) turn.push(queue.shift()!);
    this.queues.delete(tenant);
    if (queue.length > 0) this.queues.set(tenant, queue);
    return turn;
  }

  /** Tasks of a turn that never started go back to the front of their tenant's queue. */
  private requeue(tenant: string, tasks: Task[]): void {
    if (tasks.length === 0) return;
    const queue = this.queues.get(tenant) ?? [];
    this.queues.set(tenant, [...tasks, ...queue]);
  }

  private pump(): void {
    for (let tenant = this.nextTenant(); tenant !== null; tenant = this.nextTenant()) {
      const free = this.slots.find((s) => !s.busy) ?? (this.slots.length < this.size ? this.spawn() : null);
      if (!free) return;
      this.dispatch(free, tenant, this.takeTurn(tenant));
    }
  }

  private spawn(): Slot {
    const slot: Slot = { busy: false, jobs: 0, idleTimer: null, tenant: null, onReply: null, onExit: null } as Slot;
    slot.proc = Bun.spawn(workerCommand(), {
      env: { ...WORKER_ENV, ...process.env },
      stdio: ["ignore", "inherit", "inherit"],
      serialization: "advanced",
      ipc: (message: WorkerReply | PhaseMessage | CommitMessage) => slot.onReply?.(message),
      onExit: (_proc, code, signal) => {
        this.slots = this.slots.filter((s) => s !== slot);
        if (slot.idleTimer) clearTimeout(slot.idleTimer);
        slot.onExit?.(signal === null ? null : String(signal), code);
      },
    });
    this.slots.push(slot);
    this.started++;
    return slot;
  }

  private stop(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.onExit = null;
    this.slots = this.slots.filter((s) => s !== slot);
    slot.proc.kill("SIGKILL");
  }

  /**
   * Runs a turn in the slot's process: the tasks in order, each settled by its own reply, timer and
   * memory check. The turn ends when its last task is answered, or when the process must go (a
   * failed, stopped or crashed task), and then the tasks not yet started are queued again.
   */
  private dispatch(slot: Slot, tenant: string, tasks: Task[]): void {
    const { proc } = slot;
    const entries = tasks.map((task) => ({ id: this.nextId++, task }));
    let current = 0;
    let retire = false;
    /** Files answered `held`: their chunks wait for the turn's commit, and they for its message. */
    const held: { task: Task; result: ExtractResult }[] = [];
    slot.busy = true;
    slot.tenant = tenant;
    this.turns++;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    proc.ref();

    const endTurn = () => {
      clearTimeout(timer);
      clearInterval(watch);
      slot.onReply = null;
      slot.onExit = null;
      slot.busy = false;
      slot.tenant = null;
      slot.jobs += tasks[0]!.shares ? tasks.length / SMALL_FILES_PER_JOB : 1;
      if (retire || slot.jobs >= (this.opts.recycleAfter ?? RECYCLE_AFTER)) this.stop(slot);
      else this.park(slot);
      // Held files whose commit never came are not saved: they go again, before those not started.
      this.requeue(tenant, [...held.splice(0).map((h) => h.task), ...entries.slice(current).map((e) => e.task)]);
      this.pump();
    };
    /** After a settled task: the next one's timer, the wait for the held files' commit, or the turn's end. */
    const proceed = () => {
      if (current < entries.length) timer = startTimer();
      else if (held.length === 0) endTurn();
      else timer = commitTimer();
    };
    /** Settles the task running now; `stopProcess` ends the turn there (the process is replaced). */
    const settle = (stopProcess: boolean, outcome: (task: Task) => void) => {
      const entry = entries[current];
      if (!entry) {
        // Every file is answered and the process must go while their commit is awaited.
        retire = true;
        endTurn();
        return;
      }
      current++;
      clearTimeout(timer);
      retire ||= stopProcess;
      outcome(entry.task);
      if (stopProcess) endTurn();
      else proceed();
    };
    const settleHeld = (message: CommitMessage) => {
      for (const { task, result } of held.splice(0)) {
        if (message.committed) task.resolve(result);
        else task.reject(new AppError(message.error.code, message.error.message));
      }
      if (current === entries.length) {
        clearTimeout(timer);
        endTurn();
      }
    };
    // While only a commit is awaited, a stop names the last file of the turn.
    const name = () => entries[Math.min(current, entries.length - 1)]!.task.job.filename;
    const seconds = () => Math.round(entries[Math.min(current, entries.length - 1)]!.task.timeoutMs / 1000);
    slot.onReply = (reply) => {
      if ("committed" in reply) return settleHeld(reply);
      if ("phase" in reply) {
        clearTimeout(timer);
        timer = startTimer();
        return;
      }
      if (reply.id !== entries[current]?.id) return;
      const large = (reply.heapMb ?? 0) >= (this.opts.recycleHeapMb ?? RECYCLE_HEAP_MB);
      if (large) this.recycledLarge++;
      // A large heap is given back after the turn; a failed file's parser may still run, so its process goes now.
      retire ||= large;
      settle(!reply.ok, (task) => {
        if (!reply.ok) task.reject(new AppError(reply.error.code, reply.error.message));
        else if (reply.held) held.push({ task, result: reply.result });
        else task.resolve(reply.result);
      });
    };
    slot.onExit = (signal, code) => {
      const file = name();
      const limit = seconds();
      settle(true, (task) =>
        task.reject(
          signal === "SIGXCPU"
            ? new AppError(
                "EXTRACTION_TIMEOUT",
                `"${file}" used more than ${limit} s of CPU time to extract and was stopped`,
              )
            : new AppError(
                "EXTRACTION_FAILED",
                `"${file}" could not be extracted: the parser process ended (${signal ? `signal ${signal}` : `exit code ${code}`})`,
              ),
        ),
      );
    };
    const startTimer = () => {
      const { timeoutMs } = entries[current]!.task;
      const file = name();
      return setTimeout(
        () =>
          settle(true, (task) =>
            task.reject(
              new AppError(
                "EXTRACTION_TIMEOUT",
                `"${file}" took longer than ${Math.round(timeoutMs / 1000)} s to extract and was stopped`,
              ),
            ),
          ),
        timeoutMs,
      );
    };
    /** The held files' commit waits for the lock at most one file's time limit; then they fail. */
    const commitTimer = () => {
      const limit = seconds();
      return setTimeout(() => {
        // The process may still commit: it goes, so a file reported failed never ends up saved.
        retire = true;
        settleHeld({
          committed: false,
          error: {
            code: "EXTRACTION_TIMEOUT",
            message: `the indexed text of "${name()}" and the files before it was not saved within ${limit} s`,
          },
        });
      }, entries.at(-1)!.task.timeoutMs);
    };
    let timer = startTimer();
    // One file's ceiling for the whole turn (extraction and indexing each have the time limit): a
    // turn of small files needs a small part of it, and a parser that never yields is stopped as soon.
    limitCpu(proc.pid, Math.max(...tasks.map((t) => (t.job.index ? 2 : 1) * t.timeoutMs)) / 1000);
    const limitMb = this.opts.memoryMb ?? 0;
    const watch = setInterval(() => {
      const mb = residentMb(proc.pid);
      if (mb === null) return;
      this.peakWorkerMb = Math.max(this.peakWorkerMb, mb);
      if (limitMb > 0 && mb > limitMb) {
        this.killedForMemory++;
        const file = name();
        settle(true, (task) =>
          task.reject(
            new AppError(
              "EXTRACTION_MEMORY_LIMIT",
              `"${file}" needed more than ${limitMb} MB of memory to extract and was stopped (INGEST_WORKER_MEMORY_MB)`,
            ),
          ),
        );
      }
    }, WATCH_MS);

    proc.send({ turn: entries.map(({ id, task }) => ({ id, job: task.job })) });
  }

  /** An idle process must not keep the server alive, and is stopped after a while. */
  private park(slot: Slot): void {
    slot.proc.unref();
    slot.idleTimer = setTimeout(() => this.stop(slot), IDLE_MS);
    slot.idleTimer.unref?.();
  }
}

/** The pool the configuration describes (INGEST_WORKERS, INGEST_WORKER_MEMORY_MB, INGEST_TENANT_WORKERS). */
export function createExtractionPool(
  cfg: Pick<IngestConfig, "ingestWorkers" | "ingestWorkerMemoryMb" | "ingestTenantWorkers">,
): ExtractionPool {
  return new ExtractionPool(cfg.ingestWorkers, {
    memoryMb: cfg.ingestWorkerMemoryMb,
    tenantWorkers: cfg.ingestTenantWorkers,
  });
}
