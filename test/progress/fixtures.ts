/** Quizzes, exams and decks with known answers, written straight into a server's database. */
import { openDb } from "../../src/db/index.ts";
import type { ExamQuestion, FlashcardDeck } from "../../src/llm/artefacts.ts";
import { newId } from "../../src/util.ts";

export const QUIZ = [
  {
    prompt: "What is osmosis?",
    choices: ["Diffusion of water across a membrane", "Active transport of ions", "Splitting of glucose"],
    answer: 0,
    explanation: "Osmosis is the diffusion of water.",
  },
  {
    prompt: "Where does the Calvin cycle take place?",
    choices: ["Thylakoid", "Stroma", "Cytoplasm", "Nucleus"],
    answer: 1,
    explanation: "The Calvin cycle takes place in the stroma.",
  },
  {
    prompt: "What does glycolysis yield?",
    choices: ["Two pyruvate", "Six oxygen", "One NADPH"],
    answer: 0,
    explanation: "Glycolysis splits glucose into two pyruvate.",
  },
];

export const EXAM: ExamQuestion[] = [
  {
    type: "mcq",
    prompt: "Which pigment absorbs red and blue light?",
    choices: ["Chlorophyll", "Keratin", "Melanin", "Haemoglobin"],
    answer: 0,
    explanation: "Chlorophyll absorbs red and blue light.",
  },
  {
    type: "short_answer",
    prompt: "Explain how diffusion moves particles.",
    answer:
      "Particles move from higher to lower concentration, following the concentration gradient, without energy from the cell.",
    rubric: [
      "Particles move from a region of higher concentration to lower concentration",
      "Diffusion requires no energy from the cell",
    ],
  },
  {
    type: "short_answer",
    prompt: "What happens to a red blood cell placed in pure water?",
    answer: "Osmosis moves water into the cell, which swells and may burst.",
    rubric: ["Osmosis moves water into the cell", "The cell swells and may burst"],
  },
  {
    type: "worked_problem",
    prompt: "How many ways are there to choose 2 of 5 objects?",
    steps: ["Use the combination formula C(n, k) = n! / (k! (n - k)!)", "Substitute 5 and 2: 120 / (2 × 6)"],
    answer: "10",
  },
];

export const DECK: FlashcardDeck = {
  deck_title: "Cell Biology cards",
  cards: [
    { front: "Osmosis", back: "Diffusion of water across a selectively permeable membrane" },
    { front: "Diffusion", back: "Net movement of particles from higher to lower concentration" },
    { front: "Chlorophyll", back: "Green pigment that absorbs red and blue light" },
    { front: "Glycolysis", back: "Splitting of glucose into two pyruvate molecules" },
    { front: "Calvin cycle", back: "Reactions that fix carbon dioxide into sugar in the stroma" },
  ],
  total: 5,
};

async function withDb<T>(dataDir: string, fn: (sqlite: import("bun:sqlite").Database) => T): Promise<T> {
  const { sqlite } = await openDb(dataDir, { migrate: false });
  try {
    return fn(sqlite);
  } finally {
    sqlite.close();
  }
}

/** Replaces the quiz of chapter `orderIndex` with QUIZ. */
export function setQuiz(dataDir: string, courseId: string, orderIndex = 0) {
  return withDb(dataDir, (sqlite) => {
    const { id } = sqlite
      .query<{ id: string }, [string, number]>("SELECT id FROM chapters WHERE course_id = ? AND order_index = ?")
      .get(courseId, orderIndex)!;
    sqlite.run("DELETE FROM quiz_questions WHERE chapter_id = ?", [id]);
    QUIZ.forEach((q, i) => {
      sqlite.run(
        "INSERT INTO quiz_questions (id, chapter_id, position, type, prompt, choices, answer, explanation) VALUES (?, ?, ?, 'mcq', ?, ?, ?, ?)",
        [newId(), id, i, q.prompt, JSON.stringify(q.choices), JSON.stringify(q.answer), q.explanation],
      );
    });
  });
}

/** A cached exam of `size` (its questions are EXAM whatever the size), as generate-exam stores it. */
export function cacheExam(
  dataDir: string,
  courseId: string,
  opts: { size?: number; model?: string; engine?: string; questions?: ExamQuestion[] } = {},
) {
  const questions = opts.questions ?? EXAM;
  const exam = { title: "Exam", instructions: "Answer all.", questions, total: questions.length };
  return withDb(dataDir, (sqlite) =>
    sqlite.run(
      "INSERT INTO exams (id, course_id, model, exam_size, exam, engine, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [
        newId(),
        courseId,
        opts.model ?? "extractive",
        opts.size ?? 10,
        JSON.stringify(exam),
        opts.engine ?? "extractive",
        new Date().toISOString(),
      ],
    ),
  );
}

export function cacheDeck(dataDir: string, courseId: string, deck: FlashcardDeck = DECK, model = "extractive") {
  return withDb(dataDir, (sqlite) =>
    sqlite.run(
      "INSERT INTO flashcard_decks (id, course_id, model, deck, engine, created_at) VALUES (?, ?, ?, ?, 'extractive', ?)",
      [newId(), courseId, model, JSON.stringify(deck), new Date().toISOString()],
    ),
  );
}

/** Rows of the progress tables that belong to a course. */
export function progressRows(dataDir: string, courseId: string) {
  return withDb(dataDir, (sqlite) =>
    Object.fromEntries(
      ["quiz_attempts", "exam_attempts", "flashcard_schedules", "flashcard_reviews", "chapter_reads"].map((t) => [
        t,
        sqlite.query<{ n: number }, [string]>(`SELECT COUNT(*) AS n FROM ${t} WHERE course_id = ?`).get(courseId)!.n,
      ]),
    ),
  );
}
