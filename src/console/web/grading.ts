/**
 * Grading of quiz and exam answers by the server: each submission is an attempt it grades and
 * keeps (the learner's progress counts it). Answers are a choice index, text, or null for a blank.
 */
import { post } from "./api.ts";

export interface Question {
  type: string;
  prompt: string;
  choices?: string[];
}

export type Answer = number | string | null;

export interface GradedAnswer {
  correct: boolean;
  /** The right answer in words. */
  expected_text: string;
  explanation: string;
  rubric?: { point: string; met: string; comment: string }[];
}

export interface Attempt {
  score: number;
  total: number;
  results: GradedAnswer[];
}

/** A chapter quiz (chapter's order_index) or the exam of `examSize` questions. */
export type QuizSource = { chapter: number } | { examSize: number };

export function submitAttempt(courseId: string, source: QuizSource, answers: Answer[]): Promise<Attempt> {
  return "chapter" in source
    ? post<Attempt>(`/v2/courses/${courseId}/chapters/${source.chapter}/quiz-attempts`, { answers })
    : post<Attempt>(`/v2/courses/${courseId}/exam-attempts`, { exam_size: source.examSize, answers });
}

/** Score in words: free-text answers may earn part of a point. */
export function scoreText(a: Attempt): string {
  const score = Math.round(a.score * 10) / 10;
  return `Score: ${score} / ${a.total} (${a.total ? Math.round((100 * a.score) / a.total) : 0}%)`;
}
