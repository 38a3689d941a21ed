/**
 * A "definition" that says what one particular value is rather than what the term is: "The return
 * value is an object that behaves like an open file", right after the code whose value it is. A
 * definite common noun ("the return value", "the result") written right after code or a sentence
 * that quotes a call or introduces an example refers back to that one (Halliday and Hasan's
 * reference by the definite article, back-reference.ts), so the sentence tells of an instance.
 * Names ("The Debian Package Tracker is …") and terms with "a"/"an" or none are left alone.
 */
import type { Definition } from "./definitions.ts";
import { escapeRegExp } from "./text.ts";

/** A call or a code span in prose: "os.popen(cmd)", "`ls`". */
const QUOTES_CODE = /`[^`]+`|[\p{L}_][\p{L}\p{N}_.]*\([^()]*\)/u;

/** What comes right before `sentence` in `markdown`: the sentences of its paragraph before it, or else the paragraph or code block before. */
function justBefore(markdown: string, sentence: string): string | null {
  // A sentence read from a PDF may run over several of its lines ("… in order\nto certify …").
  const at = markdown.search(new RegExp(escapeRegExp(sentence).replace(/\s+/g, "\\s+")));
  if (at < 0) return null;
  const before = markdown.slice(0, at);
  const own = before.slice(before.lastIndexOf("\n\n") + 2);
  return own.trim()
    ? own
    : (before
        .trimEnd()
        .split(/\n\s*\n/)
        .at(-1) ?? "");
}

/** Whether text ends in what shows one example: a code block, a quoted call, or a lead-in to what follows. */
const showsExample = (text: string): boolean => {
  const t = text.trim();
  if (/(`{3,}|~{3,})$/.test(t) || /:$/.test(t)) return true;
  const last = t.split(/(?<=[.!?])\s+/).at(-1) ?? "";
  return QUOTES_CODE.test(last);
};

/** Whether a definition tells of the one value the code or example just before it shows. */
export function tellsOfOneInstance(d: Definition, markdown: string): boolean {
  if (d.kind !== "copula" || d.article.toLowerCase() !== "the" || !/^[\p{Ll}\s-]+$/u.test(d.term)) return false;
  // "The return value of open is …" names whose value it is: a definition of that, not a back-reference.
  if (new RegExp(`^the\\s+${escapeRegExp(d.term)}\\s+(?:of|for|from|in)\\b`, "i").test(d.definition)) return false;
  const before = justBefore(markdown, d.definition);
  return before !== null && showsExample(before);
}
