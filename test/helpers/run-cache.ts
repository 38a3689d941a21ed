/**
 * Fixtures built once per test run and read by every test file that asks for the same one. A real
 * document's extraction or course is most of a test's CPU, and `--parallel` gives each file a fresh
 * global, so a cache inside a file builds it once per file. Here a fixture is named by what it is
 * made of (a hash of the document's bytes and the settings), kept as JSON in the run's directory;
 * the first file to ask builds it while holding a lock file, the others wait for its JSON.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PREFIX = "cf-test-run-";

/** The process that runs the whole run: the coordinator of `--parallel` workers, else this one. */
export function runPid(): number {
  const cmdline = readFileSync(`/proc/${process.pid}/cmdline`, "utf8").split("\0");
  return cmdline.includes("--test-worker") ? process.ppid : process.pid;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let dir: string | null = null;

/** This run's directory; made on first use, when the directories of finished runs are removed. */
export function runDir(): string {
  if (dir) return dir;
  const pid = runPid();
  for (const name of readdirSync(tmpdir())) {
    const owner = Number(name.slice(PREFIX.length));
    if (name.startsWith(PREFIX) && owner !== pid && !alive(owner))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  dir = join(tmpdir(), `${PREFIX}${pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The hex SHA-1 of a file's bytes, for a key naming what a fixture is built from. */
export const fileHash = (path: string): string => new Bun.CryptoHasher("sha1").update(readFileSync(path)).digest("hex");

/** Takes the lock, or says who holds it; a lock left by a dead process is taken over. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch {
    // Gone since (built, or its build failed): the next turn looks again.
    let holder = 0;
    try {
      holder = Number(readFileSync(lock, "utf8"));
    } catch {
      return false;
    }
    // A holder that has not written its pid yet is alive; one that died left its lock behind.
    if (holder && !alive(holder)) rmSync(lock, { force: true });
    return false;
  }
}

/**
 * The fixture `kind` made of `parts` (strings, numbers, settings; a file by its `fileHash`): built by
 * `build` in the first file that asks, read back as JSON by the rest of the run. A build past
 * `budgetMs` (under the asking test's budget) gives up its lock, so a file that ended mid-build,
 * its processes killed, does not leave the others waiting: the next to ask builds it again.
 */
export async function runCached<T>(
  kind: string,
  parts: unknown,
  build: () => Promise<T>,
  budgetMs = 280_000,
): Promise<T> {
  const key = new Bun.CryptoHasher("sha1").update(JSON.stringify([kind, parts])).digest("hex");
  const file = join(runDir(), `${kind}-${key}.json`);
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return (await Bun.file(file).json()) as T;
    if (tryLock(lock)) {
      try {
        let timer: Timer | undefined;
        const overdue = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${kind} fixture not built within ${budgetMs} ms`)), budgetMs);
        });
        const value = await Promise.race([build(), overdue]).finally(() => clearTimeout(timer));
        // Written whole under another name first: a reader never sees half of it.
        await Bun.write(`${file}.part`, JSON.stringify(value));
        renameSync(`${file}.part`, file);
        return value;
      } finally {
        rmSync(lock, { force: true });
      }
    }
    await Bun.sleep(200);
  }
}
