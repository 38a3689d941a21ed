/**
 * Course quality on real documents, read as a learner would check it, with the built-in engine.
 * Usage: bun bench/quality/run.ts [--chapters 4] [--only tracemonkey]
 *
 * Starts a real server (no model: LLM_PROVIDER=extractive), builds a course from each corpus
 * document through POST /v2/courses/generate-from-files?mode=sync, and compares every content
 * sentence of every chapter with the document model of its source (extracted in this process):
 *   - front/back: content sentences taught from the source's title page, authors, affiliations,
 *     indexing lines, copyright notice, acknowledgements or references, read from the file itself
 *     and not from ingest roles (front-back.ts); goal 0
 *   - shared: sentences (5+ words) that appear in more than one chapter; goal 0
 *   - self-ref: sentences that only point elsewhere ("in Section 4", "this paper", "Figure 3 shows");
 *     goal ≤ 2%
 *   - titles=headings: chapter titles that are headings of the source (numbering ignored), a part of
 *     one ("Introduction (part 2 of 3)"), or a join of such headings for a chapter of several sections;
 *     goal ≥ 80% where the source has headings
 *   - sections: top-level body sections of the source that at least one chapter draws a sentence
 *     from; goal ≥ 70% with 4 chapters
 *   - in cited chunk: content sentences found in a chunk their chapter cites; goal 100%
 *   - unplaced: content sentences not found in the source at all (generated or rewritten text)
 *   - label heads: subheadings that read as a chart's or table's labels ("k: # of retrieved
 *     passages": a one- or two-letter variable and a colon, or a lone "#"); goal 0
 *   - glued marks: a footnote mark read into the text, a lowercase word or a full stop followed by
 *     digits ("limited3", "the end.5 Each"); goal 0
 *   - orphan back-refs: content sentences opening with a back-reference ("These instructions…",
 *     "However, …", "worse than this.") whose previous sentence in the source is not in the chapter
 *     (or that open their section); goal 0
 *   - figure walks: content sentences that walk through a figure, table or listing the learner does
 *     not see ("Figure 2", "the left column", "line 4", two labels such as "T16 … T45"); goal 0
 *   - 1-word concepts: key concepts that are one lowercase word ("passages", "executes"): fine for a
 *     term the text defines ("factor"), otherwise a generic word; read them
 *   - words/chapter, and source words for scale.
 * A sentence is "found" in a text when its normalised form (lowercase letters and digits) is a
 * substring of the text's normalised form, or 80% of its word trigrams are. Nothing is tuned to
 * the output: the figures are meant to fall when the courses are bad.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sbd from "sbd";
import { loadConfig } from "../../src/config.ts";
import { cleanTitle } from "../../src/courses/chapter-groups.ts";
import { type Block, headingPaths, markdownToBlocks, TEACHING_ROLES } from "../../src/ingest/document.ts";
import { extractFile, stopExtractionWorkers } from "../../src/ingest/index.ts";
import { call, startServer, tempDir } from "../../test/helpers/server.ts";
import { CORPUS, documents } from "./documents.ts";
import { fromFrontBack, frontBackOf } from "./front-back.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { chapters: { type: "string", default: "4" }, only: { type: "string" } },
});
const DOCUMENTS = documents(values.only);

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
const words = (s: string) => norm(s).split(" ").filter(Boolean);
const trigrams = (w: string[]) => w.slice(0, -2).map((_, i) => `${w[i]} ${w[i + 1]} ${w[i + 2]}`);

/** Whether `sentence` is in `haystack` (both normalised): as a substring, or by 80% of its word trigrams. */
function found(sentence: string, haystack: string, haystackTrigrams: Set<string>): boolean {
  const n = norm(sentence);
  if (n.length === 0) return false;
  if (haystack.includes(n)) return true;
  const t = trigrams(words(sentence));
  return t.length >= 3 && t.filter((x) => haystackTrigrams.has(x)).length >= 0.8 * t.length;
}

const SELF_REFERENCE =
  /\b(in|see|of|from)\s+(section|sec\.|chapter|figure|fig\.|table|appendix|equation|eq\.)\s*[\dA-Z]|\b(section|figure|fig\.|table|appendix)\s+\d+(\.\d+)*\s+(shows|describes|presents|gives|lists|summari[sz]es|illustrates)|\bthis (paper|article|report|thesis|manual|document|work)\b|\b(we|i) (describe|present|discuss|show|explain) (in|below|later)\b|\b(as shown|as described|as discussed) (above|below|earlier|later)\b/i;

/**
 * A sentence whose opening points back at the sentence before it ("These instructions…", "However,
 * …", "As a result, …", "worse than this."): read on its own it refers to nothing. Written apart
 * from the engine's own list, from the openers a reader stumbles on; an expletive "It is hard to…",
 * a "those who…" that points forward and "In addition to X" do not count.
 */
const BACK_REFERENCE =
  /^["'“‘(]?(this|these|that|those|such|it|its|they|their|them|thus|therefore|hence|however|also|moreover|furthermore|consequently|otherwise|instead,|another|the other|the former|the latter|as a result|in addition|in this case|in that case|at this point|for (example|instance)|on the other hand)\b|\b(than|like) (this|these|that)\s*[.:;,]/i;
const NOT_BACK_REFERENCE =
  /^["'“‘(]?(it (is|was|should be|must be|can be|may be) (not )?\w+ (to|that)\b|those (who|which|that|whose|where|of|with|in)\b|such (as|that)\b|in addition to\b|as a result of\b)/i;
// A citation mark the splitter left at a sentence's start ("(12) For example, …") is not its opening.
const refersBack = (sentence: string) => {
  const s = sentence.replace(/^(\(\d+\)|\[\d+\])\s*/, "");
  return BACK_REFERENCE.test(s) && !NOT_BACK_REFERENCE.test(s);
};

/**
 * A sentence that walks through a figure, table or listing the learner does not see: it names one
 * ("Figure 2", "the figure", "the left column", "line 4") or two of its labels ("T16 … T45").
 */
const FIGURE_WALK =
  /\b(figure|fig\.|listing|table)\s*\d|\bthe (figure|diagram|listing|illustration)\b|\b(left|right|top|bottom)(-hand)? (column|panel|plot|graph|figure|half|block|row)\b|\blines? \d+\b/i;
const walksFigure = (s: string) =>
  FIGURE_WALK.test(s) || new Set(s.match(/\b\p{Lu}\d{1,2}(?:,\d{1,2})?\b/gu) ?? []).size >= 2;

/**
 * Whether `sentence`, kept in a chapter whose normalised text is `chapter`, lacks the source
 * sentence before it (or opens its section, so that nothing comes before it). `source` is normalised.
 */
function orphaned(sentence: string, chapter: string, source: (string | null)[]): boolean {
  const n = norm(sentence);
  // A source sentence split differently may hold the kept one or be its start (five words at least).
  const i = source.findIndex(
    (x) => x !== null && (x === n || x.startsWith(n) || (x.split(" ").length >= 5 && n.startsWith(x))),
  );
  if (i < 0) return false;
  const before = i > 0 ? source[i - 1] : null;
  return before == null || !chapter.includes(before);
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
  return sbd
    .sentences(prose, { newline_boundaries: true })
    .map((s) => s.trim())
    .filter((s) => words(s).length >= 5);
}

interface SourceModel {
  blocks: Block[];
  headings: Set<string>;
  /** Top-level body sections: heading text and the normalised text under it. */
  sections: { title: string; text: string; tri: Set<string> }[];
  teaching: { text: string; tri: Set<string> };
  /** Teaching sentences in reading order; null where a heading or a non-teaching block comes between. */
  sentences: (string | null)[];
  other: { text: string; tri: Set<string> };
  words: number;
}

const withTrigrams = (texts: string[]) => {
  const text = texts.map(norm).join(" \u0000 ");
  return { text, tri: new Set(texts.flatMap((t) => trigrams(words(t)))) };
};
// Headings compare as the course shows them: numbering ("3.2", "Appendix A") dropped, then normalised.
const stripNumbering = (h: string) => norm(cleanTitle(h));

async function sourceModel(path: string): Promise<SourceModel> {
  const { blocks } = await extractFile(path, path.split("/").pop()!, {
    ...loadConfig(),
    dataDir: tempDir("cf-quality-extract-"),
  });
  const paths = headingPaths(blocks);
  const body = blocks.filter((b) => TEACHING_ROLES.has(b.role));
  const bodyHeadings = body.filter((b) => b.kind === "heading");
  // The shallowest level that has at least two body headings is the top level (a paper's title is one heading above it).
  const levels = [...new Set(bodyHeadings.map((b) => b.level ?? 1))].sort((a, b) => a - b);
  const top = levels.find((l) => bodyHeadings.filter((b) => (b.level ?? 1) === l).length >= 2);
  const sections: SourceModel["sections"] = [];
  if (top !== undefined) {
    let current: { title: string; texts: string[] } | null = null;
    const all: { title: string; texts: string[] }[] = [];
    blocks.forEach((b, i) => {
      if (b.kind === "heading" && (b.level ?? 1) <= top) {
        current = TEACHING_ROLES.has(b.role) && (b.level ?? 1) === top ? { title: b.text, texts: [] } : null;
        if (current) all.push(current);
      } else if (current && TEACHING_ROLES.has(b.role) && b.kind !== "heading" && paths[i]!.length > 0) {
        (current as { texts: string[] }).texts.push(b.text);
      }
    });
    for (const s of all) if (s.texts.length > 0) sections.push({ title: s.title, ...withTrigrams(s.texts) });
  }
  const prose = (b: Block) => b.kind !== "heading" && b.role !== "header_footer" && b.role !== "page_number";
  const sentences: (string | null)[] = [];
  for (const b of blocks) {
    if (b.role === "header_footer" || b.role === "page_number") continue;
    if (b.kind === "heading" || !TEACHING_ROLES.has(b.role)) sentences.push(null);
    else sentences.push(...sbd.sentences(b.text, { preserve_whitespace: false }).map((x) => x.trim()));
  }
  return {
    sentences,
    blocks,
    headings: new Set(
      blocks.filter((b) => b.kind === "heading").flatMap((b) => [norm(b.text), stripNumbering(b.text)]),
    ),
    sections,
    teaching: withTrigrams(body.filter(prose).map((b) => b.text)),
    other: withTrigrams(blocks.filter((b) => !TEACHING_ROLES.has(b.role) && prose(b)).map((b) => b.text)),
    words: body.reduce((n, b) => n + words(b.text).length, 0),
  };
}

interface Chapter {
  title: string;
  content: string;
  key_concepts: string[];
  sources: { chunk_id: string | null }[];
}

const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);

const dataDir = tempDir("cf-quality-");
const srv = await startServer({ dataDir, env: { LLM_PROVIDER: "extractive", RATE_LIMIT_PER_MINUTE: "10000" } });
const key = await srv.createKey("quality", "production");
const chunks = new Database(join(dataDir, "courseforge.db"), { readonly: true });
const chunkText = chunks.query<{ text: string }, [string]>("SELECT text FROM retrieval_chunks WHERE id = ?");

const rows: string[][] = [];
const outDir = mkdtempSync(join(tmpdir(), "cf-quality-courses-"));
try {
  for (const doc of DOCUMENTS) {
    const path = join(CORPUS, doc);
    const model = await sourceModel(path);
    const form = new FormData();
    form.append("files", new Blob([await Bun.file(path).arrayBuffer()]), path.split("/").pop()!);
    form.append("num_chapters", values.chapters!);
    const t0 = performance.now();
    const made = await call(srv.url, "/v2/courses/generate-from-files?mode=sync", { key, user: "reader", body: form });
    const seconds = (performance.now() - t0) / 1000;
    if (made.status !== 200) {
      rows.push([doc, `HTTP ${made.status}: ${JSON.stringify(made.body).slice(0, 80)}`]);
      continue;
    }
    const course = await call(srv.url, `/v2/courses/${made.body.course.id}`, { key, user: "reader" });
    const chapters = course.body.chapters as Chapter[];
    await Bun.write(
      join(outDir, `${doc.split("/").pop()}.md`),
      chapters.map((c) => `# ${c.title}\n\nKey concepts: ${c.key_concepts.join("; ")}\n\n${c.content}`).join("\n\n"),
    );
    const perChapter = chapters.map((c) => contentSentences(c.content));
    const all = perChapter.flat();
    const frontBack = await frontBackOf(path);
    const taughtFrontBack = all.filter((s) => fromFrontBack(s, frontBack));
    if (process.env.SHOW_FRONT_BACK) for (const s of taughtFrontBack) console.error(`  front/back: ${s}`);
    // Unplaced: in no block of the source, teaching or not.
    let unplaced = 0;
    for (const s of all) {
      if (found(s, model.teaching.text, model.teaching.tri) || found(s, model.other.text, model.other.tri)) continue;
      unplaced++;
      if (process.env.SHOW_UNPLACED) console.error(`  unplaced: ${s}`);
    }
    const seen = new Map<string, Set<number>>();
    perChapter.forEach((ss, ci) => {
      ss.forEach((s) => {
        seen.set(norm(s), (seen.get(norm(s)) ?? new Set()).add(ci));
      });
    });
    const shared = [...seen.values()].filter((c) => c.size > 1).length;
    const selfRef = all.filter((s) => SELF_REFERENCE.test(s)).length;
    if (process.env.SHOW_SELF_REF)
      for (const s of all.filter((x) => SELF_REFERENCE.test(x))) console.error(`  self-ref: ${s}`);
    // A chapter of several sections is titled by joining their headings ("A, B and C", "A through D"): it counts when every part is a heading.
    // A title is compared as shown and with numbering dropped ("A sample session" is Appendix A's own title).
    // A part of one long section ("Introduction (part 2 of 3)") is titled by that section's heading.
    const isHeading = (title: string) => {
      const t = title.replace(/ \(part \d+ of \d+\)$/, "");
      return model.headings.has(norm(t)) || model.headings.has(stripNumbering(t));
    };
    const joinOfHeadings = (t: string): boolean =>
      isHeading(t) ||
      [...t.matchAll(/, | and | through /g)].some(
        (m) => isHeading(t.slice(0, m.index)) && joinOfHeadings(t.slice(m.index! + m[0].length)),
      );
    const titled = chapters.filter((c) => joinOfHeadings(c.title)).length;
    if (process.env.SHOW_TITLES)
      for (const c of chapters) console.error(`  ${joinOfHeadings(c.title) ? "heading " : "invented"} ${c.title}`);
    const covered = model.sections.filter((sec) => all.some((s) => found(s, sec.text, sec.tri))).length;
    let inCited = 0;
    perChapter.forEach((ss, ci) => {
      const cited = chapters[ci]!.sources.map((s) => (s.chunk_id ? (chunkText.get(s.chunk_id)?.text ?? "") : ""));
      const hay = withTrigrams(cited);
      inCited += ss.filter((s) => found(s, hay.text, hay.tri)).length;
    });
    const chapterWords = chapters.map((c) => words(c.content).length);
    const labelHeads = chapters
      .flatMap((c) => c.content.match(/^#{2,} .+$/gm) ?? [])
      .filter((h) => /^#+ (\p{L}{1,2}\s*:|.*\s#\s)/u.test(h)).length;
    const gluedMarks = all.filter((s) =>
      /(?<![\p{L}\p{N}])\p{Ll}{3,}\d{1,2}\b|\p{Ll}\.\d{1,2}\s+\p{Lu}/u.test(s),
    ).length;
    let backRefs = 0;
    const normSentences = model.sentences.map((x) => (x === null ? null : norm(x)));
    perChapter.forEach((ss, ci) => {
      const chapter = norm(chapters[ci]!.content);
      for (const s of ss.filter(refersBack)) {
        if (!orphaned(s, chapter, normSentences)) continue;
        backRefs++;
        if (process.env.SHOW_COHESION) console.error(`  back-ref: ${s}`);
      }
    });
    const walks = all.filter(walksFigure);
    if (process.env.SHOW_COHESION) for (const s of walks) console.error(`  figure walk: ${s}`);
    const oneWord = chapters.flatMap((c) => c.key_concepts).filter((k) => /^\p{Ll}+$/u.test(k)).length;
    rows.push([
      doc.split("/").pop()!,
      String(chapters.length),
      `${taughtFrontBack.length} (${pct(taughtFrontBack.length, all.length)})`,
      String(shared),
      pct(selfRef, all.length),
      model.headings.size > 0 ? `${titled}/${chapters.length}` : "no headings",
      model.sections.length > 0
        ? `${covered}/${model.sections.length} (${pct(covered, model.sections.length)})`
        : "no sections",
      pct(inCited, all.length),
      pct(unplaced, all.length),
      String(labelHeads),
      String(gluedMarks),
      String(backRefs),
      String(walks.length),
      `${oneWord}/${chapters.flatMap((c) => c.key_concepts).length}`,
      chapterWords.join("/"),
      String(model.words),
      seconds.toFixed(1),
    ]);
    console.error(`${doc}: done in ${seconds.toFixed(1)} s`);
  }
} finally {
  chunks.close();
  await srv.stop();
  stopExtractionWorkers();
}

const header = [
  "document",
  "chapters",
  "front/back",
  "shared",
  "self-ref",
  "titles=headings",
  "sections covered",
  "in cited chunk",
  "unplaced",
  "label heads",
  "glued marks",
  "orphan back-refs",
  "figure walks",
  "1-word concepts",
  "words/chapter",
  "source words",
  "s",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (r: string[]) => r.map((c, i) => (c ?? "").padEnd(widths[i]!)).join("  ");
console.log(`Built-in engine, ${values.chapters} chapters per course`);
console.log(line(header));
for (const r of rows) console.log(line(r));
console.log(
  "goals: front/back 0, shared 0, self-ref ≤ 2%, titles=headings ≥ 80%, sections covered ≥ 70%, in cited chunk 100%, label heads 0, glued marks 0, orphan back-refs 0, figure walks 0",
);
console.log(`courses: ${outDir}`);
