/**
 * Built-in podcast episodes of courses made from real documents, end to end through the server
 * (extractive engine, eSpeak NG): for each chapter's episode, the length of the MP3 as decoded, the
 * turns of its script, how often the speaker changes from one turn to the next, and the integrated
 * loudness of the decoded audio (ITU-R BS.1770-4). Nothing is estimated from word counts.
 *
 *   npx bun bench/podcast/run.ts [corpus paths relative to ../shared/corpus, default: a paper, a DOCX, a manual]
 */
import { join } from "node:path";
import { measureLoudness } from "../../src/podcasts/audio/normalise.ts";
import { call, ROOT, startServer } from "../../test/helpers/server.ts";
import { decodeMp3 } from "../../test/podcasts/fixtures/audio-analysis.ts";

const CORPUS = join(ROOT, "../shared/corpus");
const DOCUMENTS =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : ["pdf/tracemonkey.pdf", "docx/markitdown-autogen-paper.docx", "pdf/R-intro.pdf"];
const user = "bench";

interface Turn {
  speaker: string;
  text: string;
}
interface Episode {
  chapter_order: number;
  title: string;
  status: string;
  audio_url: string | null;
  script: { turns: Turn[] } | null;
  error?: { code: string; message: string };
}

const srv = await startServer({ env: { RATE_LIMIT_PER_MINUTE: "100000", TTS_PROVIDER: "espeak" } });
const key = await srv.createKey("bench", "production");
const rows: string[][] = [];
const minutes: number[] = [];

try {
  for (const path of DOCUMENTS) {
    const name = path.split("/").at(-1)!;
    const form = new FormData();
    form.append("files", new Blob([await Bun.file(join(CORPUS, path)).arrayBuffer()]), name);
    const made = await call(srv.url, "/v2/courses/generate-from-files?mode=sync", { key, user, body: form });
    if (made.status !== 200)
      throw new Error(`${path}: course generation failed (${made.status}): ${made.text.slice(0, 300)}`);
    const courseId: string = made.body.course.id;
    await call(srv.url, `/v2/courses/${courseId}/podcasts/generate?tts_provider=espeak`, { key, user, json: {} });
    let episodes: Episode[] = [];
    const deadline = Date.now() + 15 * 60_000;
    do {
      await Bun.sleep(1000);
      episodes = (await call(srv.url, `/v2/courses/${courseId}/podcasts`, { key, user })).body.episodes;
    } while ((episodes.length === 0 || episodes.some((e) => e.status === "generating")) && Date.now() < deadline);

    for (const e of episodes) {
      const turns = e.script?.turns ?? [];
      const changes = turns.slice(1).filter((t, i) => t.speaker !== turns[i]!.speaker).length;
      const words = turns.reduce((n, t) => n + t.text.split(/\s+/).filter(Boolean).length, 0);
      let length = "-";
      let lufs = "-";
      if (e.status === "ready" && e.audio_url) {
        const decoded = await decodeMp3(new Uint8Array(await (await fetch(e.audio_url)).arrayBuffer()));
        const seconds = decoded.samples.length / decoded.sampleRate;
        minutes.push(seconds / 60);
        length = (seconds / 60).toFixed(2);
        lufs = (await measureLoudness(decoded.samples, decoded.sampleRate)).toFixed(1);
      }
      rows.push([
        name,
        `${e.chapter_order + 1}. ${e.title.length > 44 ? `${e.title.slice(0, 43)}…` : e.title}`,
        e.status === "error" ? `error ${e.error?.code}` : e.status,
        length,
        String(turns.length),
        turns.length > 1 ? (changes / (turns.length - 1)).toFixed(2) : "-",
        lufs,
        String(words),
      ]);
    }
  }
} finally {
  await srv.stop();
}

const header = ["document", "chapter", "status", "minutes", "turns", "alternation", "LUFS", "words"];
const right = new Set([3, 4, 5, 6, 7]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  `| ${cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(" | ")} |`;
console.log("\nBuilt-in (extractive) episodes, eSpeak NG, 48 kbps MP3; minutes and LUFS measured on the decoded MP3;");
console.log("alternation = share of turns whose speaker differs from the previous turn's\n");
console.log(line(header));
console.log(`|${widths.map((w, i) => (right.has(i) ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`);
for (const r of rows) console.log(line(r));
const inRange = minutes.filter((m) => m >= 3 && m <= 8).length;
console.log(
  `\n${minutes.length} episodes ready of ${rows.length}; ${inRange} last 3 to 8 minutes (shorter ones come from chapters with little text to speak).`,
);
