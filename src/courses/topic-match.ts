/**
 * A topic course draws on the learner's own indexed documents when they cover the topic (see
 * topic-coverage.ts): the course is grounded in the sections that do. With no model configured,
 * they are the only possible material, so a topic they do not cover is refused.
 */
import type { Sql } from "../db/sql.ts";
import { readyIndexCount } from "../documents/lookups.ts";
import { AppError } from "../errors.ts";
import { TEACHING_ROLE_LIST } from "../ingest/document.ts";
import type { Passage } from "../llm/artefacts.ts";
import { chunksWithAnyWord } from "../retrieval/index.ts";
import { COVERAGE_THRESHOLD, type CoverageChunk, coversTopic, neighbourhoods, topicTerms } from "./topic-coverage.ts";

/** Passages the outline is planned from: the centres of the best-covering neighbourhoods. */
const TOPIC_PASSAGES = 24;

/**
 * Chunks holding a topic term read at most, best BM25 first: bounds the work for a learner with a
 * large library, where the chunks past this many mention the topic's terms least.
 */
const CANDIDATES = 2_000;

export interface TopicMatch {
  /** The documents with a section covering the topic. */
  documentIds: string[];
  /** Their covering sections' passages, in document order. */
  passages: Passage[];
  /** Ready documents of the learner that were searched. */
  searched: number;
  /** Coverage (0–1) of the best neighbourhood: the one that covers the topic, else the closest. */
  coverage: number;
  /** The topic's words none of the documents uses. */
  missing: string[];
  /** Whether two of the topic's words are used side by side there. */
  together: boolean;
}

/**
 * The learner's sections that cover the topic, read on the connection given: the engine thread's
 * (in-thread.ts's matchTopic), as it weighs every chunk that holds a topic term (up to CANDIDATES).
 */
export async function readTopicMatch(
  db: Sql,
  owner: { tenantId: string; userId: string },
  topic: string,
): Promise<TopicMatch> {
  const searched = await readyIndexCount(db, owner.tenantId, owner.userId);
  const terms = await topicTerms(topic);
  const none = {
    documentIds: [],
    passages: [],
    searched,
    coverage: 0,
    missing: terms.map((t) => t.word),
    together: false,
  };
  if (searched === 0 || terms.length === 0) return none;

  const rows = await chunksWithAnyWord(
    db,
    owner,
    terms.map((t) => t.word),
    TEACHING_ROLE_LIST,
    CANDIDATES,
  );
  const bySeq = new Map(rows.map((r) => [r.seq, r]));
  const chunks: CoverageChunk[] = rows.map((r) => ({
    seq: r.seq,
    documentId: r.document_id,
    position: r.position,
    heading: r.context,
    text: r.text,
  }));
  const ranked = neighbourhoods(terms, chunks);
  const best = ranked[0];
  if (!best) return none;
  const covering = ranked.filter(coversTopic);

  const picked = new Map<number, number>();
  for (const n of covering) {
    if (picked.size >= TOPIC_PASSAGES) break;
    if (!picked.has(n.centre.seq)) picked.set(n.centre.seq, n.coverage);
  }
  // Read in document order, so the outline follows the sections as they are written.
  const passages = [...picked]
    .map(([seq, coverage]) => ({ row: bySeq.get(seq)!, coverage }))
    .sort((a, b) => a.row.document_id.localeCompare(b.row.document_id) || a.row.position - b.row.position)
    .map(({ row, coverage }): Passage => {
      const headingPath = JSON.parse(row.heading_path) as string[];
      return {
        id: row.id,
        text: row.text,
        documentId: row.document_id,
        filename: row.filename,
        page: row.page ?? row.slide ?? null,
        heading: headingPath.length > 0 ? headingPath.join(" > ") : null,
        headingPath,
        score: Math.round(coverage * 1000) / 1000,
      };
    });
  return {
    documentIds: [...new Set(covering.map((n) => n.documentId))],
    passages,
    searched,
    coverage: Math.round(best.coverage * 1000) / 1000,
    missing: terms.filter((t) => ranked.every((n) => n.missing.includes(t.word))).map((t) => t.word),
    together: best.together,
  };
}

const MODEL_HELP =
  "Start Ollama (OLLAMA_HOST, LLM_MODEL) or an OpenAI-compatible server (OPENAI_BASE_URL) and restart with LLM_PROVIDER=auto, " +
  "or build the course from files with POST /v2/courses/generate-from-files";

/**
 * Why a topic cannot be built with no model: the learner has no documents at all (503, a model is
 * what is missing), or has some that do not cover it (422, the topic is the problem).
 */
export function refuseTopic(topic: string, match: TopicMatch): AppError {
  const quoted = `"${topic.slice(0, 80)}"`;
  if (match.searched === 0) {
    return new AppError(
      "MODEL_NOT_CONFIGURED",
      `No language model is configured, and you have no indexed documents to build ${quoted} from. ${MODEL_HELP}, or index documents on the topic first with POST /v2/documents/process.`,
    );
  }
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const gap =
    match.missing.length > 0
      ? `they never mention ${match.missing.map((w) => `"${w}"`).join(", ")}`
      : match.coverage >= COVERAGE_THRESHOLD && !match.together
        ? "its words appear in them, but are never used together"
        : `no section of them covers more than ${pct(match.coverage)} of its terms, weighted by rarity; ${pct(COVERAGE_THRESHOLD)} is needed`;
  return new AppError(
    "TOPIC_NOT_COVERED",
    `Your indexed documents do not cover ${quoted} (${gap}), and with no language model configured a topic course can only be built from them. ` +
      `Index documents on the topic with POST /v2/documents/process, or configure a model: ${MODEL_HELP}.`,
    {
      field: "topic",
      coverage: match.coverage,
      required_coverage: Math.round(COVERAGE_THRESHOLD * 1000) / 1000,
      missing_terms: match.missing,
      terms_used_together: match.together,
      documents_searched: match.searched,
    },
  );
}
