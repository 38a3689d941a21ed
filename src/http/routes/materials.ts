/** Study materials and course Q&A: study guide, notes, flashcards, exam, ask. */
import { Elysia, t } from "elysia";
import { loadCourseOf } from "../../courses/read.ts";
import { askCourse } from "../../materials/ask.ts";
import { generateExam } from "../../materials/exam.ts";
import { generateFlashcards } from "../../materials/flashcards.ts";
import { generateNotes, latestNotes } from "../../materials/notes.ts";
import { viewStudyGuide } from "../../materials/study-guide.ts";
import type { Services } from "../../services.ts";
import { authOf } from "../context.ts";
import { CourseIdParams, errors, JsonInteger, modelFailures, UserHeaders } from "../schemas.ts";
import { ownerOf } from "../user.ts";

const GeneratedBy = t.Union([t.Literal("model"), t.Literal("extractive")], {
  description:
    "Who wrote it: the configured model, or the built-in extractive engine (no model, model_key extractive, or with LLM_FALLBACK=extractive a material the model failed, kept under the model asked for)",
});

const Maker = {
  engine: t.String({ description: "Engine that made it: ollama, openai or extractive" }),
  model: t.String({ description: 'Model name ("extractive" for the built-in engine); part of the cache key' }),
  generated_by: GeneratedBy,
  created_at: t.String(),
};

const StudyGuide = t.Object({
  title: t.String(),
  sections: t.Array(
    t.Union([
      t.Object({ heading: t.String(), items: t.Array(t.Object({ term: t.String(), definition: t.String() })) }),
      t.Object({ heading: t.String(), bullets: t.Array(t.String()) }),
      t.Object({ heading: t.String(), body: t.String() }),
    ]),
  ),
});

const ExamQuestion = t.Union([
  t.Object({
    type: t.Literal("mcq"),
    prompt: t.String(),
    choices: t.Array(t.String()),
    answer: t.Integer(),
    explanation: t.String(),
  }),
  t.Object({ type: t.Literal("short_answer"), prompt: t.String(), answer: t.String(), rubric: t.Array(t.String()) }),
  t.Object({ type: t.Literal("worked_problem"), prompt: t.String(), steps: t.Array(t.String()), answer: t.String() }),
]);

const ModelKey = t.String({
  minLength: 1,
  maxLength: 200,
  description: 'A model name offered by the server, or "extractive"',
});
const NotesGoal = t.Union([t.Literal("exams"), t.Literal("interviews"), t.Literal("practical")]);
const NotesStyle = t.Union([t.Literal("clear_structured"), t.Literal("narrative"), t.Literal("concise")]);
const TutorTone = t.Union([t.Literal("professor"), t.Literal("mentor"), t.Literal("peer")]);
const NotesOptions = t.Object({ learning_goal: NotesGoal, learning_style: NotesStyle, tutor_tone: TutorTone });
const StoredNotes = t.Object({
  course_id: t.String(),
  notes: t.String({ description: "Markdown" }),
  options: NotesOptions,
  ...Maker,
});

const MODEL_DOWN = "503 when the model is unavailable (the error's details.reason says why).";
const NEEDS_COMPLETED = "409 (COURSE_GENERATING / COURSE_NOT_COMPLETED) while the course is not completed.";

export const materialRoutes = (svc: Services) => {
  const db = svc.sql;
  const course = async (request: Request, id: string) => loadCourseOf(db, await ownerOf(svc, request), id);

  return new Elysia({ name: "materials" })
    .get(
      "/v2/courses/:course_id/study-guide",
      async ({ request, params }) => viewStudyGuide(svc, await course(request, params.course_id)),
      {
        headers: UserHeaders,
        params: CourseIdParams,
        response: {
          200: t.Object({
            study_guide: t.Nullable(StudyGuide),
            message: t.Optional(t.String()),
            engine: t.Optional(Maker.engine),
            model: t.Optional(Maker.model),
            generated_by: t.Optional(GeneratedBy),
            created_at: t.Optional(t.String()),
          }),
          ...errors(
            "NOT_FOUND",
            "COURSE_GENERATING",
            "COURSE_NOT_COMPLETED",
            "COURSE_EMPTY",
            modelFailures("materials"),
          ),
        },
        detail: {
          summary: "The course's study guide",
          description:
            "Built once when the course completes and never regenerated. While the course is generating (or after it failed), study_guide is null and message says why.",
          tags: ["materials"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/generate-notes",
      async ({ request, params, body }) => {
        const owner = await ownerOf(svc, request);
        const { notes, cached } = await generateNotes(svc, await loadCourseOf(db, owner, params.course_id), {
          modelKey: body?.model_key,
          learning_goal: body?.learning_goal ?? "exams",
          learning_style: body?.learning_style ?? "clear_structured",
          tutor_tone: body?.tutor_tone ?? "professor",
          payer: { auth: authOf(request), userId: owner.userId },
        });
        return {
          course_id: notes.course_id,
          notes: notes.notes,
          cached,
          options: notes.options,
          engine: notes.engine,
          model: notes.model,
          generated_by: notes.generated_by,
          created_at: notes.created_at,
        };
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Optional(
          t.Object({
            model_key: t.Optional(ModelKey),
            learning_goal: t.Optional(NotesGoal),
            learning_style: t.Optional(NotesStyle),
            tutor_tone: t.Optional(TutorTone),
          }),
        ),
        response: {
          200: t.Object({
            course_id: t.String(),
            notes: t.String(),
            cached: t.Boolean(),
            options: NotesOptions,
            ...Maker,
          }),
          ...errors("NOT_FOUND", "COURSE_GENERATING", "COURSE_NOT_COMPLETED", modelFailures("materials")),
        },
        detail: {
          summary: "Generate study notes (charged 0.05 USD on first generation)",
          description: `Markdown notes: introduction, one section per chapter, conclusion. Cached per (course, model, learning_goal, learning_style, tutor_tone); a cached repeat is free. ${NEEDS_COMPLETED} ${MODEL_DOWN}`,
          tags: ["materials"],
        },
      },
    )
    .get(
      "/v2/courses/:course_id/notes",
      async ({ request, params, query }) => latestNotes(db, (await course(request, params.course_id)).id, query),
      {
        headers: UserHeaders,
        params: CourseIdParams,
        query: t.Object({
          learning_goal: t.Optional(NotesGoal),
          learning_style: t.Optional(NotesStyle),
          tutor_tone: t.Optional(TutorTone),
        }),
        response: { 200: StoredNotes, ...errors("NOT_FOUND", "NOTES_NOT_FOUND") },
        detail: {
          summary: "The stored study notes",
          description:
            "The most recently generated notes, optionally narrowed to the options they were made with. 404 NOTES_NOT_FOUND when none match. Free.",
          tags: ["materials"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/generate-flashcards",
      async ({ request, params, body }) =>
        generateFlashcards(svc, await course(request, params.course_id), { modelKey: body?.model_key }),
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Optional(t.Object({ model_key: t.Optional(ModelKey) })),
        response: {
          200: t.Object({
            flashcards: t.Object({
              deck_title: t.String(),
              cards: t.Array(t.Object({ front: t.String(), back: t.String() })),
              total: t.Integer(),
            }),
            from_cache: t.Boolean(),
            ...Maker,
          }),
          ...errors("NOT_FOUND", "COURSE_GENERATING", "COURSE_NOT_COMPLETED", modelFailures("materials")),
        },
        detail: {
          summary: "Generate the flashcard deck",
          description: `Cards cover every chapter's key concepts, without duplicate fronts. Cached per (course, model): another model_key gives a fresh deck. ${NEEDS_COMPLETED} ${MODEL_DOWN}`,
          tags: ["materials"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/generate-exam",
      async ({ request, params, body }) =>
        generateExam(svc, await course(request, params.course_id), {
          examSize: body?.exam_size ?? 30,
          modelKey: body?.model_key,
        }),
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Optional(
          t.Object({
            exam_size: t.Optional(JsonInteger({ minimum: 10, maximum: 50, default: 30 })),
            model_key: t.Optional(ModelKey),
          }),
        ),
        response: {
          200: t.Object({
            exam: t.Object({
              title: t.String(),
              instructions: t.String(),
              questions: t.Array(ExamQuestion),
              total: t.Integer(),
            }),
            from_cache: t.Boolean(),
            ...Maker,
          }),
          ...errors(
            "NOT_FOUND",
            "COURSE_GENERATING",
            "COURSE_NOT_COMPLETED",
            "EXAM_SIZE_UNAVAILABLE",
            modelFailures("materials"),
          ),
        },
        detail: {
          summary: "Generate an exam of exactly exam_size questions",
          description: `mcq and short_answer questions (plus worked_problem for quantitative chapters), spread across chapters, no duplicate prompts; written in parallel batches. Cached per (course, model, exam_size); concurrent identical requests share one generation. Can take 60-90 s for 50 questions on a local model. ${NEEDS_COMPLETED} ${MODEL_DOWN}`,
          tags: ["materials"],
        },
      },
    )
    .post(
      "/v2/courses/:course_id/ask",
      async ({ request, params, body }) => {
        const owner = await ownerOf(svc, request);
        return askCourse(svc, await loadCourseOf(db, owner, params.course_id), {
          question: body.question,
          auth: authOf(request),
          userId: owner.userId,
        });
      },
      {
        headers: UserHeaders,
        params: CourseIdParams,
        body: t.Object({ question: t.String({ minLength: 1, maxLength: 2000 }) }),
        response: {
          200: t.Object({
            answer: t.String(),
            sources: t.Array(t.Object({ text: t.String(), score: t.Number({ description: "Cosine similarity" }) })),
            low_confidence: t.Boolean({
              description:
                "True when the sources do not answer the question, and then only: the answer is the one sentence saying the course does not answer it (the built-in embedder scores answering passages 0.2-0.5, so a score under 0.5 alone does not make an answer low-confidence)",
            }),
            engine: Maker.engine,
            model: Maker.model,
          }),
          ...errors("NOT_FOUND", "TEST_USAGE_LIMIT", "EMBEDDER_UNAVAILABLE"),
        },
        detail: {
          summary: "Ask a question about the course",
          description:
            "Retrieval over the course's chapters and the documents it was built from. Counts toward a test key's 50 queries a month (403 TEST_USAGE_LIMIT beyond). With the model unavailable, the answer is built extractively from the passages.",
          tags: ["materials"],
        },
      },
    );
};
