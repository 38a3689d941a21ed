/**
 * A fake-Ollama responder for exam batches that writes distinct, well-formed questions (the fake's
 * default filler starts every batch with the same words, so every batch would repeat the last).
 * `repeatEvery` makes every n-th question repeat an earlier prompt, as a real model sometimes does.
 */
import type { Responder } from "../helpers/fake-ollama.ts";

/** Three made-up words unique to question `n`, so no two prompts share most of their words. */
const wordsFor = (n: number) => {
  let letters = "";
  for (let k = n; k > 0; k = Math.floor(k / 26)) letters = String.fromCharCode(97 + (k % 26)) + letters;
  return ["vor", "mel", "tesk"].map((root) => `${root}${letters}ak`);
};

export function examResponder(opts: { repeatEvery?: number } = {}): Responder {
  let n = 0;
  const written: string[] = [];
  return ({ body, prompt }) => {
    const questions = body.format?.properties?.questions;
    if (!questions?.items) return undefined;
    const count: number = questions.minItems;
    const type: string = questions.items.properties?.type?.const ?? "mcq";
    const chapter = /Chapter: (.+)/.exec(prompt)?.[1]?.trim() ?? "the chapter";
    const out = Array.from({ length: count }, () => {
      n += 1;
      const repeat = opts.repeatEvery && n % opts.repeatEvery === 0 && written.length > 0;
      const p = repeat ? written[0]! : `How do ${wordsFor(n).join(", ")} relate in ${chapter}?`;
      written.push(p);
      if (type === "short_answer")
        return {
          type,
          prompt: p,
          answer: `Model answer ${n}`,
          rubric: [`The answer names point ${n} of the chapter.`, "The answer explains why the point holds."],
        };
      if (type === "worked_problem")
        return { type, prompt: p, steps: [`Set up ${n}`, `Compute ${n}`], answer: String(n) };
      return {
        type,
        prompt: p,
        choices: [`Option A${n}`, `Option B${n}`, `Option C${n}`, `Option D${n}`],
        answer: n % 4,
        explanation: `Because of reason ${n}.`,
      };
    });
    return JSON.stringify({ questions: out });
  };
}
