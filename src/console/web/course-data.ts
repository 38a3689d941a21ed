/** The course record as GET /v2/courses/{id} returns it. */
import { get } from "./api.ts";
import type { Question } from "./grading.ts";

export interface Source {
  document_id: string | null;
  filename: string | null;
  page: number | null;
  timestamp_seconds: number | null;
  url: string | null;
  title: string | null;
  excerpt: string | null;
  paragraphs: number[];
}

export interface Chapter {
  id: string;
  order_index: number;
  title: string;
  content: string;
  key_concepts: string[];
  quiz: { questions: Question[] };
  sources: Source[];
  /** "extractive" when the built-in engine wrote it: in a model's course, because the model failed it (LLM_FALLBACK). */
  generated_by: "model" | "extractive";
}

export interface Course {
  id: string;
  title: string;
  description: string | null;
  status: string;
  /** The engine the course was generated with. */
  engine: string | null;
  error: { code: string; message: string } | null;
  chapters: Chapter[];
}

export const loadCourse = (id: string) => get<Course>(`/v2/courses/${encodeURIComponent(id)}`);
