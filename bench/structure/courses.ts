/**
 * The course section of the structure benchmark: a course with the built-in engine for each
 * book-length PDF, through a real server (POST /v2/courses/generate-from-files, polled until the
 * course is completed, the engine choosing the number of chapters), then its flashcards, study guide and an exam of 30 (or
 * as many as the course can supply); podcast scripts are written in this process by the same
 * built-in engine from each chapter (the server would also synthesise speech, which tells nothing
 * here). Read against the hand labels and the heading truth:
 *   - front/back: chapters, quiz items, exam items, flashcards, study-guide lines and podcast lines
 *     holding a sentence taught from a hand-labelled front/back page. A sentence of six words or
 *     more counts when 60% of its word pairs occur in one paragraph of those pages (pdftotext), or
 *     in two neighbouring ones, as bench/quality does with the regions it reads, and not so in the
 *     body's pages (a section title that the contents page also lists is taught from the body); a
 *     study guide's heading naming a course chapter is that chapter's title, not a sentence taught;
 *     and "planned": the words the chapters' planned sections read from those pages, of all they
 *     read (what a model's chapter prompt holds as the chapter's own sections);
 *   - shared: content sentences (5+ words) that appear in more than one chapter;
 *   - boundaries: chapters after the first that open within a page of a truth heading of level 1 or
 *     2 (a part or chapter of the outline or contents page), where a chapter opens where its first
 *     planned section starts: the page of the first paragraph of the first part the course's outline
 *     gives it (read from the server's database as the planner reads it), not where its first
 *     selected sentence happens to stand, which may be pages into the book's chapter; a chapter that
 *     reads under 30 words before the next part or chapter (a part's title page) opens on it. Books with no
 *     heading truth (no outline, no transcribed contents page) place no boundary. A chapter opening
 *     inside a part or chapter of the book over twice the average course chapter is a split the
 *     length rule asks for, counted apart ("+1 split") rather than as a boundary placed;
 *   - spans: the longest chapter's span of the book over the average chapter's, and how many
 *     chapters are made of the book's appendices and how many of its body (course-spans.ts).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sbd from "sbd";
import { paragraphsOf } from "../../src/courses/section-reads.ts";
import type { Paragraph } from "../../src/courses/sections.ts";
import type { ChapterPart } from "../../src/courses/store.ts";
import { sqliteSql } from "../../src/db/sql.ts";
import { markdownToBlocks } from "../../src/ingest/document.ts";
import { writePodcastScript } from "../../src/llm/artefacts.ts";
import { ExtractiveLlm } from "../../src/llm/providers/extractive.ts";
import { engineThread } from "../../test/helpers/engine-thread.ts";
import { call, startServer, tempDir } from "../../test/helpers/server.ts";
import { appendixPages, spanFigures } from "./course-spans.ts";
import { cpuSeconds, ownCpuSeconds } from "./cpu-seconds.ts";
import type { BenchDocument } from "./documents.ts";
import { type PageLabels, truthClass } from "./page-labels.ts";
import { pdfPages } from "./pdf-pages.ts";
import { normText } from "./titles.ts";
import type { TruthHeading } from "./truth-headings.ts";

const words = (s: string) => normText(s).split(" ").filter(Boolean);
const pairs = (s: string) => {
  const w = words(s);
  return w.slice(0, -1).map((_, i) => `${w[i]} ${w[i + 1]}`);
};
const sentences = (text: string) =>
  sbd
    .sentences(text, { newline_boundaries: true })
    .map((s) => s.trim())
    .filter((s) => words(s).length >= 5);

/** Word pairs of each paragraph of the pages whose hand label `wanted` accepts, in order. */
function pageUnits(path: string, labels: PageLabels, wanted: (cls: string) => boolean): Set<string>[] {
  return pdfPages(path)
    .flatMap((text, i) => (wanted(truthClass(labels, i + 1)) ? text.split(/\n\s*\n/) : []))
    .map((p) => new Set(pairs(p)));
}

/** Word pairs of each paragraph of the front/back pages, in order. */
export const frontBackUnits = (path: string, labels: PageLabels) => pageUnits(path, labels, (c) => c !== "body");
/** The same of the body pages: a sentence they also print (a title a contents page lists) is taught from the body. */
export const bodyUnits = (path: string, labels: PageLabels) => pageUnits(path, labels, (c) => c === "body");

export function fromFrontBack(sentence: string, units: Set<string>[]): boolean {
  // Six words as written: "Programmer’s" is one word, though its pairs are taken of "programmer s".
  const b = pairs(sentence);
  if (b.length < 5 || sentence.trim().split(/\s+/).length < 6) return false;
  const share = (has: (x: string) => boolean) => b.filter(has).length >= 0.6 * b.length;
  return units.some((u, i) => share((x) => u.has(x)) || share((x) => u.has(x) || (units[i + 1]?.has(x) ?? false)));
}

/** Content sentences of a chapter's markdown: prose of paragraphs and list items, not headings, code or tables. */
function contentSentences(markdown: string): string[] {
  const prose = markdown
    .split(/\n{2,}/)
    .filter((p) => !/^\s*(#|```|~~~|\|)/.test(p))
    .map((p) =>
      markdownToBlocks(p)
        .map((b) => b.text)
        .join("\n"),
    )
    .join("\n");
  return sentences(prose);
}

/** Words a chapter may read before its book chapter's first page and still open on it: a part's title page. */
const TITLE_WORDS = 30;

/** Every string inside a JSON value. */
export const strings = (v: unknown): string[] =>
  typeof v === "string"
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(strings)
      : v && typeof v === "object"
        ? Object.values(v).flatMap(strings)
        : [];

interface Chapter {
  title: string;
  content: string;
  key_concepts: string[];
  quiz: { questions: unknown[] };
}

export interface CourseFigures {
  name: string;
  error?: string;
  chapters: number;
  /** Items holding a front/back sentence, of all items, per kind. */
  frontBack: Record<"chapters" | "planned" | "quiz" | "exam" | "cards" | "guide" | "podcast", [number, number]>;
  shared: number;
  /**
   * Chapter boundaries (after the first chapter) on a part or chapter of the truth, of those placed;
   * and chapters opening inside a part or chapter over twice the average chapter, which the planner splits.
   */
  boundaries: [number, number];
  split: number;
  /** The longest chapter's span over the average one (course-spans.ts), and chapters of appendices and of body. */
  spans: { longest: number; appendix: number; body: number };
  seconds: number;
  /**
   * CPU seconds: the server's (its extraction processes' included) building the course and then
   * its exam, flashcards and study guide; this process's writing the podcast scripts and scoring.
   */
  cpu: { build: number; materials: number; podcasts: number; scoring: number };
}

export interface CourseInput {
  doc: BenchDocument;
  labels: PageLabels;
  truth: TruthHeading[];
}

/**
 * A material's request (POST, JSON), answered only once the material is written: without the
 * client's five-minute deadline, which a book's exam passed on a loaded machine (the server lifts
 * its own idle timeout for an authenticated write).
 */
async function material(url: string, key: string, path: string, json: unknown) {
  const res = await fetch(url + path, {
    method: "POST",
    headers: { "x-api-key": key, "x-external-user-id": "reader", "content-type": "application/json" },
    body: JSON.stringify(json),
    timeout: false,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** A book whose course or figures could not be had: its error in the table. */
const failed = (name: string, error: string, build: number): CourseFigures => ({
  name,
  error,
  chapters: 0,
  frontBack: {
    chapters: [0, 0],
    planned: [0, 0],
    quiz: [0, 0],
    exam: [0, 0],
    cards: [0, 0],
    guide: [0, 0],
    podcast: [0, 0],
  },
  shared: 0,
  boundaries: [0, 0],
  split: 0,
  spans: { longest: 0, appendix: 0, body: 0 },
  seconds: 0,
  cpu: { build, materials: 0, podcasts: 0, scoring: 0 },
});

/** Three tries: on a loaded machine the server can take longer to start than the harness's 30 s. */
async function startWithRetries(dataDir: string, tries = 3): ReturnType<typeof startServer> {
  try {
    return await startServer({
      dataDir,
      env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "10000", INGEST_TIMEOUT_MS: "900000" },
    });
  } catch (err) {
    if (tries <= 1) throw err;
    return startWithRetries(dataDir, tries - 1);
  }
}

/**
 * The course's final status, polled: a sync request's client gives up after five minutes, which a
 * 200-page book's course can take on a loaded machine. Polled on its progress, not the course: a
 * course read serializes every chapter (25 ms of the server's CPU for an 88-page book's, against
 * 2.5 ms for its progress), and a loaded machine's build lasts hundreds of polls.
 */
async function finished(url: string, key: string, id: string): Promise<string> {
  for (;;) {
    // A poll the loaded machine left unanswered past the client's deadline is polled again.
    const progress = await call(url, `/v2/courses/${id}/progress`, { key, user: "reader" }).catch(() => null);
    const status = progress ? (progress.body?.course_status as string) : "generating";
    if (status !== "generating") return status;
    await Bun.sleep(5000);
  }
}

export async function buildCourses(inputs: CourseInput[], log: (line: string) => void): Promise<CourseFigures[]> {
  const dataDir = tempDir("cf-structure-");
  const srv = await startWithRetries(dataDir);
  const db = new Database(join(dataDir, "courseforge.db"), { readonly: true });
  const key = await srv.createKey("structure", "production");
  const llm = new ExtractiveLlm(engineThread);
  const outDir = mkdtempSync(join(tmpdir(), "cf-structure-courses-"));
  const figures: CourseFigures[] = [];
  try {
    for (const { doc, labels, truth } of inputs) {
      try {
        const t0 = performance.now();
        const server0 = cpuSeconds(srv.proc.pid);
        const form = new FormData();
        form.append("files", new Blob([await Bun.file(doc.path).arrayBuffer()]), doc.name);
        const made = await call(srv.url, "/v2/courses/generate-from-files", { key, user: "reader", body: form });
        const id = made.body?.course_id as string | undefined;
        const status = id ? await finished(srv.url, key, id) : `HTTP ${made.status}`;
        if (status !== "completed") {
          const error = `${status}: ${JSON.stringify(made.body).slice(0, 80)}`;
          figures.push(failed(doc.name, error, cpuSeconds(srv.proc.pid) - server0));
          continue;
        }
        const server1 = cpuSeconds(srv.proc.pid);
        const course = await call(srv.url, `/v2/courses/${id}`, { key, user: "reader" });
        const chapters = course.body.chapters as Chapter[];
        let exam = await material(srv.url, key, `/v2/courses/${id}/generate-exam`, { exam_size: 30 });
        const available = exam.body?.error?.details?.available;
        if (exam.status === 422 && available >= 1)
          exam = await material(srv.url, key, `/v2/courses/${id}/generate-exam`, { exam_size: available });
        const examItems: unknown[] = exam.status === 200 ? exam.body.exam.questions : [];
        const cardsRes = await material(srv.url, key, `/v2/courses/${id}/generate-flashcards`, {});
        const cards: unknown[] = cardsRes.status === 200 ? cardsRes.body.flashcards.cards : [];
        const guide = (await call(srv.url, `/v2/courses/${id}/study-guide`, { key, user: "reader" })).body.study_guide;
        const guideLines = strings(guide?.sections ?? []);
        const server2 = cpuSeconds(srv.proc.pid);
        const own0 = ownCpuSeconds();
        const podcastLines: string[] = [];
        for (const c of chapters) {
          const script = await writePodcastScript(llm, {
            courseTitle: course.body.title ?? "",
            chapterTitle: c.title,
            content: c.content,
            key_concepts: c.key_concepts,
          }).catch(() => ({ turns: [] as { text: string }[] }));
          podcastLines.push(...script.turns.map((t) => t.text));
        }
        const own1 = ownCpuSeconds();

        // A guide heading that names a course chapter ("Chapter 2: CHAPTER THREE THE PROCESS") is its
        // title, made of the book's own headings (which the contents page lists too), not a taught sentence.
        const chapterTitles = new Set(
          chapters.flatMap((c, i) => [normText(c.title), normText(`Chapter ${i + 1}: ${c.title}`)]),
        );
        const units = frontBackUnits(doc.path, labels);
        const notes: string[] = [];
        const body = bodyUnits(doc.path, labels);
        const flagged = (s: string) =>
          fromFrontBack(s, units) && !fromFrontBack(s, body) && notes.push(`front/back: ${s.slice(0, 100)}`) > 0;
        const taught = (text: string) => sentences(text).some(flagged);
        const count = (items: unknown[]): [number, number] => [
          items.filter((it) => strings(it).some(taught)).length,
          items.length,
        ];
        const perChapter = chapters.map((c) => contentSentences(c.content));
        const seen = new Map<string, Set<number>>();
        perChapter.forEach((ss, ci) => {
          for (const s of ss) seen.set(normText(s), (seen.get(normText(s)) ?? new Set()).add(ci));
        });
        const chapterPages = truth.filter((t) => t.level <= 2 && t.page !== null).map((t) => t.page!);
        const planned = (course.body.outline?.chapters ?? []) as { parts?: ChapterPart[] }[];
        const inAppendix = appendixPages(doc.path, truth);
        const spans: { words: number; appendixWords: number }[] = [];
        // Words the chapters' planned sections read from front/back pages, of all they read: what a
        // model's chapter prompt would hold as the chapter's own sections.
        const plannedWords: [number, number] = [0, 0];
        const frontBackPages = new Map<number, string>();
        for (const c of planned) {
          const read: Paragraph[] = [];
          for (const part of c.parts ?? [])
            read.push(...(await paragraphsOf(sqliteSql(db), part.document_id)).slice(part.from, part.to));
          const counted = read.map((p) => ({
            n: words(p.text).length,
            appendix: p.page !== null && inAppendix(p.page),
            frontBack: p.page !== null && truthClass(labels, p.page) !== "body",
          }));
          spans.push({
            words: counted.reduce((a, p) => a + p.n, 0),
            appendixWords: counted.reduce((a, p) => a + (p.appendix ? p.n : 0), 0),
          });
          for (const p of counted) {
            plannedWords[1] += p.n;
            if (p.frontBack) plannedWords[0] += p.n;
          }
          for (const [k, p] of read.entries())
            if (counted[k]!.frontBack && counted[k]!.n > 0 && !frontBackPages.has(p.page!))
              frontBackPages.set(p.page!, p.text.slice(0, 80));
        }
        // A part or chapter of the book over twice an average course chapter is split by the
        // planner (no chapter over twice the average): a chapter opening inside it is counted apart.
        const average = spans.reduce((a, c) => a + c.words, 0) / Math.max(1, spans.length);
        const bookParagraphs = planned[0]?.parts?.[0]
          ? await paragraphsOf(sqliteSql(db), planned[0].parts[0].document_id)
          : [];
        const insideLong = (page: number) => {
          const from = Math.max(...chapterPages.filter((p) => p <= page));
          const to = Math.min(...chapterPages.filter((p) => p > page));
          const inside = bookParagraphs.filter((p) => p.page !== null && p.page >= from && p.page < to);
          return inside.reduce((n, p) => n + words(p.text).length, 0) > 2 * average;
        };
        let placed = 0;
        let onChapter = 0;
        let split = 0;
        for (const [k, c] of planned.slice(1).entries()) {
          const part = c.parts?.[0];
          if (!part || chapterPages.length === 0) continue;
          const read = (await paragraphsOf(sqliteSql(db), part.document_id)).slice(part.from, part.to);
          const page = read.find((p) => p.page !== null)?.page;
          if (page == null) continue;
          placed++;
          // A part's title page before the chapter's first page ("Section Three", a blank page, then
          // chapter 17) opens it too: what the chapter reads before the book's chapter is a title.
          const next = Math.min(...chapterPages.filter((p) => p >= page));
          const before = read
            .filter((p) => p.page !== null && p.page < next)
            .reduce((n, p) => n + words(p.text).length, 0);
          if (chapterPages.some((p) => Math.abs(p - page) <= 1) || before < TITLE_WORDS) onChapter++;
          else if (insideLong(page)) {
            placed--;
            split++;
            notes.push(`split: chapter ${k + 2} (${chapters[k + 1]?.title}) opens on page ${page}, inside a long one`);
          } else notes.push(`boundary off: chapter ${k + 2} (${chapters[k + 1]?.title}) opens on page ${page}`);
        }
        for (const [page, text] of frontBackPages) notes.push(`planned from front/back page ${page}: ${text}`);
        await Bun.write(
          join(outDir, `${doc.name}.md`),
          chapters.map((c) => `# ${c.title}\n\n${c.content}`).join("\n\n"),
        );
        const seconds = (performance.now() - t0) / 1000;
        figures.push({
          name: doc.name,
          chapters: chapters.length,
          frontBack: {
            chapters: [perChapter.filter((ss) => ss.some(flagged)).length, chapters.length],
            planned: plannedWords,
            quiz: count(chapters.flatMap((c) => c.quiz?.questions ?? [])),
            exam: count(examItems),
            cards: count(cards),
            guide: [guideLines.filter((l) => !chapterTitles.has(normText(l)) && taught(l)).length, guideLines.length],
            podcast: [podcastLines.filter(taught).length, podcastLines.length],
          },
          shared: [...seen.values()].filter((c) => c.size > 1).length,
          boundaries: [onChapter, placed],
          split,
          spans: spanFigures(spans),
          seconds,
          cpu: {
            build: server1 - server0,
            materials: server2 - server1,
            podcasts: own1 - own0,
            scoring: ownCpuSeconds() - own1,
          },
        });
        const f = figures.at(-1)!;
        log(
          `${doc.name}: ${JSON.stringify({ ...f.frontBack, shared: f.shared, boundaries: f.boundaries, split: f.split, spans: f.spans, seconds, cpu: f.cpu })}`,
        );
        log(`  chapters: ${chapters.map((c, i) => `${c.title} (${spans[i]?.words ?? "?"} words)`).join(" | ")}`);
        for (const note of new Set(notes)) log(`  ${note}`);
      } catch (err) {
        // One book's failure (a request the loaded machine dropped) is its row, not the shard's end.
        figures.push(failed(doc.name, String(err).slice(0, 80), 0));
        log(`${doc.name}: ${err}`);
      }
    }
  } finally {
    db.close();
    await srv.stop();
  }
  log(`courses: ${outDir}`);
  return figures;
}
