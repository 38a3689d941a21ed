/**
 * Sources condensed to fit a prompt rather than cut: when passages exceed the source budget of the
 * prompt they go into, the model condenses them run by run (a run is a section, or as much of one
 * as a condensing prompt holds), each run into its share of the budget, as notes that cite the
 * passages they condense, each note's sentences checked against those passages. Notes that still
 * do not fit are condensed again. A condensing prompt
 * depends on its passages alone (and the budget), so the model's notes for it are reused
 * (`reuse`): the outline condenses each chapter's own sections as that chapter will, then those
 * notes further, and the chapters find their notes made.
 */
import { claimsOf, preparePassages, unsupportedSentences } from "../claim-support.ts";
import { CHARS_PER_TOKEN, sourceBudget } from "../context-budget.ts";
import { formatPassages, render, templates } from "../prompts/index.ts";
import { condensedNotesSchema } from "../schemas.ts";
import { replyTokens } from "../tasks.ts";
import type { Llm, Passage } from "../types.ts";
import type { ArtefactOptions } from "./common.ts";

export interface CondenseOptions extends ArtefactOptions {
  /** Characters the passages may take in the prompt they are for, as formatPassages shows them. */
  budget: number;
  /** What the passages are, for the condensing prompt: "the sections of chapter 3, \"Tides\", of a course". */
  where: string;
  /** Whether the prompt they are for shows them by handle (S1…) rather than by id. */
  handles: boolean;
}

// A note long enough to hold a definition or a step with its example; fewer, longer notes read better.
const NOTE_CHARS = 400;
const MIN_NOTE_CHARS = 80;
const MAX_NOTES = 8;
// What a condensing reply may hold of notes, its JSON aside.
const REPLY_CHARS = Math.floor(replyTokens("condense") * CHARS_PER_TOKEN * 0.8);
// Each round condenses to its budget; more are needed only when the budget is tiny against the sources.
const MAX_ROUNDS = 4;

/** How many characters passages take in a prompt, handles (or ids) and headers included. */
export const shownLength = (passages: Passage[], handles = true) =>
  formatPassages(passages, Number.POSITIVE_INFINITY, { handles }).length;

/** The top-level section a passage belongs to: runs end where it changes, when they can. */
const sectionOf = (p: Passage) => (p.headingPath?.[0] ?? p.heading ?? "").toLowerCase();

/** A passage longer than `limit` as pieces of it (same id), cut between words. */
function pieces(p: Passage, limit: number): Passage[] {
  if (p.text.length <= limit) return [p];
  const out: Passage[] = [];
  let rest = p.text;
  while (rest.length > limit) {
    const cut = rest.lastIndexOf(" ", limit);
    const at = cut > limit / 2 ? cut : limit;
    out.push({ ...p, text: rest.slice(0, at).trim() });
    rest = rest.slice(at);
  }
  if (rest.trim()) out.push({ ...p, text: rest.trim() });
  return out;
}

/**
 * Consecutive runs of passages, each within `limit` shown characters: a run closes at a section's
 * end once it is half full, so runs follow the sources' sections where sizes allow.
 */
export function runsOf(passages: Passage[], limit: number): Passage[][] {
  const runs: Passage[][] = [];
  let run: Passage[] = [];
  let size = 0;
  for (const p of passages.flatMap((q) => pieces(q, Math.floor(limit * 0.8)))) {
    const len = shownLength([p]) + 2;
    const newSection = run.length > 0 && sectionOf(p) !== sectionOf(run.at(-1)!) && size >= limit / 2;
    if (run.length > 0 && (size + len > limit || newSection)) {
      runs.push(run);
      run = [];
      size = 0;
    }
    run.push(p);
    size += len;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

const idsOf = (p: Passage) => p.sourceIds ?? [p.id];

/** One run condensed into notes within `share` shown characters, each note a passage citing what it condenses. */
async function condenseRun(llm: Llm, run: Passage[], share: number, opts: CondenseOptions): Promise<Passage[]> {
  const handles = run.map((_, i) => `S${i + 1}`);
  // Room for each note's header (handle, file, page, heading) as the final prompt shows it.
  const header = shownLength([{ ...run[0]!, text: "" }], opts.handles) + 2;
  const maxNotes = Math.max(1, Math.min(MAX_NOTES, run.length, Math.floor(share / NOTE_CHARS)));
  const noteChars = Math.max(MIN_NOTE_CHARS, Math.floor(share / maxNotes) - header);
  const prompt = render(templates.condense, {
    where: opts.where,
    passages: formatPassages(run, Number.POSITIVE_INFINITY, { handles: true }),
    maxNotes,
    noteChars,
  });
  const cited = (sources: string[]) => [...new Set(sources)].map((h) => run[handles.indexOf(h)]!);
  // A note is checked against what it cites, by the grounding check every model path uses.
  const unsupported = (note: { text: string; sources: string[] }) =>
    unsupportedSentences(note.text, preparePassages(cited(note.sources).map((p) => p.text)));
  // Notes saying what their passages do not are re-asked once; what is still unsupported is then left out.
  let asked = false;
  const reply = await llm.generateObject(condensedNotesSchema(handles, maxNotes, noteChars), prompt, {
    task: "condense",
    model: opts.model,
    meter: opts.meter,
    reuse: true,
    refine: (r) => {
      if (asked) return [];
      const problems = r.notes.flatMap((note, i) => {
        const weak = unsupported(note);
        return weak.length > 0
          ? [
              `/notes/${i}: the passages it cites (${note.sources.join(", ")}) do not say ${weak.map((t) => JSON.stringify(t)).join(" nor ")}; note only what they say`,
            ]
          : [];
      });
      asked = problems.length > 0;
      return problems;
    },
  });
  return reply.notes.flatMap((note) => {
    const weak = unsupported(note);
    const text =
      weak.length === 0
        ? note.text.trim()
        : claimsOf(note.text)
            .filter((t) => !weak.includes(t))
            .join(" ");
    if (!text) return [];
    const from = cited(note.sources);
    return [{ ...(from[0] ?? run[0]!), text, sourceIds: [...new Set(from.flatMap(idsOf))], score: undefined }];
  });
}

/** What passages are, for a condensing prompt, from themselves alone: their files and top-level sections. */
export function sectionsOf(passages: Passage[]): string {
  const files = [...new Set(passages.map((p) => p.filename).filter(Boolean))];
  const sections = [...new Set(passages.map((p) => p.headingPath?.[0] ?? p.heading).filter(Boolean))];
  const quoted = sections.map((t) => `"${t}"`);
  // A long list says no more than its ends and its length.
  const listed =
    quoted.length > 4
      ? `${quoted.slice(0, 2).join(", ")} … ${quoted.at(-1)} (${quoted.length} in all)`
      : quoted.join(", ");
  const named = sections.length > 0 ? `sections ${listed}` : "passages";
  return files.length > 0 ? `${named} of ${files.join(", ")}` : named;
}

export async function condenseToFit(llm: Llm, passages: Passage[], opts: CondenseOptions): Promise<Passage[]> {
  let current = passages;
  const frame = render(templates.condense, { where: opts.where, passages: "", maxNotes: MAX_NOTES, noteChars: 0 });
  const runLimit = sourceBudget(llm, "condense", frame);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const total = shownLength(current, opts.handles);
    if (total <= opts.budget) break;
    // A run no longer than its notes can be within the reply a condensing call may write.
    const runSize = Math.min(runLimit, Math.floor((REPLY_CHARS * total) / opts.budget));
    const next: Passage[] = [];
    for (const run of runsOf(current, runSize)) {
      const share = Math.floor((opts.budget * shownLength(run, opts.handles)) / total);
      next.push(...(await condenseRun(llm, run, share, opts)));
    }
    current = next;
  }
  return current;
}
