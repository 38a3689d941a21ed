/**
 * One chapter: passages retrieved from the course's sources (and web results when search is on),
 * written by the model (retried after transient failures), and the cited passages
 * turned into the chapter's sources.
 */
import { type ChapterDraft, type Passage, type UsageMeter, writeChapter } from "../llm/artefacts.ts";
import { search } from "../retrieval/index.ts";
import type { Services } from "../services.ts";
import { sectionTitle } from "../util.ts";
import { withModelRetries } from "./model-retry.ts";
import type { ChapterSourceRecord, CourseRow, PlannedChapter } from "./store.ts";
import { webSearch, type WebResult } from "./web-search.ts";
import { TEACHING_ROLE_LIST } from "../ingest/document.ts";

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

async function documentPassages(svc: Services, course: CourseRow, chapter: PlannedChapter, scope: ChapterScope): Promise<SourcedPassage[]> {
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
  return ordered
    .filter((h) => h.score >= scope.minScore)
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
  return results.map((r, i) => ({ id: `web-${i + 1}`, text: `${r.title}\n${r.content}`, url: r.url, title: r.title, heading: r.title }));
}

function toSource(p: SourcedPassage): ChapterSourceRecord {
  const excerpt = p.text.length > EXCERPT_CHARS ? `${p.text.slice(0, EXCERPT_CHARS)}…` : p.text;
  return {
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
  sources: ChapterSourceRecord[];
}

export async function writeCourseChapter(
  svc: Services,
  course: CourseRow,
  chapter: PlannedChapter,
  scope: ChapterScope,
  meter: UsageMeter,
): Promise<WrittenChapter> {
  const passages = await documentPassages(svc, course, chapter, scope);
  if (course.search_enabled && svc.cfg.searxngUrl) {
    const results = await webSearch(svc, `${course.title}: ${chapter.title}`, WEB_RESULTS_PER_CHAPTER);
    passages.push(...webPassages(results));
  }
  const draft = await withModelRetries(svc, { course_id: course.id, step: "chapter", chapter: chapter.title }, () =>
    writeChapter(svc.llm, {
      courseTitle: course.title,
      chapterTitle: chapter.title,
      objectives: chapter.objectives,
      learningGoal: course.learning_goal ?? undefined,
      passages,
      meter,
      model: course.model ?? undefined,
    }),
  );
  const byId = new Map(passages.map((p) => [p.id, p]));
  const cited = draft.citations.map((id) => byId.get(id)).filter((p): p is SourcedPassage => p !== undefined);
  // A chapter that cites nothing still lists what it was given to read: those passages grounded it.
  return { draft, sources: (cited.length > 0 ? cited : passages).map(toSource) };
}
