/**
 * The artefact API: what courses, materials and podcasts call. Each function returns a
 * schema-valid object, from the configured model or, for the extractive engine (or
 * `model: "extractive"`), built deterministically from the inputs.
 */
export type { Passage } from "./types.ts";
export { UsageMeter } from "./usage.ts";
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
export type { ArtefactOptions } from "./artefacts/common.ts";
export type { ChapterSummary, NotesGoal, NotesStyle, SourceRef, TutorTone } from "./artefacts/chapter-summary.ts";
export { writeOutline, type OutlineInput } from "./artefacts/outline.ts";
export { writeChapter, type ChapterInput } from "./artefacts/chapter.ts";
export { writeStudyGuide, type StudyGuideInput } from "./artefacts/study-guide.ts";
export { writeNotes, type NotesInput } from "./artefacts/notes.ts";
export { writeFlashcards, type FlashcardsInput } from "./artefacts/flashcards.ts";
export { writeExamQuestions, type ExamQuestionsInput } from "./artefacts/exam.ts";
export { gradeWithModel, type RubricGradeInput } from "./artefacts/grading.ts";
export { answerQuestion, distinctPassages, type AnswerInput, type AnswerPassage } from "./artefacts/answer.ts";
export { writePodcastScript, type PodcastInput } from "./artefacts/podcast.ts";
export { listModelKeys, resolveModelKey, EXTRACTIVE_MODEL } from "./models.ts";
