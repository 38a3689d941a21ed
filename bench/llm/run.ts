/**
 * Time spent in our own code per stage of a 4-chapter course built from ~30 pages of real text,
 * with the fake Ollama (a separate process, zero latency) standing in for the model; then the same
 * course from the extractive engine. "Own code" is this process's CPU time during the stage: the
 * fake model runs in another process, so its work is not counted.
 *
 *   bun bench/llm/run.ts
 */
import { readFileSync } from "node:fs";
import {
  answerQuestion,
  type ChapterSummary,
  type Passage,
  UsageMeter,
  writeChapter,
  writeExamQuestions,
  writeFlashcards,
  writeNotes,
  writeOutline,
  writePodcastScript,
  writeStudyGuide,
} from "../../src/llm/artefacts.ts";
import { createLlm } from "../../src/llm/create.ts";
import type { Llm } from "../../src/llm/types.ts";
import { engineThread } from "../../test/helpers/engine-thread.ts";
import { corpusDocs, toPassages } from "../../test/llm/corpus.ts";
import { llmConfig } from "../../test/llm/support.ts";

const PAGE_CHARS = 3000;
const CHAPTERS = 4;

function thirtyPages(): Passage[] {
  const redbook = readFileSync(
    new URL("../../../shared/corpus/pdf/ground_truth/redp5110_sampled.docling.md", import.meta.url),
    "utf8",
  );
  const text = [
    redbook,
    ...[corpusDocs.wikipedia(), corpusDocs.v8blog(), corpusDocs.ietf()].flat().map((p) => p.text),
  ].join("\n\n");
  return toPassages("book", text.slice(0, 30 * PAGE_CHARS));
}

async function startFake(): Promise<{ url: string; stop: () => void }> {
  const proc = Bun.spawn(
    [process.execPath, new URL("../../test/helpers/fake-ollama.ts", import.meta.url).pathname, "--port", "0"],
    {
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("fake Ollama exited before listening");
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = /listening on (\S+)/.exec(out)![1]!;
  return { url, stop: () => proc.kill() };
}

interface Row {
  stage: string;
  calls: number;
  wallMs: number;
  cpuMs: number;
}

async function stage<T>(rows: Row[], name: string, fn: (meter: UsageMeter) => Promise<T>): Promise<T> {
  const meter = new UsageMeter();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const out = await fn(meter);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  // Extractive builds are metered as zero-token "calls"; they are not model calls.
  rows.push({
    stage: name,
    calls: meter.engine === "extractive" ? 0 : meter.calls,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
  });
  return out;
}

async function course(llm: Llm, passages: Passage[]): Promise<Row[]> {
  const rows: Row[] = [];
  const outline = await stage(rows, "outline", (meter) =>
    writeOutline(llm, { numChapters: CHAPTERS, passages, learningGoal: "exams", meter }),
  );
  const per = Math.ceil(passages.length / CHAPTERS);
  const chapters: ChapterSummary[] = await stage(rows, `chapters (${CHAPTERS})`, (meter) =>
    Promise.all(
      outline.chapters.map(async (c, i) => {
        const ch = await writeChapter(llm, {
          courseTitle: outline.title,
          chapterTitle: c.title,
          objectives: c.objectives,
          passages: passages.slice(i * per, (i + 1) * per).slice(0, 8),
          meter,
        });
        return { title: c.title, content: ch.content, key_concepts: ch.key_concepts };
      }),
    ),
  );
  await stage(rows, "study guide", (meter) => writeStudyGuide(llm, { courseTitle: outline.title, chapters, meter }));
  await stage(rows, "notes", (meter) =>
    writeNotes(llm, {
      courseTitle: outline.title,
      chapters,
      learningGoal: "exams",
      learningStyle: "clear_structured",
      tutorTone: "professor",
      meter,
    }),
  );
  await stage(rows, "flashcards", (meter) => writeFlashcards(llm, { courseTitle: outline.title, chapters, meter }));
  await stage(rows, "exam (4 x 5 questions)", (meter) =>
    Promise.all(
      chapters.map((chapter) =>
        writeExamQuestions(llm, {
          courseTitle: outline.title,
          chapter,
          count: 5,
          types: ["mcq", "short_answer"],
          meter,
        }),
      ),
    ),
  );
  await stage(rows, "podcast script (1 chapter)", (meter) =>
    writePodcastScript(llm, {
      courseTitle: outline.title,
      chapterTitle: chapters[0]!.title,
      content: chapters[0]!.content,
      key_concepts: chapters[0]!.key_concepts,
      meter,
    }),
  );
  await stage(rows, "answer", (meter) =>
    answerQuestion(llm, { question: "What is row and column access control?", passages: passages.slice(0, 6), meter }),
  );
  return rows;
}

function print(title: string, rows: Row[]) {
  const total = rows.reduce((a, r) => ({
    stage: "total",
    calls: a.calls + r.calls,
    wallMs: a.wallMs + r.wallMs,
    cpuMs: a.cpuMs + r.cpuMs,
  }));
  console.log(`\n${title}`);
  console.log("| stage | model calls | wall ms | own code ms (CPU) |");
  console.log("|---|---:|---:|---:|");
  for (const r of [...rows, { ...total, stage: "total" }]) {
    console.log(`| ${r.stage} | ${r.calls} | ${r.wallMs.toFixed(1)} | ${r.cpuMs.toFixed(1)} |`);
  }
}

const passages = thirtyPages();
const chars = passages.reduce((n, p) => n + p.text.length, 0);
console.log(`source: ${passages.length} passages, ${chars} characters (~${Math.round(chars / PAGE_CHARS)} pages)`);

const fake = await startFake();
try {
  const ollama = await createLlm(llmConfig({ llmProvider: "ollama", ollamaHost: [fake.url] }), {
    builds: engineThread,
  });
  await course(ollama, passages.slice(0, 8)); // warm-up: module loading and JIT are not per-course costs
  print("Fake Ollama, zero latency (separate process)", await course(ollama, passages));
} finally {
  fake.stop();
}
const extractive = await createLlm(llmConfig({ llmProvider: "extractive" }), { builds: engineThread });
print("Extractive engine (no model)", await course(extractive, passages));
