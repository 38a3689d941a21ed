/**
 * Where a test file's time goes (#31): runs each named file alone (`bun test <file>`, one after
 * another) and prints its CPU time, user and system, of the test process and every process it
 * started (servers, extraction processes, eSpeak, PostgreSQL), beside its wall time. A reaped
 * child's time counts in its parent's, but a process killed at the end is often never reaped: so the
 * file runs in its own session, whose processes are sampled every 100 ms, and the larger of the two
 * sums is shown (a lower bound either way: a process shorter than a sample may be missed). Each
 * file's output, with its tests' own durations, is kept in a temporary directory named at the end.
 * Below the table, each file's sampled CPU by kind of process (the test process, with any server it
 * runs in process; server processes and how many were started; extraction processes; the
 * executable's build; eSpeak; PostgreSQL; Chromium, which playwright starts in a session of its
 * own and which is found as the test process's descendant). CPU is the figure that holds on a machine shared with other work; wall is what a
 * worker of the parallel run is busy for. With `--timings <file>` (a run's `--update-timings`
 * output) it prints that run's per-file wall times instead, slowest first, with each file's share
 * of the whole: the files at the top are the serial tail a two-worker run ends on.
 * Usage: nice -n 10 bun scripts/test-cpu.ts test/a.test.ts test/b.test.ts…
 *        bun scripts/test-cpu.ts --timings test/timings.json [count]
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

const seconds = (us: bigint | number) => (Number(us) / 1e6).toFixed(1);

/** Clock ticks per second, the unit of /proc/<pid>/stat's times. */
const TICKS = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

interface Sampled {
  user: number;
  system: number;
  kind: string;
}

/** What a process of a test file's session is, by its command line. */
function kindOf(pid: number, sid: number): string {
  if (pid === sid) return "test process";
  let cmd: string;
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "other";
  }
  const kinds: [RegExp, string][] = [
    [/ serve( |$)/, "servers"],
    [/extract-worker|ocr-worker/, "extraction"],
    [/build\.ts/, "build"],
    [/espeak/, "eSpeak"],
    [/postgres|initdb/, "PostgreSQL"],
    [/chromium/, "Chromium"],
  ];
  const kind = kinds.find(([re]) => re.test(cmd))?.[1] ?? (basename(cmd.split(" ")[0] ?? "") || "other");
  // Chromium's own processes by their part: the browser, a page's renderer, the GPU process (which
  // paints in software with --disable-gpu), the network service.
  return kind === "Chromium" ? `Chromium ${/--type=(\S+)/.exec(cmd)?.[1] ?? "browser"}` : kind;
}

/**
 * Each process of a session, and each descendant that left it (Chromium, which playwright starts in
 * a session of its own), with its own user and system time so far, in microseconds.
 */
function sessionTimes(sid: number, into: Map<number, Sampled>): void {
  const others = new Map<number, { ppid: number; user: number; system: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the command's closing parenthesis: state, ppid, pgrp, session, … utime (11), stime (12).
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const pid = Number(name);
    const times = { ppid: Number(f[1]), user: (Number(f[11]) * 1e6) / TICKS, system: (Number(f[12]) * 1e6) / TICKS };
    if (Number(f[3]) === sid || into.has(pid)) {
      // Asked at every sample: a child seen between its fork and its exec still has its parent's
      // command line (Chromium's browser counted as "bun"), and a renderer forked from Chromium's
      // zygote renames itself after. A process gone before its command line was read keeps its kind.
      const kind = kindOf(pid, sid);
      into.set(pid, {
        user: times.user,
        system: times.system,
        kind: kind === "other" ? (into.get(pid)?.kind ?? kind) : kind,
      });
    } else others.set(pid, times);
  }
  // A child of a counted process is counted, whatever its session; until no more are found.
  for (let found = true; found; ) {
    found = false;
    for (const [pid, p] of others)
      if (into.has(p.ppid)) {
        into.set(pid, { user: p.user, system: p.system, kind: kindOf(pid, sid) });
        others.delete(pid);
        found = true;
      }
  }
}

/** The sampled CPU by kind of process, largest first; servers with how many were started. */
function byKind(sampled: Map<number, Sampled>): string {
  const kinds = new Map<string, { us: number; n: number }>();
  for (const p of sampled.values()) {
    const k = kinds.get(p.kind) ?? { us: 0, n: 0 };
    kinds.set(p.kind, { us: k.us + p.user + p.system, n: k.n + 1 });
  }
  // Short-lived helpers (a shell, mount, ls) under a twentieth of a second are left out.
  return [...kinds.entries()]
    .filter(([, k]) => k.us >= 50_000)
    .sort((a, b) => b[1].us - a[1].us)
    .map(([kind, { us, n }]) => `${kind} ${seconds(us)} s${kind === "servers" ? ` (${n} started)` : ""}`)
    .join(", ");
}

async function measure(file: string, logs: string): Promise<[row: string, kinds: string]> {
  const started = performance.now();
  // setsid: the file's processes, and only they, share a session named by the test process's pid.
  const proc = Bun.spawn(["setsid", "bun", "test", "--timeout", "300000", file], { stdout: "pipe", stderr: "pipe" });
  const sampled = new Map<number, Sampled>();
  const sampler = setInterval(() => sessionTimes(proc.pid, sampled), 100);
  const [, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  clearInterval(sampler);
  await Bun.write(join(logs, `${basename(file)}.log`), err);
  const wall = ((performance.now() - started) / 1000).toFixed(1);
  const usage = proc.resourceUsage();
  let [user, system] = usage ? [Number(usage.cpuTime.user), Number(usage.cpuTime.system)] : [0, 0];
  const [su, ss] = [...sampled.values()].reduce(([u, s], p) => [u + p.user, s + p.system], [0, 0]);
  if (su + ss > user + system) [user, system] = [su, ss];
  const cpu = `${seconds(user + system)} s`;
  const split = `${seconds(user)} + ${seconds(system)}`;
  const counts = err.match(/^\s*\d+ (pass|fail)$/gm)?.map((l) => l.trim()) ?? [];
  const status = code === 0 ? counts.join(", ") : `FAILED (${counts.join(", ") || `exit ${code}`})`;
  return [`| ${file} | ${cpu} | ${split} | ${wall} s | ${status} |`, `${file}: ${byKind(sampled)}`];
}

function fromTimings(path: string, count: number): void {
  const { files } = JSON.parse(readFileSync(path, "utf8")) as { files: Record<string, number> };
  const all = Object.entries(files).sort((a, b) => b[1] - a[1]);
  const total = all.reduce((s, [, ms]) => s + ms, 0);
  console.log(`| File | Wall | Share of ${(total / 1000).toFixed(0)} s |\n|---|---|---|`);
  for (const [file, ms] of all.slice(0, count))
    console.log(`| ${file} | ${(ms / 1000).toFixed(1)} s | ${((100 * ms) / total).toFixed(1)} % |`);
}

const args = process.argv.slice(2);
if (args[0] === "--timings") fromTimings(resolve(args[1] ?? "test/timings.json"), Number(args[2] ?? 20));
else {
  console.log("| File | CPU | user + system | Wall | Tests |\n|---|---|---|---|---|");
  const logs = mkdtempSync(join(tmpdir(), "test-cpu-"));
  const kinds: string[] = [];
  for (const file of args) {
    const [row, byKinds] = await measure(file, logs);
    console.log(row);
    kinds.push(byKinds);
  }
  console.log(`\nSampled CPU by kind of process:\n${kinds.join("\n")}\n\nEach file's output: ${logs}`);
}
