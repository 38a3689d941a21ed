import { NOT_ANSWERED } from "../extractive/answer.ts";
import { usesExtractive } from "../models.ts";
import { formatPassages, render, templates } from "../prompts/index.ts";
import { AnswerReply, type Answer } from "../schemas.ts";
import type { Llm, Passage } from "../types.ts";
import { extractive, type ArtefactOptions } from "./common.ts";

export interface AnswerInput extends ArtefactOptions {
  question: string;
  passages: Passage[];
}

/**
 * An answer grounded in `passages`, citing them as [n] (1-based, in the order given). When the
 * passages do not answer it, `answered` is false and the answer says so.
 */
export async function answerQuestion(llm: Llm, input: AnswerInput): Promise<Answer> {
  if (input.passages.length === 0) return { answer: NOT_ANSWERED, citations: [], answered: false };
  if (usesExtractive(llm, input.model)) return extractive(input.meter, (e) => e.extractiveAnswer(input));
  const prompt = render(templates.answer, { passages: formatPassages(input.passages), question: input.question });
  const reply = await llm.generateObject(AnswerReply, prompt, { task: "answer", model: input.model, meter: input.meter });
  const { answer, citations } = keepValidMarkers(reply.answer, input.passages);
  if (!reply.answered) return { answer: answer || NOT_ANSWERED, citations: [], answered: false };
  return { answer, citations, answered: true };
}

/** Drops [n] markers that point past the passages given; the rest become passage ids. */
function keepValidMarkers(text: string, passages: Passage[]): { answer: string; citations: string[] } {
  const cited: string[] = [];
  const answer = text
    .replace(/\[(\d+)\]/g, (marker, n: string) => {
      const p = passages[Number(n) - 1];
      if (!p) return "";
      cited.push(p.id);
      return marker;
    })
    .replace(/\s+([.,;:])/g, "$1")
    .trim();
  return { answer, citations: [...new Set(cited)] };
}
