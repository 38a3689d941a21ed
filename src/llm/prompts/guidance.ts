/** How the learner's profile shapes a prompt: fixed phrasings, so the same profile gives the same prompt. */
import type { NotesGoal, NotesStyle, TutorTone } from "../artefacts/chapter-summary.ts";

const COURSE_GOALS: Record<string, string> = {
  exams: "pass an exam: emphasise definitions, exact facts, typical exam questions and common mistakes",
  career: "use this at work: emphasise practical skills, real-world scenarios and professional vocabulary",
  curiosity: "understand the subject for its own sake: emphasise intuition, stories and surprising connections",
  supplement:
    "supplement a class they are taking: emphasise clear explanations of the core material and worked examples",
};

export const courseGoal = (goal?: string | null) =>
  (goal && COURSE_GOALS[goal]) || "learn the subject thoroughly: balance explanation, examples and practice";

const NOTES_GOALS: Record<NotesGoal, string> = {
  exams: "revising for exams: highlight definitions, facts to memorise, and likely exam questions",
  interviews:
    "preparing for job interviews: highlight how to explain each idea aloud, trade-offs, and questions an interviewer may ask",
  practical: "applying the material in practice: highlight procedures, checklists, examples and pitfalls",
};
export const notesGoal = (g: NotesGoal) => NOTES_GOALS[g];

const STYLES: Record<NotesStyle, string> = {
  clear_structured: "clear and structured: short paragraphs, bullet lists, bold key terms",
  narrative: "narrative: flowing prose that connects ideas into a story, few lists",
  concise: "concise: terse bullet points only, no filler, at most about 120 words per chapter",
};
export const notesStyle = (s: NotesStyle) => STYLES[s];

const TONES: Record<TutorTone, { role: string; voice: string }> = {
  professor: { role: "university professor", voice: "You are precise, formal and thorough." },
  mentor: {
    role: "supportive mentor",
    voice: "You are warm and encouraging and relate ideas to the learner's growth.",
  },
  peer: {
    role: "fellow student who aced this course",
    voice: "You are casual and friendly, and share tricks that helped you.",
  },
};
export const tutorTone = (t: TutorTone) => TONES[t];
