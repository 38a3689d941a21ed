/**
 * Procedures a text lists: an ordered list of three to twelve steps ("1. Download …", "2. Run …"),
 * each a phrase or sentence of prose, named by the lead-in line before it when that line introduces
 * it ("To install a package:") or else by its section's heading. Only a procedure the source shows
 * step by step is asked as one (the order of its steps, a worked problem).
 */
import { plainText, wordCount } from "./text.ts";

export interface Procedure {
  /** What the steps do, as the text names it. */
  title: string;
  steps: string[];
}

const ITEM = /^\s*\d{1,2}[.)]\s+(.+)$/;
const HEADING = /^\s*#{1,6}\s+(.+)$/;
const MIN_STEPS = 3;
const MAX_STEPS = 12;
// A step a learner can restate: prose, not a code line or a bare label.
const prose = (s: string) => wordCount(s) >= 2 && wordCount(s) <= 40 && /\p{Ll}{2}/u.test(s) && !/[{};=<>|]/.test(s);

export function procedures(markdown: string): Procedure[] {
  const out: Procedure[] = [];
  let heading = "";
  let leadIn = "";
  let run: string[] = [];
  const close = () => {
    const title = (leadIn || heading).replace(/[:.]\s*$/, "").trim();
    if (run.length >= MIN_STEPS && run.length <= MAX_STEPS && run.every(prose) && wordCount(title) >= 2)
      out.push({ title, steps: run });
    run = [];
  };
  for (const line of plainText(markdown).split("\n")) {
    const item = ITEM.exec(line);
    if (item) {
      run.push(item[1]!.trim());
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
