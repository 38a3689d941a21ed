/**
 * The part of planning a course from files or URLs that reads the whole of its sources: their
 * paragraphs and term profiles, the organization, and the chapters' sections or themes, up to what
 * the outline is written from. It runs in the extractive engine's thread (plan.ts asks it there) on a
 * read-only connection: for a long book it takes seconds of CPU, which on the server's thread
 * stalled every other tenant's requests. plan.ts writes the outline and finishes the plan.
 */
import type { Sql } from "../db/sql.ts";
import { documentTitle } from "../documents/lookups.ts";
import type { OutlineInput, Passage } from "../llm/artefacts.ts";
import { bookChapters } from "./book-chapters.ts";
import { cleanTitle, groupTitle } from "./chapter-groups.ts";
import { paragraphsOf } from "./section-reads.ts";
import { type Paragraph, topSections } from "./sections.ts";
import { evenSample, headingTree, OUTLINE_PASSAGES, paragraphPassages, spreadSample } from "./source-passages.ts";
import type { ChapterPart, Organization } from "./store.ts";
import { dominantTheme, relatedness, sharedThemes, type TermProfile, termProfile } from "./themes.ts";

/** Mean lexical cosine above which `auto` treats the sources as one subject. */
const RELATED_THRESHOLD = 0.2;

export interface ReadySource {
  id: string;
  filename: string;
}

export interface SourcePlanInput {
  /** The database file, read here on a connection of this thread. */
  database: string;
  sources: ReadySource[];
  /** As the course asked for it. */
  organization: Organization;
  numChapters: number;
  topic: string;
}

/** What the outline is written from, and what finishes the plan once it is. */
export type PreparedSourcePlan = {
  organization: Organization;
  relatedness?: number;
  outline: Omit<OutlineInput, "learningGoal" | "meter" | "model">;
} & (
  | {
      kind: "thematic";
      /** The sources every chapter draws on (those the themes came from). */
      bridged: string[];
    }
  | {
      kind: "sequential";
      /** Each chapter's title by its sections, and where it reads. */
      chapters: { title: string; parts: ChapterPart[] }[];
      /** The course's title from its topic or its sources; null when only the outline can name it. */
      title: string | null;
    }
);

/** The organization a course of these sources is built with. */
export function resolveOrganization(
  requested: Organization,
  profiles: TermProfile[],
): { organization: Organization; relatedness?: number } {
  // A separate course has one source, read in its order.
  if (requested !== "auto") return { organization: requested };
  if (profiles.length < 2) return { organization: "sequential_sections" };
  const r = relatedness(profiles);
  return { organization: r >= RELATED_THRESHOLD ? "thematic_bridge" : "sequential_sections", relatedness: r };
}

/** The sources of a course as read for planning: each one's paragraphs and term profile. */
interface ReadSources {
  sources: ReadySource[];
  paragraphs: Paragraph[][];
  profiles: TermProfile[];
}

/**
 * Passages grouped theme by theme, each theme illustrated by the section of every source that
 * uses it most, so the outline forms chapters around what the sources share.
 */
function themePassages(read: ReadSources, numChapters: number): { passages: Passage[]; used: Set<string> } {
  const { sources, paragraphs, profiles } = read;
  const themes = sharedThemes(profiles, numChapters * 2);
  const used = new Set<string>();
  if (themes.length === 0) {
    // Nothing shared at all: interleave the sources so every chapter still sees all of them.
    const samples = paragraphs.map((ps) =>
      evenSample(paragraphPassages(ps), Math.ceil(OUTLINE_PASSAGES / paragraphs.length)),
    );
    const longest = Math.max(...samples.map((s) => s.length));
    sources.forEach((s) => {
      used.add(s.id);
    });
    return {
      passages: Array.from({ length: longest }, (_, i) => samples.flatMap((s) => (s[i] ? [s[i]] : []))).flat(),
      used,
    };
  }
  const sections = paragraphs.map((ps) => topSections(ps, numChapters));
  const sectionProfiles = sections.map((secs, i) =>
    secs.map((sec) =>
      termProfile(
        paragraphs[i]!.slice(sec.from, sec.to)
          .map((p) => p.text)
          .join("\n"),
      ),
    ),
  );
  const taken = new Set<string>();
  const out: Passage[] = [];
  for (const theme of themes) {
    for (const src of theme.sources) {
      let best = -1;
      let bestWeight = 0;
      sectionProfiles[src]!.forEach((profile, i) => {
        const w = profile.weights.get(theme.stem) ?? 0;
        if (w > bestWeight && !taken.has(`${src}:${i}`)) [best, bestWeight] = [i, w];
      });
      if (best < 0) continue;
      taken.add(`${src}:${best}`);
      used.add(sources[src]!.id);
      const sec = sections[src]![best]!;
      const [first] = paragraphPassages(paragraphs[src]!.slice(sec.from, sec.to));
      if (first) out.push({ ...first, heading: sec.title });
    }
    if (out.length >= OUTLINE_PASSAGES) break;
  }
  return { passages: out, used };
}

function prepareThematic(input: SourcePlanInput, read: ReadSources): PreparedSourcePlan {
  const { passages, used } = themePassages(read, input.numChapters);
  // Every chapter of a bridge draws on each source its themes came from.
  const bridged = read.sources.filter((s) => used.has(s.id)).map((s) => s.id);
  return {
    kind: "thematic",
    organization: "thematic_bridge",
    bridged,
    outline: { topic: input.topic || undefined, numChapters: input.numChapters, passages },
  };
}

/**
 * How many chapters each run of sources gets: with at least as many chapters as sources, every
 * source gets one plus a share of the rest by size; with fewer, consecutive sources share one.
 */
export function sequentialGroups(sizes: number[], numChapters: number): { sources: number[]; chapters: number }[] {
  const n = sizes.length;
  if (numChapters < n) {
    return Array.from({ length: numChapters }, (_, g) => {
      const from = Math.floor((g * n) / numChapters);
      const to = Math.floor(((g + 1) * n) / numChapters);
      return { sources: Array.from({ length: to - from }, (_, i) => from + i), chapters: 1 };
    });
  }
  const total = sizes.reduce((a, b) => a + b, 0) || 1;
  const extra = numChapters - n;
  const shares = sizes.map((s) => (s / total) * extra);
  const counts = shares.map((s) => 1 + Math.floor(s));
  // Largest remainder: hand out what flooring left over to the sources it was taken from.
  let left = numChapters - counts.reduce((a, b) => a + b, 0);
  const order = shares.map((s, i) => ({ i, r: s - Math.floor(s) })).sort((a, b) => b.r - a.r);
  for (let k = 0; left > 0; k = (k + 1) % n, left--) counts[order[k]!.i]! += 1;
  return counts.map((chapters, i) => ({ sources: [i], chapters }));
}

/** A chapter planned from sections: where it reads, what it is called, and its passages. */
export interface SectionChapter {
  title: string;
  sections: string[];
  parts: ChapterPart[];
  passages: Passage[];
}

/** One source's chapters: its own parts, chapters or sections, grouped or split into `count` (book-chapters.ts). */
function sourceChapters(source: ReadySource, paragraphs: Paragraph[], count: number): SectionChapter[] {
  return bookChapters(paragraphs, count).map(({ title, sections }) => {
    const from = sections[0]!.from;
    const to = sections.at(-1)!.to;
    return {
      title,
      sections: sections.map((s) => cleanTitle(s.title)),
      parts: [{ document_id: source.id, from, to, depth: Math.min(...sections.map((s) => s.depth)) }],
      passages: paragraphPassages(paragraphs.slice(from, to)),
    };
  });
}

/** Consecutive whole sources sharing one chapter (fewer chapters than sources). */
function sourcesChapter(sources: ReadySource[], paragraphs: Paragraph[][], titles: string[]): SectionChapter {
  return {
    title: groupTitle(titles),
    sections: titles,
    parts: sources.map((s, i) => ({ document_id: s.id, from: 0, to: paragraphs[i]!.length, depth: 0 })),
    passages: sources.flatMap((_, i) => paragraphPassages(paragraphs[i]!)),
  };
}

function joinTitles(titles: string[]): string {
  const unique = [...new Set(titles)];
  const shown = unique.length <= 3 ? unique : [...unique.slice(0, 2), "more"];
  const text = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
  return text.slice(0, 200);
}

async function prepareSequential(
  db: Sql,
  input: SourcePlanInput,
  read: ReadSources,
  organization: Organization,
): Promise<PreparedSourcePlan> {
  const { sources, paragraphs, profiles } = read;
  const titles: (string | null)[] = [];
  for (const s of sources) titles.push(await documentTitle(db, s.id));
  const sizes = paragraphs.map((ps) => ps.reduce((a, p) => a + p.text.length, 0));
  const planned = sequentialGroups(sizes, input.numChapters).flatMap((g) =>
    g.sources.length > 1
      ? [
          sourcesChapter(
            g.sources.map((i) => sources[i]!),
            g.sources.map((i) => paragraphs[i]!),
            g.sources.map((i) => titles[i] ?? sources[i]!.filename),
          ),
        ]
      : sourceChapters(sources[g.sources[0]!]!, paragraphs[g.sources[0]!]!, g.chapters),
  );
  const structure = sources
    .map((s, i) => `${titles[i] ?? s.filename}\n${headingTree(paragraphs[i]!, 0, 3)}`)
    .join("\n\n");
  const single = sources.length === 1;
  const named =
    input.topic ||
    (single ? titles[0] : joinTitles(titles.map((t, i) => t ?? sources[i]!.filename)) || dominantTheme(profiles)) ||
    null;
  return {
    kind: "sequential",
    organization,
    chapters: planned.map((c) => ({ title: c.title, parts: c.parts })),
    title: named,
    outline: {
      topic: input.topic || (single ? (titles[0] ?? undefined) : undefined),
      numChapters: planned.length,
      // Each chapter's share of the sample spans its sections to the last, so the plan sees how the sources end.
      passages: planned.flatMap((c) =>
        spreadSample(c.passages, Math.max(2, Math.floor(OUTLINE_PASSAGES / planned.length))),
      ),
      structure,
      chapters: planned.map((c) => ({ title: c.title, sections: c.sections, passages: c.passages })),
    },
  };
}

/** Reads the sources and plans their chapters up to the outline (in the engine's thread). */
export async function prepareSourcePlan(db: Sql, input: SourcePlanInput): Promise<PreparedSourcePlan> {
  const paragraphs: Paragraph[][] = [];
  for (const s of input.sources) paragraphs.push(await paragraphsOf(db, s.id));
  const profiles = paragraphs.map((ps) =>
    termProfile(ps.map((p) => [...p.headingPath.slice(-1), p.text].join("\n")).join("\n")),
  );
  const read = { sources: input.sources, paragraphs, profiles };
  const { organization, relatedness: r } = resolveOrganization(input.organization, profiles);
  const prepared =
    organization === "thematic_bridge"
      ? prepareThematic(input, read)
      : await prepareSequential(db, input, read, organization);
  return r === undefined ? prepared : { ...prepared, relatedness: r };
}
