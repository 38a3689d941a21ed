/**
 * The artefact API: what courses, materials and podcasts call. Each function returns a
 * schema-valid object, from the configured model or, for the extractive engine (or
 * `model: "extractive"`), built deterministically from the inputs.
 */

export { type AnswerInput, type AnswerPassage, answerQuestion, distinctPassages } from "./artefacts/answer.ts";
export { type ChapterInput, writeChapter } from "./artefacts/chapter.ts";
export type { ChapterSummary, NotesGoal, NotesStyle, SourceRef, TutorTone } from "./artefacts/chapter-summary.ts";
export type { ArtefactOptions } from "./artefacts/common.ts";
export { type ExamQuestionsInput, writeExamQuestions } from "./artefacts/exam.ts";
export { type FlashcardsInput, writeFlashcards } from "./artefacts/flashcards.ts";
export { gradeWithModel, type RubricGradeInput } from "./artefacts/grading.ts";
export { type NotesInput, writeNotes } from "./artefacts/notes.ts";
export { type OutlineInput, writeOutline } from "./artefacts/outline.ts";
export { type PodcastInput, writePodcastScript } from "./artefacts/podcast.ts";
export { type StudyGuideInput, writeStudyGuide } from "./artefacts/study-guide.ts";
export { EXTRACTIVE_MODEL, listModelKeys, resolveModelKey } from "./models.ts";
export type {
  Answer,
  ChapterDraft,
  ExamQuestion,
  ExamQuestionType,
  Flashcard,
  FlashcardDeck,
  McqQuestion,
  Outline,
  PodcastScript,
  RubricGrade,
  RubricMark,
  ShortAnswerQuestion,
  StudyGuide,
  StudyGuideSection,
  WorkedProblemQuestion,
} from "./schemas.ts";
export type { Passage } from "./types.ts";
export { UsageMeter } from "./usage.ts";
