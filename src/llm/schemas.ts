/**
 * One TypeBox schema per artefact. The same object is sent to the model (Ollama `format`, OpenAI
 * `response_format`) and used to validate its reply, so what we ask for is what we accept.
 */
import { type Static, Type as T } from "@sinclair/typebox";

const Text = (minLength = 1, maxLength?: number) => T.String({ minLength, ...(maxLength ? { maxLength } : {}) });

/** The questions a chapter quiz asks for; fewer are kept when no more pass the item checks (#29). */
export const QUIZ_SIZE = 5;

export const McqQuestion = T.Object({
  type: T.Literal("mcq"),
  prompt: Text(5),
  choices: T.Array(Text(1), { minItems: 3, maxItems: 5 }),
  answer: T.Integer({ minimum: 0, maximum: 4, description: "Zero-based index of the correct choice" }),
  explanation: Text(5),
});
export type McqQuestion = Static<typeof McqQuestion>;

export const ShortAnswerQuestion = T.Object({
  type: T.Literal("short_answer"),
  prompt: Text(5),
  answer: Text(3),
  rubric: T.Array(Text(3), { minItems: 1, maxItems: 5 }),
});
export type ShortAnswerQuestion = Static<typeof ShortAnswerQuestion>;

export const WorkedProblemQuestion = T.Object({
  type: T.Literal("worked_problem"),
  prompt: Text(5),
  steps: T.Array(Text(3), { minItems: 1, maxItems: 8 }),
  answer: Text(1),
});
export type WorkedProblemQuestion = Static<typeof WorkedProblemQuestion>;

export const ExamQuestion = T.Union([McqQuestion, ShortAnswerQuestion, WorkedProblemQuestion]);
export type ExamQuestion = Static<typeof ExamQuestion>;
export type ExamQuestionType = ExamQuestion["type"];

const questionSchemas = { mcq: McqQuestion, short_answer: ShortAnswerQuestion, worked_problem: WorkedProblemQuestion };

/** A batch of exactly `count` exam questions of the given types. */
export const examBatchSchema = (count: number, types: ExamQuestionType[]) => {
  const items = types.map((t) => questionSchemas[t]);
  return T.Object({
    questions: T.Array(items.length === 1 ? items[0]! : T.Union(items), { minItems: count, maxItems: count }),
  });
};

export const Quiz = T.Object({ questions: T.Array(McqQuestion, { minItems: 1, maxItems: 10 }) });
export type Quiz = Static<typeof Quiz>;

export const outlineSchema = (numChapters: number) =>
  T.Object({
    title: Text(3, 200),
    description: Text(10, 1000),
    chapters: T.Array(
      T.Object({
        title: Text(3, 200),
        objectives: T.Array(Text(5, 300), { minItems: 1, maxItems: 6 }),
      }),
      { minItems: numChapters, maxItems: numChapters },
    ),
  });
export type Outline = Static<ReturnType<typeof outlineSchema>> & { slug?: string };

export const ChapterSchema = T.Object({
  content: Text(200),
  key_concepts: T.Array(Text(2, 120), { minItems: 3, maxItems: 12 }),
  quiz: T.Object({ questions: T.Array(McqQuestion, { minItems: 3, maxItems: QUIZ_SIZE }) }),
  citations: T.Array(T.String(), { description: "Ids of the source passages the content relies on" }),
});
export type ChapterDraft = Static<typeof ChapterSchema> & {
  /** Passage id -> indexes of the content's paragraphs it grounds, when the writer said so itself. */
  grounding?: Record<string, number[]>;
};

/**
 * What a model is asked for: sections of paragraphs, each paragraph citing the short handles
 * (`S1`, `S2`…) of the passages it is based on. The schema allows only the handles given, and at
 * least one per paragraph; with no passages, paragraphs cite nothing.
 */
export const modelChapterSchema = (handles: string[]) => {
  const paragraph =
    handles.length > 0
      ? T.Object({ text: Text(20), sources: T.Array(T.Union(handles.map((h) => T.Literal(h))), { minItems: 1 }) })
      : T.Object({ text: Text(20) });
  return T.Object({
    sections: T.Array(T.Object({ heading: Text(2, 160), paragraphs: T.Array(paragraph, { minItems: 1 }) }), {
      minItems: 1,
      maxItems: 10,
    }),
    key_concepts: ChapterSchema.properties.key_concepts,
    quiz: ChapterSchema.properties.quiz,
  });
};
export type ModelChapter = {
  sections: { heading: string; paragraphs: { text: string; sources?: string[] }[] }[];
  key_concepts: string[];
  quiz: { questions: McqQuestion[] };
};

/**
 * Notes condensing a run of passages for a prompt they do not fit whole: each note cites the
 * handles of the passages it condenses; `noteChars` and `maxNotes` bound the reply to its share
 * of the prompt it will go into.
 */
export const condensedNotesSchema = (handles: string[], maxNotes: number, noteChars: number) =>
  T.Object({
    notes: T.Array(
      T.Object({
        text: Text(1, noteChars),
        sources: T.Array(T.Union(handles.map((h) => T.Literal(h))), { minItems: 1 }),
      }),
      { minItems: 1, maxItems: maxNotes },
    ),
  });
export type CondensedNotes = Static<ReturnType<typeof condensedNotesSchema>>;

export const TermsSection = T.Object({
  heading: Text(2),
  items: T.Array(T.Object({ term: Text(1), definition: Text(3) }), { minItems: 1 }),
});
export const BulletsSection = T.Object({ heading: Text(2), bullets: T.Array(Text(3), { minItems: 1 }) });
export const BodySection = T.Object({ heading: Text(2), body: Text(10) });
export const StudyGuideSchema = T.Object({
  title: Text(3),
  sections: T.Array(T.Union([TermsSection, BulletsSection, BodySection]), { minItems: 2, maxItems: 12 }),
});
export type StudyGuide = Static<typeof StudyGuideSchema>;
export type StudyGuideSection = StudyGuide["sections"][number];

/** Notes are asked for chapter by chapter, then an introduction and a conclusion, and assembled into markdown by us. */
export const NotesChapterSchema = T.Object({ body: Text(100) });
export const NotesFrameSchema = T.Object({ introduction: Text(50), conclusion: Text(50) });
export type NotesFrame = Static<typeof NotesFrameSchema>;

export const Flashcard = T.Object({ front: Text(2, 300), back: Text(2, 1200) });
export const FlashcardsReply = T.Object({
  deck_title: Text(3),
  cards: T.Array(Flashcard, { minItems: 1, maxItems: 200 }),
});
export type Flashcard = Static<typeof Flashcard>;
export interface FlashcardDeck {
  deck_title: string;
  cards: Flashcard[];
  total: number;
}

/** How far an answer meets one rubric point: the same three marks for a model and the built-in grader. */
export const RubricMark = T.Union([T.Literal("yes"), T.Literal("partly"), T.Literal("no")]);
export type RubricMark = Static<typeof RubricMark>;

/** A marked short answer: one mark per rubric point, in the rubric's order, and feedback to the learner. */
export const rubricGradeSchema = (points: number) =>
  T.Object({
    points: T.Array(T.Object({ met: RubricMark, comment: Text(1, 400) }), { minItems: points, maxItems: points }),
    feedback: Text(1, 1200),
  });
export type RubricGrade = Static<ReturnType<typeof rubricGradeSchema>>;

export const AnswerReply = T.Object({
  answered: T.Boolean({ description: "false when the passages do not contain the answer" }),
  answer: T.String({
    minLength: 1,
    description: "The answer; each sentence ends with the handles of the passages it is based on, such as [S1]",
  }),
});
export interface Answer {
  answer: string;
  citations: string[];
  answered: boolean;
}

export const Speaker = T.Union([T.Literal("host"), T.Literal("guest")]);
export const PodcastScriptSchema = T.Object({
  title: Text(3),
  turns: T.Array(T.Object({ speaker: Speaker, text: Text(10) }), { minItems: 16, maxItems: 60 }),
});
export type PodcastScript = Static<typeof PodcastScriptSchema>;
