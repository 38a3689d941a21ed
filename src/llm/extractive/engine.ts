/**
 * The extractive engine's builders, loaded together on first use (artefacts/common.ts): their
 * part-of-speech model weighs about 40 MB, which a server that uses a real model, or sits idle,
 * need not carry.
 */
export { extractiveAnswer } from "./answer.ts";
export { extractiveChapter } from "./chapter.ts";
export { condensedChapter } from "./condense.ts";
export { extractiveExamQuestions } from "./exam.ts";
export { extractiveFlashcards } from "./flashcards.ts";
export { extractiveNotes } from "./notes.ts";
export { extractiveOutline } from "./outline.ts";
export { extractivePodcast } from "./podcast.ts";
export { extractiveStudyGuide } from "./study-guide.ts";
