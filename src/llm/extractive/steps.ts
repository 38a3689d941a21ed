/**
 * Procedures a text lists: an ordered list of three to twelve steps ("1. Download …", "2. Run …"),
 * each a phrase or sentence of prose, named by the lead-in line before it when that line introduces
 * it ("To install a package:") or else by its section's heading. Only a procedure the source shows
 * step by step is asked as one (the order of its steps, a worked problem): a numbered list of
 * things ("1. A text editor …") or of questions set to the reader ("1. What is a comparison sort?")
 * has no order to ask about.
 */
import { usualClass } from "../wordnet.ts";
import { opensWithTag } from "./tagging.ts";
import { plainText, wordCount } from "./text.ts";

export interface Procedure {
  /** What the steps do, as the text names it. */
  title: string;
  steps: string[];
}

/** A numbered list of prose items, with the heading and the lead-in line it stands under. */
export interface NumberedList extends Procedure {
  heading: string;
  leadIn: string;
}

const ITEM = /^\s*(\d{1,2})[.)]\s+(.+)$/;
const HEADING = /^\s*#{1,6}\s+(.+)$/;
const MIN_STEPS = 3;
const MAX_STEPS = 12;
// A step a learner can restate: prose, not a code line or a bare label.
const prose = (s: string) => wordCount(s) >= 2 && wordCount(s) <= 40 && /\p{Ll}{2}/u.test(s) && !/[{};=<>|]/.test(s);

/**
 * A step that says what to do or what a program does next: it opens with a verb ("Install LaTeX.",
 * "Using the GUI, …", "Reads its input …"), as the tagger reads it or, where the tagger reads a
 * capitalised verb as a name or an adjective ("Select Official Repositories", "Run configure"), as
 * WordNet mostly uses the word.
 */
const action = (step: string) => {
  const first = /^\p{L}+/u.exec(step)?.[0]?.toLowerCase() ?? "";
  // A third person present ("Reads its input …", "Parses the tokens …") says what a program does in turn.
  return opensWithTag(step, "Verb") || [first, first.replace(/e?s$/, "")].some((w) => usualClass(w) === "verb");
};
/** A lead-in that announces an order: steps, stages, a procedure or what follows in turn. */
const ANNOUNCES_ORDER = /\b(steps?|stages?|phases?|procedure|as follows|in (?:this|the following) order|in turn)\b/i;
/** A list set to the reader rather than carried out: exercises, questions, a quiz. */
const SET_TO_READER = /\b(exercises?|questions|quiz(?:zes)?|self[- ]test)\b/i;

/**
 * Whether numbered items are a procedure: none is a question and the list is not set to the reader,
 * and either most items say what to do or the line before them announces an order.
 */
export function isProcedure({ heading, leadIn, steps }: NumberedList): boolean {
  if (steps.some((s) => /\?["”’)]?$/.test(s)) || SET_TO_READER.test(`${heading} ${leadIn}`)) return false;
  return steps.filter(action).length * 2 >= steps.length || ANNOUNCES_ORDER.test(leadIn);
}

/** The numbered lists of three to twelve prose items a text holds, each named by its lead-in or heading. */
export function numberedLists(markdown: string): NumberedList[] {
  const out: NumberedList[] = [];
  let heading = "";
  let leadIn = "";
  let run: string[] = [];
  const close = () => {
    const title = (leadIn || heading).replace(/[:.]\s*$/, "").trim();
    if (run.length >= MIN_STEPS && run.length <= MAX_STEPS && run.every(prose) && wordCount(title) >= 2)
      out.push({ title, steps: run, heading, leadIn });
    // A lead-in introduces the list right after it, not the next one.
    if (run.length > 0) leadIn = "";
    run = [];
  };
  for (const line of plainText(markdown).split("\n")) {
    const item = ITEM.exec(line);
    if (item) {
      // Numbering that starts again at 1 starts another list (one the text ran on into the last).
      if (item[1] === "1" && run.length > 0) close();
      run.push(item[2]!.trim());
      continue;
    }
    if (run.length > 0 && /^\s{2,}\S/.test(line)) {
      run[run.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (line.trim() === "" && run.length === 0) continue;
    close();
    const h = HEADING.exec(line);
    if (h) {
      heading = h[1]!.trim();
      leadIn = "";
    } else if (line.trim()) leadIn = /:\s*$/.test(line.trim()) ? line.trim() : "";
  }
  close();
  return out;
}

/** The procedures a text shows step by step. */
export const procedures = (markdown: string): Procedure[] =>
  numberedLists(markdown)
    .filter(isProcedure)
    .map(({ title, steps }) => ({ title, steps }));
