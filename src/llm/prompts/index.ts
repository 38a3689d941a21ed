/** The versioned prompt templates, embedded as text; bump the file's version when a prompt changes meaning. */
import answer from "./answer.v2.md" with { type: "text" };
import chapter from "./chapter.v2.md" with { type: "text" };
import condense from "./condense.v1.md" with { type: "text" };
import exam from "./exam.v2.md" with { type: "text" };
import flashcards from "./flashcards.v1.md" with { type: "text" };
import grade from "./grade.v1.md" with { type: "text" };
import notesChapter from "./notes-chapter.v1.md" with { type: "text" };
import notesFrame from "./notes-frame.v1.md" with { type: "text" };
import outline from "./outline.v3.md" with { type: "text" };
import podcast from "./podcast.v1.md" with { type: "text" };
import studyGuide from "./study-guide.v1.md" with { type: "text" };

export const templates = {
  answer,
  chapter,
  condense,
  exam,
  flashcards,
  grade,
  notesChapter,
  notesFrame,
  outline,
  podcast,
  studyGuide,
};

export { courseGoal, notesGoal, notesStyle, tutorTone } from "./guidance.ts";
export { bulletList, formatPassages, render } from "./render.ts";
