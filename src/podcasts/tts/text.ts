/** Splitting turn text into the pieces the engines synthesize one at a time. */

/** Punctuation that ends a clause when followed by whitespace or the end of the text. */
export type ClauseEnd = "." | "?" | "!" | "," | ":" | ";" | "";

export interface Clause {
  /** The clause without its ending punctuation. */
  text: string;
  end: ClauseEnd;
}

const CLAUSE_BREAK = /([.?!,:;]+)(?=\s|$)/g;

/** Abbreviations whose full stop does not end a sentence ("Dr. Smith" is one phrase). */
const ABBREVIATION = /(?:^|\s)(?:dr|mr|mrs|ms|prof|st|vs|etc|e\.g|i\.e|fig|approx)$/i;

/** Clauses in order; punctuation inside words and numbers ("3.14") does not split. */
export function splitClauses(text: string): Clause[] {
  const out: Clause[] = [];
  let start = 0;
  for (const match of text.matchAll(CLAUSE_BREAK)) {
    const punct = match[1] ?? "";
    const beforeEnd = match.index + punct.length < text.length;
    if (punct === "." && beforeEnd && ABBREVIATION.test(text.slice(start, match.index))) continue;
    const body = text.slice(start, match.index).trim();
    if (body) out.push({ text: body, end: (punct.at(-1) ?? "") as ClauseEnd });
    start = match.index + punct.length;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push({ text: rest, end: "" });
  return out;
}

export function endsSentence(end: ClauseEnd): boolean {
  return end === "." || end === "?" || end === "!" || end === "";
}

/** Sentences (clauses grouped up to a full stop, question or exclamation mark), punctuation kept. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let current = "";
  for (const clause of splitClauses(text)) {
    current += `${current ? " " : ""}${clause.text}${clause.end}`;
    if (endsSentence(clause.end)) {
      sentences.push(current);
      current = "";
    }
  }
  if (current) sentences.push(current);
  return sentences;
}
