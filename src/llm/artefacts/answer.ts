import { splitSentences } from "../../ingest/sentences.ts";
import { claimSupport, type PreparedPassages, preparePassages } from "../claim-support.ts";
import { sourceBudget } from "../context-budget.ts";
import { distinctPassages } from "../extractive/answer-passages.ts";
import { type AnswerPassage, keyTermSupport, passagesText } from "../extractive/answer-sentences.ts";
import { keyTerms, MIN_SUPPORT, meets, NOT_ANSWERED, requirements } from "../extractive/answer-terms.ts";
import { usesExtractive } from "../models.ts";
import { formatPassages, render, templates } from "../prompts/index.ts";
import { type Answer, AnswerReply } from "../schemas.ts";
import type { Llm } from "../types.ts";
import { type ArtefactOptions, extractiveHere } from "./common.ts";

export { type AnswerPassage, distinctPassages, NOT_ANSWERED };

export interface AnswerInput extends ArtefactOptions {
  question: string;
  passages: AnswerPassage[];
}

const notAnswered = (): Answer => ({ answer: NOT_ANSWERED, citations: [], answered: false });

/**
 * An answer grounded in `passages`, citing them as [n] (1-based, in the order given). When the
 * passages do not answer it, `answered` is false and the answer says so in one sentence: when the
 * model says so, or when no passage sentence holds most of the question's key terms by weight
 * (the extractive engine's abstention rule, applied to a model's answer too: a model asked about
 * something the passages never mention tends to answer from what they do mention).
 */
export async function answerQuestion(llm: Llm, input: AnswerInput): Promise<Answer> {
  if (input.passages.length === 0) return notAnswered();
  if (usesExtractive(llm, input.model)) return extractiveHere(input.meter, (e) => e.extractiveAnswer(input));
  const handles = input.passages.map((_, i) => `S${i + 1}`);
  const support = supportOf(input.passages);
  const frame = (passages: string, retry: string) =>
    render(templates.answer, { passages, question: input.question, handles: handles.join(", "), retry });
  // The passages in what the context window leaves beside the question, any re-ask and the reply.
  const ask = (retry: string) =>
    llm.generateObject(
      AnswerReply,
      frame(formatPassages(input.passages, sourceBudget(llm, "answer", frame("", retry)), { handles: true }), retry),
      { task: "answer", model: input.model, meter: input.meter },
    );
  let reply = await ask("");
  // Citation problems are re-asked once, whatever LLM_MAX_RETRIES allows (the reply is valid JSON:
  // its content is what is wrong); what is still wrong after that is dropped (see grounded).
  const problems = reply.answered ? citationProblems(reply.answer, support, handles) : [];
  if (problems.length > 0)
    reply = await ask(
      `Your previous answer was:\n${reply.answer}\nIt had these problems: ${problems.join("; ")}.\nAnswer again without them.`,
    );
  if (!reply.answered) return ownWords(reply.answer);
  if (keyTermSupport(keyTerms(input.question), input.passages) < MIN_SUPPORT) return notAnswered();
  if (!meets(requirements(input.question), passagesText(input.passages))) return notAnswered();
  return grounded(reply.answer, input.passages, support);
}

/** The model's own one-sentence statement that the sources do not answer, or ours when it said more. */
function ownWords(text: string): Answer {
  const sentences = splitSentences(text.trim());
  const plain = sentences.length === 1 && !MARKER.test(text);
  return { answer: plain ? text.trim() : NOT_ANSWERED, citations: [], answered: false };
}

// A citation: [S2], [2], or several in one pair of brackets ([S1, S3]).
const MARKER = /\[\s*S?\d+(?:\s*[,;]\s*S?\d+)*\s*\]/i;
const MARKERS = new RegExp(MARKER.source, "gi");

interface CitedSentence {
  /** The sentence without its markers. */
  text: string;
  /** 0-based passage indexes it cites that exist. */
  cited: number[];
  /** Handles it cites that are not passages. */
  unknown: string[];
}

/** The answer's sentences with the passages each cites; `[S3]` and `[3]` both name the third passage. */
function citedSentences(answer: string, passages: number): CitedSentence[] {
  // Markers written after a full stop ("…gravity. [S1]") belong to the sentence they follow.
  const attached = answer
    .trim()
    .replace(
      new RegExp(`([.!?])((?:\\s*${MARKER.source})+)`, "gi"),
      (_m, stop: string, marks: string) => ` ${marks.trim()}${stop}`,
    );
  return splitSentences(attached).map((sentence) => {
    const cited: number[] = [];
    const unknown: string[] = [];
    for (const marker of sentence.match(MARKERS) ?? []) {
      for (const handle of marker
        .slice(1, -1)
        .split(/[,;]/)
        .map((h) => h.trim())) {
        const n = Number(handle.replace(/^S/i, ""));
        if (n >= 1 && n <= passages) cited.push(n - 1);
        else unknown.push(handle);
      }
    }
    const text = sentence
      .replace(MARKERS, "")
      .replace(/\s+([.,;:!?])/g, "$1")
      .replace(/\s{2,}/g, " ")
      .trim();
    return { text, cited: [...new Set(cited)], unknown };
  });
}

/** The passages a sentence cites (0-based indexes), prepared for the grounding check once per set cited. */
type CitedSupport = (cited: number[]) => PreparedPassages;

function supportOf(passages: AnswerPassage[]): CitedSupport {
  const prepared = new Map<string, PreparedPassages>();
  return (cited) => {
    const key = cited.join(",");
    let p = prepared.get(key);
    if (!p) {
      p = preparePassages(cited.map((i) => passages[i]!.text));
      prepared.set(key, p);
    }
    return p;
  };
}

/**
 * A sentence is grounded when the passages it cites (all of them when it cites none) say it, by the
 * grounding check every model path uses (claim-support.ts): paraphrase kept, invention and
 * contradiction refused.
 */
function isGrounded(s: CitedSentence, support: CitedSupport, passages: number): boolean {
  const from = s.cited.length > 0 ? [...s.cited].sort((a, b) => a - b) : Array.from({ length: passages }, (_, i) => i);
  return claimSupport(s.text, support(from)).supported;
}

/** What to tell the model about its citations: handles that are no passage, no citation at all, claims its passages do not make. */
function citationProblems(answer: string, support: CitedSupport, handles: string[]): string[] {
  const sentences = citedSentences(answer, handles.length);
  const problems: string[] = [];
  const unknown = [...new Set(sentences.flatMap((s) => s.unknown))];
  if (unknown.length > 0)
    problems.push(
      `it cites ${unknown.map((h) => `[${h}]`).join(", ")}, which no passage has; cite only ${handles.map((h) => `[${h}]`).join(", ")}`,
    );
  if (sentences.every((s) => s.cited.length === 0))
    problems.push(
      "it cites no passage: end each sentence with the handles of the passages it is based on, such as [S1]",
    );
  for (const s of sentences.filter((x) => x.cited.length > 0 && !isGrounded(x, support, handles.length))) {
    problems.push(
      `the passages cited for "${s.text.slice(0, 80)}" do not say this: write only what the passages say, citing those that say it`,
    );
  }
  return problems;
}

/**
 * The model's answer with each sentence's handles as passage numbers ([2]), unknown handles
 * removed and ungrounded sentences left out; nothing grounded left is no answer.
 */
function grounded(answer: string, passages: AnswerPassage[], support: CitedSupport): Answer {
  const kept = citedSentences(answer, passages.length).filter((s) => s.text && isGrounded(s, support, passages.length));
  if (kept.length === 0) return notAnswered();
  const text = kept.map((s) => (s.cited.length > 0 ? withMarkers(s) : s.text)).join(" ");
  return {
    answer: text,
    citations: [...new Set(kept.flatMap((s) => s.cited))].map((i) => passages[i]!.id),
    answered: true,
  };
}

/** The sentence with its citations before its final punctuation mark, as "…gravity [1]." */
function withMarkers(s: CitedSentence): string {
  const markers = s.cited.map((i) => `[${i + 1}]`).join("");
  const m = /([.!?]["'”’)]*)$/.exec(s.text);
  return m ? `${s.text.slice(0, m.index)} ${markers}${m[1]}` : `${s.text} ${markers}`;
}
