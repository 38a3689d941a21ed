/** Exam attempts against a cached exam: mcq exactly, free-text answers against their rubric by the exam's grader. */
import type { CourseHead, CourseOwner } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { Llm } from "../llm/types.ts";
import { asUnavailable } from "../materials/engine.ts";
import { newId } from "../util.ts";
import { checkAnswers } from "./answers.ts";
import { courseExam, type StoredExam } from "./decks.ts";
import { graderFor } from "./graders.ts";
import { type Answer, gradeAnswers, type QuestionResult } from "./grading.ts";
import { percent } from "./share.ts";
import type { ProgressStores } from "./stores.ts";

/** Stores a graded exam attempt and who marked it; answers its id. */
export async function saveExamAttempt(
  db: Sql,
  owner: CourseOwner,
  at: { courseId: string; exam: Pick<StoredExam, "id" | "exam_size" | "model"> },
  attempt: {
    answers: Answer[];
    graded: { score: number; total: number; results: QuestionResult[] };
    grader: { engine: string; model: string };
  },
  createdAt: string,
): Promise<string> {
  const id = newId();
  const { exam } = at;
  const { graded, grader } = attempt;
  await db.run(
    sql`INSERT INTO exam_attempts (id, tenant_id, user_id, course_id, exam_id, exam_size, exam_model, score, total, answers, results, grader_engine, grader_model, created_at)
        VALUES (${id}, ${owner.tenantId}, ${owner.userId}, ${at.courseId}, ${exam.id}, ${exam.exam_size}, ${exam.model}, ${graded.score}, ${graded.total},
                ${JSON.stringify(attempt.answers)}, ${JSON.stringify(graded.results)}, ${grader.engine}, ${grader.model}, ${createdAt})`,
  );
  return id;
}

export async function submitExamAttempt(
  deps: ProgressStores & { llm: Llm },
  owner: CourseOwner,
  course: CourseHead,
  input: { examSize: number; answers: Answer[]; modelKey?: string },
  now: Date,
) {
  const exam = await courseExam(deps.db, course.id, input.examSize, input.modelKey);
  checkAnswers(exam.questions, input.answers, "exam");
  const grader = graderFor(deps.llm, exam.model);
  // A model that cannot mark is the materials' 503; nothing is stored, so the learner can send the answers again.
  const graded = await gradeAnswers(exam.questions, input.answers, grader).catch((err: unknown) => {
    throw asUnavailable(err);
  });
  const id = await saveExamAttempt(
    deps.db,
    owner,
    { courseId: course.id, exam },
    { answers: input.answers, graded, grader },
    now.toISOString(),
  );
  return readExamAttempt(deps.db, owner, course.id, id);
}

/** One of the learner's stored exam attempts, as it was graded. */
export async function readExamAttempt(db: Sql, owner: CourseOwner, courseId: string, attemptId: string) {
  const row = await db.get<{
    exam_size: number;
    exam_model: string;
    score: number;
    total: number;
    results: string;
    grader_engine: string;
    grader_model: string;
    created_at: string;
  }>(
    sql`SELECT exam_size, exam_model, score, total, results, grader_engine, grader_model, created_at FROM exam_attempts
         WHERE id = ${attemptId} AND user_id = ${owner.userId} AND course_id = ${courseId}`,
  );
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
