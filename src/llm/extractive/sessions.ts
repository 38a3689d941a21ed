/**
 * Interactive sessions a text shows in its code blocks: a line typed at an interpreter's prompt
 * (">>> 40 + 2" in Python, "> sum(x)" in R) and the one line it printed. Only where the source shows
 * both is "what does this code display" asked; the lines typed before it in the block come with it,
 * since the output may depend on them. A line whose output depends on the run (chance, the clock,
 * the machine: run-dependent.ts) is left out, the lines before it included.
 */
import { variesByRun } from "./run-dependent.ts";

export interface SessionLine {
  /** What was typed before, in the same block: assignments and definitions the line may read. */
  setup: string[];
  /** The line typed. */
  input: string;
  /** What the interpreter printed for it. */
  output: string;
  /** Where the block starts in the text, to find the sentence that introduces it. */
  at: number;
}

const FENCE = /```[^\n]*\n([\s\S]*?)```/g;
const PROMPT = /^(?:>>>|>)\s+(\S.*)$/;
const CONTINUATION = /^(?:\.\.\.|\+)(?:\s|$)/;
const MAX_SETUP = 3;
// An output a learner can predict from the line: short, one line, not an error trace or an address.
const readable = (s: string) => s.length > 0 && s.length <= 40 && !/traceback|error|0x[0-9a-f]{6,}|<.+ at /i.test(s);

/** Brackets closed and quotes paired: a whole line, not one that runs on (R prints no "+" once extracted). */
function balanced(line: string): boolean {
  const bare = line.replace(/"[^"]*"|'[^']*'/g, "");
  if (/["']/.test(bare)) return false;
  let depth = 0;
  for (const c of bare) {
    depth += "([{".includes(c) ? 1 : ")]}".includes(c) ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0 && !/[,+\-*/=<|&]\s*$/.test(bare);
}

/** Every line typed at a prompt with the one line it printed, whatever the output depends on. */
export function typedLines(markdown: string): SessionLine[] {
  const out: SessionLine[] = [];
  for (const block of markdown.matchAll(FENCE)) {
    const lines = block[1]!.split("\n").map((l) => l.trimEnd());
    const typed: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const input = PROMPT.exec(lines[i]!)?.[1];
      if (input === undefined) continue;
      const next = lines[i + 1]?.trim() ?? "";
      const after = lines[i + 2]?.trim() ?? "";
      // One printed line, then a prompt or the end of the block.
      const printed = next !== "" && !PROMPT.test(next) && !CONTINUATION.test(next);
      const whole = balanced(input) && balanced(next);
      if (printed && whole && (after === "" || PROMPT.test(after)) && readable(next) && typed.length <= MAX_SETUP)
        out.push({ setup: [...typed], input: input.trim(), output: next, at: block.index });
      typed.push(input.trim());
    }
  }
  return out;
}

/** The typed lines whose output a learner can work out: the same on every run. */
export const sessionLines = (markdown: string): SessionLine[] =>
  typedLines(markdown).filter((l) => !variesByRun([...l.setup, l.input].join("\n")));
