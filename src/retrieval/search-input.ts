/** What a search asks for, the same on both engines (SQLite's search.ts, PostgreSQL's postgres-search.ts). */
import type { BlockRole } from "../ingest/document.ts";
import type { FusionParams } from "./fusion.ts";

export interface SearchScope {
  documentIds?: string[];
  spaceId?: string;
  /** The course's chapters and the documents linked to it in course_documents. */
  courseId?: string;
}

export interface SearchInput {
  tenantId: string;
  /** When given, only this learner's chunks. */
  userId?: string | null;
  /** The parts are alternatives (a chunk in any of them is searched); an empty scope means every document of the owner. */
  scope: SearchScope;
  query: string;
  topK: number;
  /** Both rankings fused (default), or one alone (the benchmark compares them). */
  mode?: "hybrid" | "vector" | "lexical";
  fusion?: FusionParams;
  /** Candidates taken from each ranking before fusion; default max(4 × topK, 40). */
  candidates?: number;
  /** Only chunks of these roles (e.g. body text without references); every role when omitted. */
  roles?: readonly BlockRole[];
}
