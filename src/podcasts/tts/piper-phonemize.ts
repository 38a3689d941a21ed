/**
 * Text to Piper phonemes, the way piper-phonemize does it: eSpeak NG IPA per clause, decomposed
 * (NFD) into single code points, language-switch flags "(en)" removed, the clause's punctuation
 * appended as a phoneme (plus a space after , : ;), and a new sentence after . ? !
 * Clauses are split here rather than by eSpeak because this build of eSpeak drops the punctuation
 * that Piper's models were trained to see.
 */
import type { EspeakRuntime } from "./espeak-wasm.ts";
import { endsSentence, splitClauses } from "./text.ts";

function clausePhonemes(ipa: string): string[] {
  const joined = ipa
    .replaceAll(" | ", " ")
    .replaceAll("_", "")
    .replace(/\([^)]*\)/g, "")
    .trim();
  return [...joined.normalize("NFD")];
}

export async function phonemizeForPiper(espeak: EspeakRuntime, text: string, espeakVoice: string): Promise<string[][]> {
  const sentences: string[][] = [];
  let current: string[] = [];
  for (const clause of splitClauses(text)) {
    current.push(...clausePhonemes(await espeak.phonemes(clause.text, espeakVoice)));
    if (clause.end) current.push(clause.end);
    if (clause.end === "," || clause.end === ":" || clause.end === ";") current.push(" ");
    if (endsSentence(clause.end)) {
      if (current.length > 0) sentences.push(current);
      current = [];
    }
  }
  if (current.length > 0) sentences.push(current);
  return sentences;
}
