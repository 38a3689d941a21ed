/**
 * One chapter: its own sections of the sources when the plan chose them (sequential courses), else
 * passages retrieved from the course's sources (topic and thematic courses), plus web results when
 * search is on; written by the model or the extractive engine (retried after transient failures);
 * the passages that ground its paragraphs become the chapter's sources.
 */

import { repeatedChunkIds } from "../documents/lookups.ts";
import { TEACHING_ROLE_LIST } from "../ingest/document.ts";
import {
  type ChapterDraft,
  type ChapterInput,
  EXTRACTIVE_MODEL,
  type Passage,
  type UsageMeter,
  writeChapter,
} from "../llm/artefacts.ts";
import { type GeneratedBy, withFallback } from "../llm/fallback.ts";
import { search } from "../retrieval/index.ts";
import { sectionTitle } from "../util.ts";
import type { WritingDeps } from "./deps.ts";
import { withModelRetries } from "./model-retry.ts";
import type { ChapterSourceRecord, CourseRow, PlannedChapter } from "./store.ts";
import { type WebResult, webSearch } from "./web-search.ts";

const PASSAGES_PER_CHAPTER = 6;
const WEB_RESULTS_PER_CHAPTER = 3;
const EXCERPT_CHARS = 400;

export interface ChapterScope {
  /** Documents to retrieve from; empty means the chapter has no document passages. */
  documentIds: string[];
  /** Least score a passage needs (topic courses draw only on documents that match). */
  minScore: number;
}

interface SourcedPassage extends Passage {
  chunkId?: string;
  timestamp?: number | null;
  url?: string;
  title?: string;
}

async function documentPassages(
  svc: WritingDeps,
  course: CourseRow,
  chapter: PlannedChapter,
  scope: ChapterScope,
): Promise<SourcedPassage[]> {
  if (scope.documentIds.length === 0) return [];
  const hits = await search(svc, {
    tenantId: course.tenant_id,
    userId: course.user_id,
    scope: { documentIds: scope.documentIds },
    query: [chapter.title, ...chapter.objectives].join(". "),
    topK: PASSAGES_PER_CHAPTER * 3,
    roles: TEACHING_ROLE_LIST,
  });
  // A chapter named after a section of its sources reads that section first: otherwise the
  // document's summary parts (abstract, conclusions) match every chapter's title and each chapter
  // would open with them.
  const title = chapter.title.toLowerCase();
  const ownSection = (h: (typeof hits)[number]) => sectionTitle(h.headingPath)?.toLowerCase() === title;
  const ordered = [...hits.filter(ownSection), ...hits.filter((h) => !ownSection(h))];
  // Text a source repeats of itself is read where it first occurs, as in planned chapters.
  const repeated = new Set<string>();
  for (const id of scope.documentIds) for (const chunkId of await repeatedChunkIds(svc.sql, id)) repeated.add(chunkId);
  return ordered
    .filter((h) => h.score >= scope.minScore && !repeated.has(h.chunkId))
    .slice(0, PASSAGES_PER_CHAPTER)
    .map((h) => ({
      id: h.chunkId,
      chunkId: h.chunkId,
      text: h.text,
      documentId: h.documentId ?? undefined,
      filename: h.filename ?? undefined,
      page: h.page ?? h.slide ?? null,
      timestamp: h.timestamp ?? null,
      heading: h.headingPath.length > 0 ? h.headingPath.join(" > ") : null,
      score: h.score,
    }));
}

function webPassages(results: WebResult[]): SourcedPassage[] {
  return results.map((r, i) => ({
    id: `web-${i + 1}`,
    text: `${r.title}\n${r.content}`,
    url: r.url,
    title: r.title,
    heading: r.title,
  }));
}

function toSource(p: SourcedPassage, paragraphs: number[]): ChapterSourceRecord {
  const excerpt = p.text.length > EXCERPT_CHARS ? `${p.text.slice(0, EXCERPT_CHARS)}…` : p.text;
  return {
    paragraphs,
    document_id: p.documentId ?? null,
    chunk_id: p.chunkId ?? null,
    filename: p.filename ?? null,
    page: p.page ?? null,
    timestamp_seconds: p.timestamp ?? null,
    url: p.url ?? null,
    title: p.title ?? null,
    excerpt,
    score: p.score ?? null,
  };
}

export interface WrittenChapter {
  draft: ChapterDraft;
  /** "extractive" when the model failed it and LLM_FALLBACK had the built-in engine write it. */
  generatedBy: GeneratedBy;
  sources: ChapterSourceRecord[];
}

/** Where a chapter stands in its course: every chapter's title in order, and its own index. */
export interface CoursePosition {
  outline: string[];
  index: number;
}

export async function writeCourseChapter(
  svc: WritingDeps,
  course: CourseRow,
  chapter: PlannedChapter,
  scope: ChapterScope,
  meter: UsageMeter,
  position: CoursePosition,
): Promise<WrittenChapter> {
  const own = chapter.parts && chapter.parts.length > 0 ? chapter.parts : null;
  // The chapter's own sections are read in the engine's thread (section-reads.ts): the whole source is read for them.
  const passages: SourcedPassage[] = own
    ? await svc.engineThread.sectionPassages({ database: svc.databaseAddress, parts: own })
    : await documentPassages(svc, course, chapter, scope);
  if (course.search_enabled && svc.cfg.searxngUrl) {
    const results = await webSearch(svc, `${course.title}: ${chapter.title}`, WEB_RESULTS_PER_CHAPTER);
    passages.push(...webPassages(results));
  }
  const input: ChapterInput = {
    courseTitle: course.title,
    chapterTitle: chapter.title,
    objectives: chapter.objectives,
    learningGoal: course.learning_goal ?? undefined,
    passages,
    sectionDepth: own ? own[0]!.depth : undefined,
    courseOutline: position.outline,
    chapterIndex: position.index,
    meter,
    model: course.model ?? undefined,
  };
  const step = { course_id: course.id, step: "chapter", chapter: chapter.title };
  const { value: draft, generatedBy } = await withFallback(
    svc,
    step,
    () => withModelRetries(svc, step, () => writeChapter(svc.llm, input)),
    () => writeChapter(svc.llm, { ...input, model: EXTRACTIVE_MODEL }),
  );
  // Stemming every paragraph against every passage takes a long chapter's tens of milliseconds: in the thread.
  const grounded = await svc.engineThread.groundParagraphs({
    content: draft.content,
    passages: passages.map((p) => ({ id: p.id, text: p.text })),
  });
  const cited = new Set(draft.citations);
  // Sources are the passages that ground a paragraph, or that the model cited; a chapter that
  // grounds and cites nothing still lists what it was given to read.
  const used = passages.filter((p) => grounded.get(p.id)!.length > 0 || cited.has(p.id));
  return {
    draft,
    generatedBy,
    sources: (used.length > 0 ? used : passages).map((p) => toSource(p, grounded.get(p.id) ?? [])),
  };
}
