/**
 * The kernel's own CPU budget for an extraction process's turn: its soft RLIMIT_CPU set to what the
 * process has used plus the turn's time limits, so that even a parser that never yields, in a
 * process whose server was killed, ends (SIGXCPU). Set by libc's prlimit(2) through bun:ffi: a
 * `prlimit` (util-linux) spawn per turn cost the server ~1 ms, and left the limit unset for a
 * moment while the turn ran. Without libc's call the spawn is the way; without either, the pool's
 * own timer still applies.
 */
import { dlopen } from "bun:ffi";
import { readFileSync } from "node:fs";

const RLIMIT_CPU = 0;

type Prlimit = (pid: number, resource: number, limit: BigUint64Array | null, old: BigUint64Array | null) => number;

let prlimitCall: Prlimit | null | undefined;

function libcPrlimit(): Prlimit | null {
  if (prlimitCall !== undefined) return prlimitCall;
  try {
    const { symbols } = dlopen("libc.so.6", { prlimit: { args: ["i32", "i32", "ptr", "ptr"], returns: "i32" } });
    prlimitCall = symbols.prlimit as unknown as Prlimit;
  } catch {
    prlimitCall = null;
  }
  return prlimitCall;
}

/** CPU seconds a process has used, its threads included (Linux; null elsewhere). */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // utime and stime, fields 14 and 15, in clock ticks of 1/100 s; the name before ")" may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Sets the process's soft CPU limit to its CPU time so far plus `seconds`; the hard limit is kept. */
export function limitCpu(pid: number, seconds: number): void {
  const used = cpuSeconds(pid);
  if (used === null) return;
  const soft = Math.ceil(used + seconds);
  const prlimit = libcPrlimit();
  // rlim_cur, rlim_max: the hard limit is read first, to be written back as it was.
  const limit = new BigUint64Array(2);
  if (prlimit && prlimit(pid, RLIMIT_CPU, null, limit) === 0) {
    limit[0] = BigInt(soft);
    if (prlimit(pid, RLIMIT_CPU, limit, null) === 0) return;
  }
  try {
    Bun.spawn(["prlimit", `--pid=${pid}`, `--cpu=${soft}:`], { stdio: ["ignore", "ignore", "ignore"] });
  } catch {
    // No prlimit on this machine.
  }
}
