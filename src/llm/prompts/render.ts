/**
 * Prompt templates: a system part, a line `---user---`, then the user part; `{{name}}`
 * placeholders are filled from `vars`. Hand-written: a template engine would be heavier than the
 * one regular expression this needs.
 */
import type { Passage, Prompt } from "../types.ts";

const SPLIT = /^-{3,}\s*user\s*-{3,}\s*$/m;

export function render(template: string, vars: Record<string, string | number>): Prompt {
  const fill = (s: string) =>
    s.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      if (!(name in vars)) throw new Error(`prompt variable {{${name}}} has no value`);
      return String(vars[name]);
    });
  const [system, user] = template.split(SPLIT);
  if (user === undefined) return { user: fill(system!.trim()) };
  return { system: fill(system!.trim()), user: fill(user.trim()) };
}

// Enough source for a chapter without overflowing an 8k context together with the reply.
const PASSAGE_BUDGET = 12_000;

/** The least of a passage an even share keeps: below this a passage says too little to plan from. */
const MIN_SHARE = 240;

/** The least of a passage worth showing after the first: less would be a fragment. */
const MIN_PIECE = 200;

/**
 * Passages as a numbered list the model can cite, by id or (with `handles`) by short handle. In order, each passage takes what is
 * left of the budget; with `evenShare`, every passage gets an equal part of it instead, so a
 * sample over a whole document (an outline's) reaches its last sections rather than stopping
 * after the first few.
 */
export function formatPassages(
  passages: Passage[],
  budget = PASSAGE_BUDGET,
  opts: { evenShare?: boolean; handles?: boolean } = {},
): string {
  if (passages.length === 0) return "(no source passages: rely on well-established knowledge of the topic)";
  const headers = passages.map((p, i) => {
    const where = [p.filename, p.page != null ? `p. ${p.page}` : null, p.heading].filter(Boolean).join(", ");
    // Short handles (S1, S2…) for a model to cite: small models mangle 36-character ids.
    return opts.handles
      ? `[S${i + 1}]${where ? ` (${where})` : ""}`
      : `[${i + 1}] id=${p.id}${where ? ` (${where})` : ""}`;
  });
  // Each passage's header and separators count against the budget as its text does.
  const framing = (i: number) => headers[i]!.length + 3;
  const allFraming = headers.reduce((n, _, i) => n + framing(i), 0);
  const share = opts.evenShare
    ? Math.max(MIN_SHARE, Math.floor((budget - allFraming) / passages.length))
    : Number.POSITIVE_INFINITY;
  const out: string[] = [];
  let used = 0;
  for (const [i, p] of passages.entries()) {
    const room = budget - used - framing(i);
    if (out.length > 0 && room < MIN_PIECE) break;
    const text = p.text.trim().slice(0, Math.min(share, Math.max(room, MIN_PIECE)));
    out.push(`${headers[i]}\n${text}`);
    used += framing(i) + text.length;
  }
  return out.join("\n\n");
}

export const bulletList = (items: string[]) => items.map((s) => `- ${s}`).join("\n");
