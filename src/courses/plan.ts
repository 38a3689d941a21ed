/**
 * The outline of a course, planned by its organization:
 * - topic courses: one outline from the topic (grounded in the learner's matching documents);
 * - `sequential_sections`: each source keeps its order; chapters follow the sources one after
 *   another, each chapter drawn from its own source (or from a run of consecutive sources when
 *   there are fewer chapters than sources);
 * - `thematic_bridge`: chapters are built around themes the sources share, each drawing on all;
 * - `auto`: thematic_bridge when the sources are about one subject, sequential_sections otherwise;
 * - `separate_courses`: each course has one source, planned like sequential_sections.
 */
import pLimit from "p-limit";
import { type Outline, type OutlineInput, type Passage, type UsageMeter, writeOutline as writeOutlineOnce } from "../llm/artefacts.ts";
import type { Services } from "../services.ts";
import { slugify } from "../util.ts";
import { evenSample, OUTLINE_PASSAGES, segmentsOf, sequentialPassages, type StoredSegment, toPassage } from "./segments.ts";
import type { CoursePlan, CourseRow, Organization, PlannedChapter } from "./store.ts";
import { withModelRetries } from "./model-retry.ts";
import { dominantTheme, relatedness, sharedThemes, termProfile, type TermProfile } from "./themes.ts";

/** Mean lexical cosine above which `auto` treats the sources as one subject. */
export const RELATED_THRESHOLD = 0.2;

export interface ReadySource {
  id: string;
  filename: string;
}

interface PlanContext {
  svc: Services;
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

export async function planTopicCourse(ctx: PlanContext, passages: Passage[]): Promise<CoursePlan> {
  const { course } = ctx;
  const outline = await writeOutline(ctx, {
    topic: course.topic,
    learningGoal: learningGoalOf(course),
    numChapters: course.num_chapters,
    passages,
    meter: ctx.meter,
    model: modelOf(course),
  });
  return {
    title: outline.title,
    slug: outline.slug ?? slugify(outline.title),
    description: outline.description,
    topic: course.topic,
    organization: null,
    chapters: toChapters(outline, null),
  };
}

/** The organization a course of these sources is built with. */
export function resolveOrganization(requested: Organization, profiles: TermProfile[]): { organization: Organization; relatedness?: number } {
  // A separate course has one source, read in its order.
  if (requested !== "auto") return { organization: requested };
  if (profiles.length < 2) return { organization: "sequential_sections" };
  const r = relatedness(profiles);
  return { organization: r >= RELATED_THRESHOLD ? "thematic_bridge" : "sequential_sections", relatedness: r };
}

export async function planSourceCourse(ctx: PlanContext, sources: ReadySource[]): Promise<CoursePlan> {
  const segments = sources.map((s) => segmentsOf(ctx.svc.sqlite, s.id));
  const profiles = segments.map((segs) => termProfile(segs.map((s) => s.markdown).join("\n")));
  const { organization, relatedness: r } = resolveOrganization(ctx.course.organization ?? "auto", profiles);
  const plan =
    organization === "thematic_bridge"
      ? await planThematic(ctx, segments, profiles)
      : await planSequential(ctx, sources, segments, profiles);
  return { ...plan, organization, ...(r === undefined ? {} : { relatedness: r }) };
}

/**
 * Passages grouped theme by theme, each theme illustrated by the segment of every source that
 * uses it most, so the outline (and the extractive engine's contiguous split) forms chapters
 * around what the sources share.
 */
function themePassages(segments: StoredSegment[][], profiles: TermProfile[], numChapters: number): Passage[] {
  const themes = sharedThemes(profiles, numChapters * 2);
  if (themes.length === 0) {
    // Nothing shared at all: interleave the sources so every chapter still sees all of them.
    const samples = segments.map((s) => evenSample(s, Math.ceil(OUTLINE_PASSAGES / segments.length)));
    const longest = Math.max(...samples.map((s) => s.length));
    return Array.from({ length: longest }, (_, i) => samples.map((s) => s[i]).filter((s): s is StoredSegment => !!s))
      .flat()
      .map(toPassage);
  }
  const segmentProfiles = segments.map((segs) => segs.map((s) => termProfile(s.markdown)));
  const used = new Set<string>();
  const out: Passage[] = [];
  for (const theme of themes) {
    for (const src of theme.sources) {
      let best: StoredSegment | null = null;
      let bestWeight = 0;
      segments[src]!.forEach((seg, i) => {
        const w = segmentProfiles[src]![i]!.weights.get(theme.stem) ?? 0;
        if (w > bestWeight && !used.has(`${seg.documentId}:${seg.position}`)) {
          best = seg;
          bestWeight = w;
        }
      });
      if (best) {
        const chosen: StoredSegment = best;
        used.add(`${chosen.documentId}:${chosen.position}`);
        out.push(toPassage(chosen));
      }
    }
    if (out.length >= OUTLINE_PASSAGES) break;
  }
  return out;
}

async function planThematic(
  ctx: PlanContext,
  segments: StoredSegment[][],
  profiles: TermProfile[],
): Promise<Omit<CoursePlan, "organization">> {
  const { course } = ctx;
  const outline = await writeOutline(ctx, {
    topic: course.topic || undefined,
    learningGoal: learningGoalOf(course),
    numChapters: course.num_chapters,
    passages: themePassages(segments, profiles, course.num_chapters),
    meter: ctx.meter,
    model: modelOf(course),
  });
  return {
    title: outline.title,
    slug: outline.slug ?? slugify(outline.title),
    description: outline.description,
    topic: course.topic || outline.title,
    chapters: toChapters(outline, null),
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

async function planSequential(
  ctx: PlanContext,
  sources: ReadySource[],
  segments: StoredSegment[][],
  profiles: TermProfile[],
): Promise<Omit<CoursePlan, "organization">> {
  const { course } = ctx;
  const sizes = segments.map((segs) => segs.reduce((a, s) => a + s.markdown.length, 0));
  const groups = sequentialGroups(sizes, course.num_chapters);
  const single = groups.length === 1;
  const limit = pLimit(ctx.svc.cfg.chapterConcurrency);
  const outlines = await Promise.all(
    groups.map((g) =>
      limit(() =>
        writeOutline(ctx, {
          // Each run of sources is titled after its own content; only a single run takes the course topic.
          topic: single ? course.topic || undefined : undefined,
          learningGoal: learningGoalOf(course),
          numChapters: g.chapters,
          passages: sequentialPassages(g.sources.map((i) => segments[i]!)),
          meter: ctx.meter,
          model: modelOf(course),
        }),
      ),
    ),
  );
  const chapters = outlines.flatMap((o, gi) => toChapters(o, groups[gi]!.sources.map((i) => sources[i]!.id)));
  const first = outlines[0]!;
  const title = single ? first.title : course.topic || joinTitles(outlines.map((o) => o.title)) || dominantTheme(profiles) || "Course";
  return {
    title,
    slug: single ? (first.slug ?? slugify(title)) : slugify(title),
    description: outlines.map((o) => o.description).join(" "),
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
