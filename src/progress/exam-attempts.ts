/** Exam attempts against a cached exam: mcq exactly, free-text answers against their rubric by the exam's grader. */
import type { Database } from "bun:sqlite";
import type { CourseHead, CourseOwner } from "../courses/read.ts";
import { AppError } from "../errors.ts";
import type { Llm } from "../llm/types.ts";
import { asUnavailable } from "../materials/engine.ts";
import { newId } from "../util.ts";
import { checkAnswers } from "./answers.ts";
import { courseExam } from "./decks.ts";
import { graderFor } from "./graders.ts";
import { type Answer, gradeAnswers, type QuestionResult } from "./grading.ts";
import { percent } from "./share.ts";

export async function submitExamAttempt(
  deps: { sqlite: Database; llm: Llm },
  owner: CourseOwner,
  course: CourseHead,
  input: { examSize: number; answers: Answer[]; modelKey?: string },
  now: Date,
) {
  const exam = courseExam(deps.sqlite, course.id, input.examSize, input.modelKey);
  checkAnswers(exam.questions, input.answers, "exam");
  const grader = graderFor(deps.llm, exam.model);
  // A model that cannot mark is the materials' 503; nothing is stored, so the learner can send the answers again.
  const graded = await gradeAnswers(exam.questions, input.answers, grader).catch((err: unknown) => {
    throw asUnavailable(err);
  });
  const id = newId();
  const createdAt = now.toISOString();
  deps.sqlite.run(
    `INSERT INTO exam_attempts (id, tenant_id, user_id, course_id, exam_id, exam_size, exam_model, score, total, answers, results, grader_engine, grader_model, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      owner.tenantId,
      owner.userId,
      course.id,
      exam.id,
      exam.exam_size,
      exam.model,
      graded.score,
      graded.total,
      JSON.stringify(input.answers),
      JSON.stringify(graded.results),
      grader.engine,
      grader.model,
      createdAt,
    ],
  );
  return readExamAttempt(deps.sqlite, owner, course.id, id);
}

/** One of the learner's stored exam attempts, as it was graded. */
export function readExamAttempt(sqlite: Database, owner: CourseOwner, courseId: string, attemptId: string) {
  const row = sqlite
    .query<
      {
        exam_size: number;
        exam_model: string;
        score: number;
        total: number;
        results: string;
        grader_engine: string;
        grader_model: string;
        created_at: string;
      },
      [string, string, string]
    >(
      `SELECT exam_size, exam_model, score, total, results, grader_engine, grader_model, created_at FROM exam_attempts
        WHERE id = ? AND user_id = ? AND course_id = ?`,
    )
    .get(attemptId, owner.userId, courseId);
  if (!row) throw new AppError("ATTEMPT_NOT_FOUND", "Exam attempt not found");
  return {
    attempt_id: attemptId,
    course_id: courseId,
    exam_size: row.exam_size,
    exam_model: row.exam_model,
    score: row.score,
    total: row.total,
    percent: percent(row.score, row.total),
    results: JSON.parse(row.results) as QuestionResult[],
    grader: { engine: row.grader_engine, model: row.grader_model },
    created_at: row.created_at,
  };
}
