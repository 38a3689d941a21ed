/**
 * How well a learner's document sections cover a topic, word by word: a topic is covered when
 * its content terms, weighted by how rare they are in everyday English, occur together in one
 * neighbourhood of a document, and (for a topic of several terms) two of them are used side by
 * side there. One shared common word ("cooking" in a retrieval paper) is not coverage; the rare
 * words that make the topic what it is must be there too, and not just on the same page
 * ("body of water" and "British Cycling" in one example do not make "The water cycle").
 */
import { stemmer } from "stemmer";
import { subtlexCounts } from "../llm/extractive/background.ts";
import { STOPWORDS } from "../retrieval/text.ts";

/**
 * Least coverage of a topic's weighted terms within one neighbourhood. Two thirds: a two-term topic
 * needs both of its terms unless one is far rarer than the other, and a longer topic may miss only
 * its commoner words. Against the DPR paper "Machine learning for retrieval" passes (0.70: only
 * "machine" is missing) but "Machine learning for cooking" does not (0.65), nor does "Tree
 * traversal algorithms" against TraceMonkey (0.60).
 */
export const COVERAGE_THRESHOLD = 2 / 3;

/** Chunks on either side of a chunk that make its neighbourhood (chunks are about 150 words). */
const RADIUS = 2;

/** Words apart (stopwords included) at most for two topic terms to count as used together. */
const PROXIMITY = 4;

/** Words that name the kind of course, not its subject. */
const GENERIC = new Set(
  [
    "introduction",
    "intro",
    "introductory",
    "basics",
    "basic",
    "beginner",
    "beginners",
    "guide",
    "course",
    "overview",
    "fundamentals",
    "fundamental",
    "advanced",
    "intermediate",
    "tutorial",
    "essentials",
    "primer",
    "lesson",
    "crash",
    "principles",
    "concepts",
    "understanding",
    "mastering",
    "complete",
  ].map((w) => stemmer(w)),
);

/**
 * Weights on the Zipf scale of word frequency (log10 of occurrences per billion words: 6.7 for
 * "just", 3.6 for "pasta", 1.3 for a word seen once): weight = ZIPF_TOP − Zipf, so rarer words weigh
 * more and the commonest weigh MIN_WEIGHT. A word the list lacks (most jargon) weighs as one seen once.
 */
const ZIPF_TOP = 7;
const MIN_WEIGHT = 0.5;

export interface TopicTerm {
  /** The word as the topic spells it (what FTS5 is asked for; it stems queries itself). */
  word: string;
  /** Porter stem, matched against the stems of the documents' words. */
  stem: string;
  weight: number;
}

/** One chunk of a document, in the shape the scoring needs. */
export interface CoverageChunk {
  seq: number;
  documentId: string;
  position: number;
  /** Document title and heading path. */
  heading: string;
  text: string;
}

export interface Neighbourhood {
  documentId: string;
  /** The chunk it is centred on. */
  centre: CoverageChunk;
  /** Covered weight over total weight, 0–1. */
  coverage: number;
  /** Two of the topic's terms occur within PROXIMITY words (always true for a one-term topic). */
  together: boolean;
  /** Weighted topic-term occurrences in the centre chunk itself, its own headings counting double: ranks equally covering neighbourhoods. */
  emphasis: number;
  /** Topic words it lacks entirely. */
  missing: string[];
}

/**
 * Lower-cased letters-and-digits runs without diacritics, as FTS5's unicode61 splits words
 * ("open-domain" is two); the "s" of a possessive is dropped.
 */
export function tokens(text: string): string[] {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w !== "s");
}

let frequencies: Promise<{ counts: Map<string, number>; total: number }> | null = null;

/** Occurrences of each stem in the SUBTLEX-US subtitle corpus (50 M words), built once, on first use (about 0.3 s). */
function stemFrequencies() {
  frequencies ??= Promise.resolve(subtlexCounts()).then((list) => {
    const counts = new Map<string, number>();
    let total = 0;
    for (const { word, count } of list as { word: string; count: number }[]) {
      const stem = stemmer(word.toLowerCase());
      counts.set(stem, (counts.get(stem) ?? 0) + count);
      total += count;
    }
    return { counts, total };
  });
  return frequencies;
}

/** The topic's content terms: no stopwords, no words naming the kind of course, no bare numbers; one per stem. */
export async function topicTerms(topic: string): Promise<TopicTerm[]> {
  const all = tokens(topic);
  const meaningful = all.filter((w) => !STOPWORDS.has(w));
  const content = meaningful.filter((w) => !GENERIC.has(stemmer(w)) && !/^\p{N}+$/u.test(w));
  // A topic of nothing but such words ("Introduction to the basics") is judged on what it has.
  const chosen = content.length > 0 ? content : meaningful.length > 0 ? meaningful : all;
  const { counts, total } = await stemFrequencies();
  const byStem = new Map<string, TopicTerm>();
  for (const word of chosen) {
    const stem = stemmer(word);
    if (byStem.has(stem)) continue;
    const zipf = Math.log10(((counts.get(stem) ?? 1) / total) * 1e9);
    byStem.set(stem, { word, stem, weight: Math.max(MIN_WEIGHT, ZIPF_TOP - zipf) });
  }
  return [...byStem.values()];
}

interface Occurrences {
  inHeading: Set<string>;
  inBody: Map<string, number>;
  together: boolean;
}

function occurrences(wanted: Set<string>, chunk: CoverageChunk, stem: (w: string) => string): Occurrences {
  const heading = tokens(chunk.heading).map(stem);
  const body = tokens(chunk.text).map(stem);
  const inBody = new Map<string, number>();
  for (const s of body) if (wanted.has(s)) inBody.set(s, (inBody.get(s) ?? 0) + 1);
  return {
    inHeading: new Set(heading.filter((s) => wanted.has(s))),
    inBody,
    together: wanted.size < 2 || closePair(heading, wanted) || closePair(body, wanted),
  };
}

/** Whether two different wanted stems occur within PROXIMITY words of each other. */
function closePair(stems: string[], wanted: Set<string>): boolean {
  let last: { stem: string; at: number } | null = null;
  for (let i = 0; i < stems.length; i++) {
    const s = stems[i]!;
    if (!wanted.has(s)) continue;
    if (last && last.stem !== s && i - last.at <= PROXIMITY) return true;
    last = { stem: s, at: i };
  }
  return false;
}

/**
 * A term in a heading (the document's title included) is fully covered, as is one the text uses
 * at least twice; a single passing mention counts half.
 */
function credit(stem: string, occ: Occurrences[]): number {
  if (occ.some((o) => o.inHeading.has(stem))) return 1;
  const n = occ.reduce((sum, o) => sum + (o.inBody.get(stem) ?? 0), 0);
  return n >= 2 ? 1 : n === 1 ? 0.5 : 0;
}

/**
 * Every neighbourhood (a chunk and the RADIUS chunks either side of it in its document) scored by
 * how much of the topic it covers: those that cover it first, then by coverage. Only the chunks
 * holding a topic term need be given: the others add nothing to any neighbourhood.
 */
export function neighbourhoods(terms: TopicTerm[], chunks: CoverageChunk[]): Neighbourhood[] {
  const total = terms.reduce((s, t) => s + t.weight, 0);
  if (total === 0) return [];
  const wanted = new Set(terms.map((t) => t.stem));
  // Documents repeat their words: each is stemmed once.
  const stems = new Map<string, string>();
  const stem = (w: string) => stems.get(w) ?? stems.set(w, stemmer(w)).get(w)!;
  const occ = new Map(chunks.map((c) => [c, occurrences(wanted, c, stem)]));
  const byDocument = Map.groupBy(chunks, (c) => c.documentId);
  const out: Neighbourhood[] = [];
  for (const [documentId, docChunks] of byDocument) {
    for (const centre of docChunks) {
      const seen = docChunks.filter((c) => Math.abs(c.position - centre.position) <= RADIUS).map((c) => occ.get(c)!);
      const credits = terms.map((t) => credit(t.stem, seen));
      const own = occ.get(centre)!;
      out.push({
        documentId,
        centre,
        coverage: terms.reduce((s, t, i) => s + t.weight * credits[i]!, 0) / total,
        together: seen.some((o) => o.together),
        emphasis: terms.reduce(
          (sum, t) => sum + t.weight * ((own.inBody.get(t.stem) ?? 0) + (own.inHeading.has(t.stem) ? 2 : 0)),
          0,
        ),
        missing: terms.filter((_, i) => credits[i] === 0).map((t) => t.word),
      });
    }
  }
  return out.sort(
    (a, b) =>
      Number(coversTopic(b)) - Number(coversTopic(a)) ||
      b.coverage - a.coverage ||
      b.emphasis - a.emphasis ||
      a.centre.seq - b.centre.seq,
  );
}

export const coversTopic = (n: Neighbourhood) => n.coverage >= COVERAGE_THRESHOLD && n.together;
