/**
 * A source's teaching text as sections, read from its indexed chunks (which carry the document
 * model's heading paths and roles): paragraphs in reading order, front and back matter left out,
 * grouped under the document's top-level headings. A source without headings is cut where its
 * vocabulary shifts, each part titled by its key phrase.
 */
import type { Sql } from "../db/sql.ts";
import { withoutOverlap } from "../documents/chunk-overlap.ts";
import { repeatedChunkIds } from "../documents/lookups.ts";
import { type BlockRole, TEACHING_ROLE_LIST } from "../ingest/document.ts";
import { textParagraphs } from "../ingest/paragraphs.ts";
import { splitSentences } from "../ingest/sentences.ts";
import { keyPhrases } from "../llm/extractive/keyphrases.ts";
import { contentStems, escapeRegExp, titleCase, wordCount } from "../llm/extractive/text.ts";
import { documentChunks } from "../retrieval/index.ts";

export interface Paragraph {
  text: string;
  documentId: string;
  filename: string;
  chunkId: string;
  page: number | null;
  /** Seconds from the start of a video. */
  timestamp: number | null;
  /** Enclosing headings, outermost first (the document's title heading first, in most papers). */
  headingPath: string[];
  role: BlockRole;
}

export interface Section {
  documentId: string;
  title: string;
  /** Paragraph indexes [from, to) in the document's paragraph list. */
  from: number;
  to: number;
  /** Path depth of the section's own heading (its subsections are deeper). */
  depth: number;
  words: number;
}

// A sentence this long said again word for word (an essay quoting an earlier one, a notice closing
// every essay, an example given twice) is taught where it first occurs; a shorter one ("For
// example:", "We have many such gaps today.") may well be said twice.
const REPEAT_SENTENCE_WORDS = 8;

/** A paragraph less the sentences the document already said; remembers the ones it says first. */
function unsaid(said: Set<string>, text: string): string {
  let out = text;
  for (const raw of splitSentences(text.replace(/\s*\n\s*/g, " "))) {
    const sentence = raw.trim();
    if (wordCount(sentence) < REPEAT_SENTENCE_WORDS) continue;
    // By its words alone: a restatement that differs only in a comma or a quote mark ("a program,
    // devoted to" in the opening, "a program devoted to" in a release notice) is said again.
    const key = sentence
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (!said.has(key)) said.add(key);
    // Its words as the paragraph has them: a line may break anywhere inside it.
    else out = out.replace(new RegExp(escapeRegExp(sentence).replace(/ +/g, "\\s+")), "");
  }
  return out === text ? text : out.replace(/[ \t]{2,}/g, " ").trim();
}

/** The document's teaching paragraphs in reading order, each tied to the chunk it was indexed in. */
export async function documentParagraphs(db: Sql, documentId: string): Promise<Paragraph[]> {
  // Text the document repeats of itself is taught once, where it first occurs.
  const repeated = await repeatedChunkIds(db, documentId);
  const rows = (await documentChunks(db, documentId, TEACHING_ROLE_LIST)).filter((r) => !repeated.has(r.id));
  const out: Paragraph[] = [];
  const said = new Set<string>();
  let prev: { path: string; text: string } | null = null;
  for (const r of rows) {
    const text = withoutOverlap(prev?.path === r.heading_path ? prev.text : null, r.text);
    prev = { path: r.heading_path, text: r.text };
    const headingPath = JSON.parse(r.heading_path) as string[];
    for (const para of textParagraphs(text)) {
      // A code listing is kept as written: sentences are prose's, and its spacing is its meaning.
      const t = para.trimStart().startsWith("```") ? para.trim() : unsaid(said, para.trim());
      if (!t) continue;
      out.push({
        text: t,
        documentId,
        filename: r.filename,
        chunkId: r.id,
        page: r.page ?? r.slide,
        timestamp: r.timestamp_seconds,
        headingPath,
        role: r.role,
      });
    }
  }
  return out;
}

/** The shallowest heading depth at which the document has two or more distinct headings: its top level. */
export function topDepth(paragraphs: Paragraph[]): number | null {
  const longest = Math.max(0, ...paragraphs.map((p) => p.headingPath.length));
  for (let d = 0; d < longest; d++) {
    const names = new Set(
      paragraphs.filter((p) => p.headingPath.length > d).map((p) => p.headingPath.slice(0, d + 1).join("\u0000")),
    );
    if (names.size >= 2) return d;
  }
  return null;
}

/** Words of paragraphs [from, to). */
export const wordsOf = (paragraphs: Paragraph[], from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) n += wordCount(paragraphs[i]!.text);
  return n;
};

/**
 * Sections under the top-level headings. Paragraphs before the first one (an untitled
 * introduction under the document's title, or the abstract) open the first section rather than
 * standing alone.
 */
export function topSections(paragraphs: Paragraph[], wanted: number): Section[] {
  if (paragraphs.length === 0) return [];
  const depth = topDepth(paragraphs);
  if (depth === null) return topicSegments(paragraphs, Math.max(wanted, 1));
  const key = (p: Paragraph) =>
    p.role !== "abstract" && p.headingPath.length > depth ? p.headingPath.slice(0, depth + 1).join("\u0000") : null;
  const sections: Section[] = [];
  let current: { key: string | null; from: number } | null = null;
  const close = (to: number) => {
    if (!current) return;
    const first = paragraphs.slice(current.from, to).find((p) => key(p) !== null);
    sections.push({
      documentId: paragraphs[0]!.documentId,
      title: first ? first.headingPath[depth]! : (paragraphs[current.from]!.headingPath.at(-1) ?? "Introduction"),
      from: current.from,
      to,
      depth,
      words: wordsOf(paragraphs, current.from, to),
    });
  };
  paragraphs.forEach((p, i) => {
    const k = key(p);
    if (!current) current = { key: k, from: i };
    else if (k !== null && k !== current.key) {
      if (current.key === null) current.key = k;
      else {
        close(i);
        current = { key: k, from: i };
      }
    }
  });
  close(paragraphs.length);
  return sections;
}

const cosine = (a: Map<string, number>, b: Map<string, number>) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    dot += v * (b.get(k) ?? 0);
  }
  for (const v of b.values()) nb += v * v;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

const bag = (texts: string[]) => {
  const m = new Map<string, number>();
  for (const t of texts) for (const s of contentStems(t)) m.set(s, (m.get(s) ?? 0) + 1);
  return m;
};

/**
 * A text with no headings cut into `wanted` parts where the vocabulary shifts most (the gaps
 * between paragraphs whose neighbourhoods share the fewest words, as in TextTiling), no part
 * under a third of an even share; each part titled by its own key phrase.
 */
function topicSegments(paragraphs: Paragraph[], wanted: number): Section[] {
  const n = paragraphs.length;
  const parts = Math.min(wanted, n);
  const total = wordsOf(paragraphs, 0, n);
  const minWords = total / parts / 3;
  const window = 2;
  const gaps = Array.from({ length: n - 1 }, (_, i) => ({
    at: i + 1,
    similarity: cosine(
      bag(paragraphs.slice(Math.max(0, i + 1 - window), i + 1).map((p) => p.text)),
      bag(paragraphs.slice(i + 1, i + 1 + window).map((p) => p.text)),
    ),
  })).sort((a, b) => a.similarity - b.similarity);
  const cuts: number[] = [];
  for (const g of gaps) {
    if (cuts.length >= parts - 1) break;
    const bounds = [0, ...cuts, n].sort((a, b) => a - b);
    const i = bounds.findIndex((b) => b > g.at);
    const [lo, hi] = [bounds[i - 1]!, bounds[i]!];
    if (wordsOf(paragraphs, lo, g.at) >= minWords && wordsOf(paragraphs, g.at, hi) >= minWords) cuts.push(g.at);
  }
  const bounds = [0, ...cuts.sort((a, b) => a - b), n];
  const used = new Set<string>();
  return bounds.slice(0, -1).map((from, i) => {
    const to = bounds[i + 1]!;
    const text = paragraphs
      .slice(from, to)
      .map((p) => p.text)
      .join("\n");
    const phrase = keyPhrases(text, 8).find((k) => !used.has(k.phrase.toLowerCase()) && /\p{L}{3}/u.test(k.phrase));
    const title = phrase ? titleCase(phrase.phrase) : `Part ${i + 1}`;
    used.add(title.toLowerCase());
    return { documentId: paragraphs[0]!.documentId, title, from, to, depth: 0, words: wordsOf(paragraphs, from, to) };
  });
}
