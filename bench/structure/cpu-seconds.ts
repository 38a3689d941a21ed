/**
 * CPU seconds of a process and its descendants (Linux /proc): those it has waited for and those
 * still running (a server's extraction processes), so a bench reads where a course's cost goes on a
 * loaded machine, where wall time says mostly how loaded the machine is. NaN where /proc is not there.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** Fields after the command's closing parenthesis: state, ppid, … (ppid is the 2nd; utime to cstime the 12th to 15th). */
function statFields(pid: string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ");
  } catch {
    return null;
  }
}

export function cpuSeconds(pid: number): number {
  const own = statFields(String(pid));
  if (!own) return Number.NaN;
  const parents = new Map<string, string[]>();
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    const ppid = statFields(p)?.[1];
    if (ppid) parents.set(ppid, [...(parents.get(ppid) ?? []), p]);
  }
  const ticks = (fields: string[]) => fields.slice(11, 15).reduce((a, f) => a + Number(f), 0);
  let total = 0;
  for (let queue = [String(pid)]; queue.length > 0; ) {
    const p = queue.pop()!;
    const fields = p === String(pid) ? own : statFields(p);
    if (fields) total += ticks(fields);
    queue.push(...(parents.get(p) ?? []));
  }
  return total / TICKS_PER_SECOND;
}

/** This process's own CPU seconds. */
export const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
