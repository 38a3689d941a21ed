/**
 * The kind of a built-in quiz question, read back from its prompt's frame (questions.ts writes
 * them), so a stored quiz can say when its chapter gave fewer kinds than a quiz should mix. A
 * model's prompt has no such frame and reads as null.
 */
const FRAMES: [kind: string, frame: RegExp][] = [
  ["acronym", /^What does \S+ stand for\?$/],
  ["term", /^Which term does the course describe as /],
  // Both ask for a term, whether by its description or by what it does: one kind to the learner.
  ["term", /^Which term does the course say /],
  ["statement", /^Which of these statements about .+ does the course make\?$/],
  ["steps", /^In “.+”, which step comes right after /],
  ["code", /^What does the code `.+` display\?$/],
  [
    "cause",
    /^What reason does the course give for this: |^According to the course, what does .+ (lead to|result in|cause|allow|enable)\?$/,
  ],
  ["role", /^According to the course, what /],
  ["blank", /^Complete the statement: /],
  ["definition", /^What (is|are|does .+ (mean|refer to|denote))\b.*\?$/],
];

/** Question kinds a quiz mixes when its chapter has the material for them. */
export const QUIZ_KINDS = 3;

export const promptKind = (prompt: string): string | null =>
  FRAMES.find(([, frame]) => frame.test(prompt))?.[0] ?? null;

/** How many kinds a built-in quiz mixes, or null when any prompt is not the built-in engine's. */
export function quizKinds(prompts: string[]): number | null {
  const kinds = prompts.map(promptKind);
  return kinds.includes(null) ? null : new Set(kinds).size;
}
