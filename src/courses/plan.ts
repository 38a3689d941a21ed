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
import type { Sql } from "../db/sql.ts";
import { documentRepeats } from "../documents/lookups.ts";
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
import type { WritingDeps } from "./deps.ts";
import { withModelRetries } from "./model-retry.ts";
import type { ReadySource } from "./source-plan.ts";
import type { CoursePlan, CourseRow, PlannedChapter, PlannedSource } from "./store.ts";

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

export async function planTopicCourse(ctx: PlanContext, passages: Passage[]): Promise<CoursePlan> {
  const { course } = ctx;
  // With no model the matching sections are the whole material; a model plans freely from them.
  const planned =
    usesExtractive(ctx.svc.llm, modelOf(course)) && passages.length > 0
      ? await ctx.svc.engineThread.topicChapters({
          database: ctx.svc.databaseAddress,
          passages,
          count: course.num_chapters,
        })
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

/**
 * A course from files or URLs: its sources are read and its chapters planned in the extractive
 * engine's thread (source-plan.ts), then the outline is written from what that returns.
 */
export async function planSourceCourse(ctx: PlanContext, sources: ReadySource[]): Promise<CoursePlan> {
  const { course } = ctx;
  const prepared = await ctx.svc.engineThread.prepareSourcePlan({
    database: ctx.svc.databaseAddress,
    sources,
    organization: course.organization ?? "auto",
    numChapters: course.num_chapters,
    topic: course.topic,
  });
  const outline = await writeOutline(ctx, {
    ...prepared.outline,
    learningGoal: learningGoalOf(course),
    meter: ctx.meter,
    model: modelOf(course),
  });
  const described = {
    organization: prepared.organization,
    ...(prepared.relatedness === undefined ? {} : { relatedness: prepared.relatedness }),
    sources: await Promise.all(sources.map((s) => describeSource(ctx.svc.sql, s))),
  };
  if (prepared.kind === "thematic") {
    return {
      title: outline.title,
      slug: outline.slug ?? slugify(outline.title),
      description: outline.description,
      topic: course.topic || outline.title,
      chapters: toChapters(outline, prepared.bridged.length > 0 ? prepared.bridged : null),
      ...described,
    };
  }
  const chapters: PlannedChapter[] = prepared.chapters.map((c, i) => ({
    title: outline.chapters[i]?.title ?? c.title,
    objectives: outline.chapters[i]?.objectives ?? [],
    source_document_ids: [...new Set(c.parts.map((p) => p.document_id))],
    parts: c.parts,
  }));
  const title = prepared.title ?? outline.title;
  return {
    title,
    slug: slugify(title),
    description: outline.description,
    topic: course.topic || title,
    chapters,
    ...described,
  };
}

/** A source as the course read it: the text it repeats of itself was taught once, where first seen. */
async function describeSource(db: Sql, source: ReadySource): Promise<PlannedSource> {
  const repeats = await documentRepeats(db, source.id);
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
