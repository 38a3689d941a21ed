/** Exam attempts against a cached exam: mcq exactly, free-text answers against their rubric by the exam's grader. */
import type { Database } from "bun:sqlite";
import type { Llm } from "../llm/types.ts";
import type { CourseHead, CourseOwner } from "../materials/course-content.ts";
import { asUnavailable } from "../materials/engine.ts";
import { newId } from "../util.ts";
import { checkAnswers } from "./answers.ts";
import { courseExam } from "./decks.ts";
import { graderFor } from "./graders.ts";
import { gradeAnswers, type Answer } from "./grading.ts";

export async function submitExamAttempt(
  deps: { sqlite: Database; llm: Llm },
  owner: CourseOwner,
  course: CourseHead,
  input: { examSize: number; answers: Answer[]; modelKey?: string },
  now = new Date(),
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
    [id, owner.tenantId, owner.userId, course.id, exam.id, exam.exam_size, exam.model, graded.score, graded.total, JSON.stringify(input.answers), JSON.stringify(graded.results), grader.engine, grader.model, createdAt],
  );
  return {
    attempt_id: id,
    course_id: course.id,
    exam_size: exam.exam_size,
    exam_model: exam.model,
    score: graded.score,
    total: graded.total,
    percent: Math.round((graded.score / Math.max(1, graded.total)) * 100),
    results: graded.results,
    grader: { engine: grader.engine, model: grader.model },
    created_at: createdAt,
  };
}
