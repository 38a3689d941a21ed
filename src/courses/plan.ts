/**
 * The outline of a course, planned by its organization:
 * - topic courses: one outline from the topic (grounded in the learner's matching documents);
 * - `sequential_sections`: each source keeps its order; chapters are contiguous groups of a
 *   source's top-level sections, balanced by length, each chapter reading only its own sections
 *   (or a run of consecutive whole sources when there are fewer chapters than sources);
 * - `thematic_bridge`: chapters are built around themes the sources share, each drawing on all;
 * - `auto`: thematic_bridge when the sources are about one subject, sequential_sections otherwise;
 * - `separate_courses`: each course has one source, planned like sequential_sections.
 */
import type { Database } from "bun:sqlite";
import { documentRepeats, documentTitle } from "../documents/lookups.ts";
import { documentDetails } from "../documents/repeated-sections.ts";
import {
  type Outline,
  type OutlineInput,
  type Passage,
  type UsageMeter,
  writeOutline as writeOutlineOnce,
} from "../llm/artefacts.ts";
import { usesExtractive } from "../llm/models.ts";
import { slugify } from "../util.ts";
import { bookChapters } from "./book-chapters.ts";
import { cleanTitle, groupTitle, partition, splitToCount } from "./chapter-groups.ts";
import type { WritingDeps } from "./deps.ts";
import { withModelRetries } from "./model-retry.ts";
import { documentParagraphs, type Paragraph, type Section, topSections, wordsOf } from "./sections.ts";
import { evenSample, headingTree, OUTLINE_PASSAGES, paragraphPassages, spreadSample } from "./source-passages.ts";
import type { ChapterPart, CoursePlan, CourseRow, Organization, PlannedChapter, PlannedSource } from "./store.ts";
import { dominantTheme, relatedness, sharedThemes, type TermProfile, termProfile } from "./themes.ts";

/** Mean lexical cosine above which `auto` treats the sources as one subject. */
const RELATED_THRESHOLD = 0.2;

export interface ReadySource {
  id: string;
  filename: string;
}

interface PlanContext {
  svc: WritingDeps;
  course: CourseRow;
  meter: UsageMeter;
}

const writeOutline = (ctx: PlanContext, input: OutlineInput) =>
  withModelRetries(ctx.svc, { course_id: ctx.course.id, step: "outline" }, () => writeOutlineOnce(ctx.svc.llm, input));

const learningGoalOf = (course: CourseRow) => course.learning_goal ?? undefined;
const modelOf = (course: CourseRow) => course.model ?? undefined;

function toChapters(outline: Outline, sourceIds: string[] | null): PlannedChapter[] {
  return outline.chapters.map((c) => ({ title: c.title, objectives: c.objectives, source_document_ids: sourceIds }));
}

/**
 * The runs of the learner's paragraphs that lie in the chunks matched to a topic, as sections in
 * document order, with each document's paragraphs to read them from.
 */
function matchedSections(
  sqlite: Database,
  passages: Passage[],
): { sections: Section[]; paragraphs: Map<string, Paragraph[]> } {
  const chunkIds = new Set(passages.map((p) => p.id));
  const documentIds = [...new Set(passages.map((p) => p.documentId).filter((id): id is string => !!id))];
  const paragraphs = new Map(documentIds.map((id) => [id, documentParagraphs(sqlite, id)] as const));
  const sections: Section[] = [];
  for (const [documentId, ps] of paragraphs) {
    let from = -1;
    const close = (to: number) => {
      if (from < 0) return;
      const path = ps[from]!.headingPath;
      sections.push({
        documentId,
        title: path.at(-1) ?? ps[from]!.filename,
        from,
        to,
        depth: Math.max(0, path.length - 1),
        words: wordsOf(ps, from, to),
      });
      from = -1;
    };
    ps.forEach((p, i) => {
      if (chunkIds.has(p.chunkId)) {
        if (from < 0) from = i;
      } else close(i);
    });
    close(ps.length);
  }
  return { sections, paragraphs };
}

/**
 * A topic course with no model: chapters are contiguous runs of the sections that cover the
 * topic (nothing else of the documents is taught), titled by their headings.
 */
function topicChapters(sqlite: Database, passages: Passage[], count: number): SectionChapter[] {
  const { sections, paragraphs } = matchedSections(sqlite, passages);
  // Sections split within their own document; groups may run across documents.
  const split = [...paragraphs].flatMap(([id, ps]) =>
    splitToCount(
      sections.filter((s) => s.documentId === id),
      ps,
      Math.max(
        1,
        Math.ceil((count * sections.filter((s) => s.documentId === id).length) / Math.max(1, sections.length)),
      ),
    ),
  );
  return partition(split, count).map((group) => ({
    title: groupTitle(group.map((s) => s.title)),
    sections: group.map((s) => cleanTitle(s.title)),
    parts: group.map((s) => ({ document_id: s.documentId, from: s.from, to: s.to, depth: s.depth })),
    passages: group.flatMap((s) => paragraphPassages(paragraphs.get(s.documentId)!.slice(s.from, s.to))),
  }));
}

export async function planTopicCourse(ctx: PlanContext, passages: Passage[]): Promise<CoursePlan> {
  const { course } = ctx;
  // With no model the matching sections are the whole material; a model plans freely from them.
  const planned =
    usesExtractive(ctx.svc.llm, modelOf(course)) && passages.length > 0
      ? topicChapters(ctx.svc.sqlite, passages, course.num_chapters)
      : null;
  const outline = await writeOutline(ctx, {
    topic: course.topic,
    learningGoal: learningGoalOf(course),
    numChapters: planned?.length ?? course.num_chapters,
    passages,
    ...(planned
      ? { chapters: planned.map((c) => ({ title: c.title, sections: c.sections, passages: c.passages })) }
      : {}),
    meter: ctx.meter,
    model: modelOf(course),
  });
  return {
    title: outline.title,
    slug: outline.slug ?? slugify(outline.title),
    description: outline.description,
    topic: course.topic,
    organization: null,
    chapters: planned
      ? planned.map((c, i) => ({
          title: c.title,
          objectives: outline.chapters[i]?.objectives ?? [],
          source_document_ids: [...new Set(c.parts.map((p) => p.document_id))],
          parts: c.parts,
        }))
      : toChapters(outline, null),
  };
}

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

export async function planSourceCourse(ctx: PlanContext, sources: ReadySource[]): Promise<CoursePlan> {
  const paragraphs = sources.map((s) => documentParagraphs(ctx.svc.sqlite, s.id));
  const profiles = paragraphs.map((ps) =>
    termProfile(ps.map((p) => [...p.headingPath.slice(-1), p.text].join("\n")).join("\n")),
  );
  const { organization, relatedness: r } = resolveOrganization(ctx.course.organization ?? "auto", profiles);
  const plan =
    organization === "thematic_bridge"
      ? await planThematic(ctx, { sources, paragraphs, profiles })
      : await planSequential(ctx, { sources, paragraphs, profiles });
  return {
    ...plan,
    organization,
    ...(r === undefined ? {} : { relatedness: r }),
    sources: sources.map((s) => describeSource(ctx.svc.sqlite, s)),
  };
}

/** A source as the course read it: the text it repeats of itself was taught once, where first seen. */
function describeSource(sqlite: Database, source: ReadySource): PlannedSource {
  const repeats = documentRepeats(sqlite, source.id);
  return {
    document_id: source.id,
    filename: source.filename,
    repeated_words: repeats?.repeated_words ?? 0,
    repeated_sections: (repeats ? documentDetails(repeats).repeated_sections : []).map((r) => ({
      heading_path: r.heading_path,
      page: r.page,
      words: r.words,
    })),
  };
}

/**
 * Passages grouped theme by theme, each theme illustrated by the section of every source that
 * uses it most, so the outline forms chapters around what the sources share.
 */
function themePassages(
  sources: ReadySource[],
  paragraphs: Paragraph[][],
  profiles: TermProfile[],
  numChapters: number,
): { passages: Passage[]; used: Set<string> } {
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

async function planThematic(ctx: PlanContext, read: ReadSources): Promise<Omit<CoursePlan, "organization">> {
  const { course } = ctx;
  const { sources, paragraphs, profiles } = read;
  const { passages, used } = themePassages(sources, paragraphs, profiles, course.num_chapters);
  const outline = await writeOutline(ctx, {
    topic: course.topic || undefined,
    learningGoal: learningGoalOf(course),
    numChapters: course.num_chapters,
    passages,
    meter: ctx.meter,
    model: modelOf(course),
  });
  // Every chapter of a bridge draws on each source its themes came from.
  const bridged = sources.filter((s) => used.has(s.id)).map((s) => s.id);
  return {
    title: outline.title,
    slug: outline.slug ?? slugify(outline.title),
    description: outline.description,
    topic: course.topic || outline.title,
    chapters: toChapters(outline, bridged.length > 0 ? bridged : null),
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
interface SectionChapter {
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
function sourcesChapter(ctx: PlanContext, sources: ReadySource[], paragraphs: Paragraph[][]): SectionChapter {
  const titles = sources.map((s) => documentTitle(ctx.svc.sqlite, s.id) ?? s.filename);
  return {
    title: groupTitle(titles),
    sections: titles,
    parts: sources.map((s, i) => ({ document_id: s.id, from: 0, to: paragraphs[i]!.length, depth: 0 })),
    passages: sources.flatMap((_, i) => paragraphPassages(paragraphs[i]!)),
  };
}

async function planSequential(ctx: PlanContext, read: ReadSources): Promise<Omit<CoursePlan, "organization">> {
  const { course } = ctx;
  const { sources, paragraphs, profiles } = read;
  const sizes = paragraphs.map((ps) => ps.reduce((a, p) => a + p.text.length, 0));
  const groups = sequentialGroups(sizes, course.num_chapters);
  const planned = groups.flatMap((g) =>
    g.sources.length > 1
      ? [
          sourcesChapter(
            ctx,
            g.sources.map((i) => sources[i]!),
            g.sources.map((i) => paragraphs[i]!),
          ),
        ]
      : sourceChapters(sources[g.sources[0]!]!, paragraphs[g.sources[0]!]!, g.chapters),
  );
  const titles = sources.map((s) => documentTitle(ctx.svc.sqlite, s.id));
  const structure = sources
    .map((s, i) => `${titles[i] ?? s.filename}\n${headingTree(paragraphs[i]!, 0, 3)}`)
    .join("\n\n");
  const outline = await writeOutline(ctx, {
    topic: course.topic || (sources.length === 1 ? (titles[0] ?? undefined) : undefined),
    learningGoal: learningGoalOf(course),
    numChapters: planned.length,
    // Each chapter's share of the sample spans its sections to the last, so the plan sees how the sources end.
    passages: planned.flatMap((c) =>
      spreadSample(c.passages, Math.max(2, Math.floor(OUTLINE_PASSAGES / planned.length))),
    ),
    structure,
    chapters: planned.map((c) => ({ title: c.title, sections: c.sections, passages: c.passages })),
    meter: ctx.meter,
    model: modelOf(course),
  });
  const chapters: PlannedChapter[] = planned.map((c, i) => ({
    title: outline.chapters[i]?.title ?? c.title,
    objectives: outline.chapters[i]?.objectives ?? [],
    source_document_ids: [...new Set(c.parts.map((p) => p.document_id))],
    parts: c.parts,
  }));
  const single = sources.length === 1;
  const title =
    course.topic ||
    (single
      ? (titles[0] ?? outline.title)
      : joinTitles(titles.map((t, i) => t ?? sources[i]!.filename)) || dominantTheme(profiles) || outline.title);
  return {
    title,
    slug: slugify(title),
    description: outline.description,
    topic: course.topic || title,
    chapters,
  };
}

function joinTitles(titles: string[]): string {
  const unique = [...new Set(titles)];
  const shown = unique.length <= 3 ? unique : [...unique.slice(0, 2), "more"];
  const text = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
  return text.slice(0, 200);
}
