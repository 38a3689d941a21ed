/**
 * The stall tracer of the load benchmarks: reads a CPU profile of the server's thread (`bun
 * --cpu-prof`, which samples about once a millisecond while the thread runs and not while it
 * waits) and lists every stretch the thread ran without a pause of `gapMs`, longer than `minMs`:
 * when it began, how long it held the thread, and where its samples fell (our own function nearest
 * the top of each sampled stack, with the share of the stretch's samples).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Stall {
  /** Wall-clock start, ms since the epoch (the profile's clock). */
  at: number;
  ms: number;
  /** "function (file:line)" of our code nearest each sample's top, by share of the stretch's samples. */
  where: { frame: string; share: number }[];
}

const ROOT_MARK = "/src/";

function frameName(n: ProfileNode): string {
  const url = n.callFrame.url;
  const file = url.includes(ROOT_MARK) ? `src/${url.slice(url.lastIndexOf(ROOT_MARK) + ROOT_MARK.length)}` : url;
  return `${n.callFrame.functionName || "(anonymous)"} (${file || "native"}:${n.callFrame.lineNumber + 1})`;
}

/** For each node, the frame of our own code nearest the top of its stack (or its own frame when none is ours). */
function ownFrames(nodes: ProfileNode[]): Map<number, string> {
  const parent = new Map<number, number>();
  for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = new Map<number, string>();
  for (const n of nodes) {
    let at: ProfileNode | undefined = n;
    while (at && !at.callFrame.url.includes(ROOT_MARK)) at = byId.get(parent.get(at.id) ?? -1);
    out.set(n.id, frameName(at ?? n));
  }
  return out;
}

/** Stretches of the profile's thread running longer than `minMs` without a pause of `gapMs`. */
export function stallsOf(profile: Profile, minMs = 50, gapMs = 5): Stall[] {
  const own = ownFrames(profile.nodes);
  const stalls: Stall[] = [];
  let t = profile.startTime;
  let run: { from: number; to: number; ids: number[] } | null = null;
  const close = () => {
    if (run && (run.to - run.from) / 1000 > minMs) {
      const counts = new Map<string, number>();
      for (const id of run.ids) counts.set(own.get(id)!, (counts.get(own.get(id)!) ?? 0) + 1);
      const where = [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([frame, n]) => ({ frame, share: n / run!.ids.length }));
      stalls.push({ at: run.from / 1000, ms: (run.to - run.from) / 1000, where });
    }
    run = null;
  };
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i]!;
    t += delta;
    if (run && delta > gapMs * 1000) close();
    // A sample's time is when the thread was seen running: it ran for about the interval before it.
    run ??= { from: t - Math.min(delta, 1000), to: t, ids: [] };
    run.to = t;
    run.ids.push(id);
  });
  close();
  return stalls;
}

/** The stalls of every profile in `dir` (one server run), as a markdown table, longest first. */
export function stallTable(dir: string, sinceMs: number, minMs = 50, rows = 15): string {
  const stalls = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .flatMap((f) => stallsOf(JSON.parse(readFileSync(join(dir, f), "utf8")) as Profile, minMs))
    .filter((s) => s.at >= sinceMs);
  const total = stalls.reduce((sum, s) => sum + s.ms, 0);
  const lines = [
    `${stalls.length} stretches over ${minMs} ms held the server's thread, ${(total / 1000).toFixed(1)} s in all; the longest ${rows}:\n`,
    "| at s | ms | where (share of samples) |",
    "|---|---|---|",
    ...stalls
      .sort((a, b) => b.ms - a.ms)
      .slice(0, rows)
      .map(
        (s) =>
          `| ${((s.at - sinceMs) / 1000).toFixed(1)} | ${s.ms.toFixed(0)} | ${s.where.map((w) => `${w.frame} ${(w.share * 100).toFixed(0)}%`).join("; ")} |`,
      ),
  ];
  return lines.join("\n");
}
