import { type QuizQuestionRow, chapterQuiz as quizRows } from "../courses/chapters.ts";
import type { CourseHead, CourseOwner } from "../courses/read.ts";
import { type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { ExamQuestion } from "../llm/artefacts.ts";
import { newId } from "../util.ts";
import { checkAnswers } from "./answers.ts";
import { writtenChapter } from "./chapters.ts";
import { builtinGrader } from "./graders.ts";
import { type Answer, gradeAnswers, type QuestionResult } from "./grading.ts";
import type { ProgressStores } from "./stores.ts";

/** A stored quiz question as a gradable one; a free-text quiz question is marked against its answer as the one rubric point. */
function asQuestion(r: QuizQuestionRow): ExamQuestion {
  const answer = JSON.parse(r.answer) as number | string;
  if (r.type === "mcq") {
    return {
      type: "mcq",
      prompt: r.prompt,
      choices: JSON.parse(r.choices) as string[],
      answer: answer as number,
      explanation: r.explanation ?? "",
    };
  }
  return { type: "short_answer", prompt: r.prompt, answer: String(answer), rubric: [String(answer)] };
}

export async function chapterQuiz(db: Sql, chapterId: string): Promise<ExamQuestion[]> {
  return (await quizRows(db, chapterId)).map(asQuestion);
}

/** Stores a graded quiz attempt with the questions it was marked against; answers its id. */
export async function saveQuizAttempt(
  db: Sql,
  owner: CourseOwner,
  at: { courseId: string; chapterId: string; orderIndex: number },
  attempt: {
    questions: ExamQuestion[];
    answers: Answer[];
    graded: { score: number; total: number; results: QuestionResult[] };
  },
  createdAt: string,
): Promise<string> {
  const id = newId();
  const { questions, answers, graded } = attempt;
  await db.run(
    sql`INSERT INTO quiz_attempts (id, tenant_id, user_id, course_id, chapter_id, order_index, score, total, questions, answers, results, created_at)
        VALUES (${id}, ${owner.tenantId}, ${owner.userId}, ${at.courseId}, ${at.chapterId}, ${at.orderIndex}, ${graded.score}, ${graded.total},
                ${JSON.stringify(questions)}, ${JSON.stringify(answers)}, ${JSON.stringify(graded.results)}, ${createdAt})`,
  );
  return id;
}

export async function submitQuizAttempt(
  stores: ProgressStores,
  owner: CourseOwner,
  course: CourseHead,
  orderIndex: number,
  answers: Answer[],
  now: Date,
) {
  const chapter = await writtenChapter(stores.db, course.id, orderIndex);
  const questions = await chapterQuiz(stores.db, chapter.id);
  if (questions.length === 0) throw new AppError("QUIZ_NOT_FOUND", `Chapter ${orderIndex} has no quiz`);
  checkAnswers(questions, answers, "quiz");
  const graded = await gradeAnswers(questions, answers, builtinGrader);
  const createdAt = now.toISOString();
  const id = await saveQuizAttempt(
    stores.db,
    owner,
    { courseId: course.id, chapterId: chapter.id, orderIndex },
    { questions, answers, graded },
    createdAt,
  );
  return {
    attempt_id: id,
    course_id: course.id,
    order_index: orderIndex,
    score: graded.score,
    total: graded.total,
    results: graded.results,
    created_at: createdAt,
  };
}

/** One of the learner's stored attempts at a chapter's quiz, as it was graded. */
export async function readQuizAttempt(
  db: Sql,
  owner: CourseOwner,
  courseId: string,
  orderIndex: number,
  attemptId: string,
) {
  const row = await db.get<{ score: number; total: number; results: string; created_at: string }>(
    sql`SELECT score, total, results, created_at FROM quiz_attempts
         WHERE id = ${attemptId} AND user_id = ${owner.userId} AND course_id = ${courseId} AND order_index = ${orderIndex}`,
  );
  if (!row) throw new AppError("ATTEMPT_NOT_FOUND", "Quiz attempt not found");
  return {
    attempt_id: attemptId,
    course_id: courseId,
    order_index: orderIndex,
    score: row.score,
    total: row.total,
    results: JSON.parse(row.results) as QuestionResult[],
    created_at: row.created_at,
  };
}
