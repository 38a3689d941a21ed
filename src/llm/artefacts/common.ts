/** Shared pieces of the artefact functions. */
import { sourceBudget } from "../context-budget.ts";
import { EXTRACTIVE } from "../providers/extractive.ts";
import type { Llm, Prompt, Task } from "../types.ts";
import type { UsageMeter } from "../usage.ts";
import type { ChapterSummary } from "./chapter-summary.ts";

export interface ArtefactOptions {
  meter?: UsageMeter;
  /** A model name from listModelKeys(); "extractive" forces the extractive engine. */
  model?: string;
}

export type ExtractiveEngine = typeof import("../extractive/engine.ts");
/** The builders run in the engine's thread: every one but answers (see extractiveHere). */
type BuilderName = Exclude<keyof ExtractiveEngine, "extractiveAnswer">;

let engine: Promise<ExtractiveEngine> | null = null;

/** The extractive engine, imported on first use (see extractive/engine.ts). */
export const extractiveEngine = (): Promise<ExtractiveEngine> => (engine ??= import("../extractive/engine.ts"));

/** Usage records an extractive build as one zero-token call, so it says which engine made it. */
function recordExtractive(meter: UsageMeter | undefined, started: number): void {
  meter?.add({
    engine: "extractive",
    model: EXTRACTIVE,
    promptTokens: 0,
    completionTokens: 0,
    ms: performance.now() - started,
  });
}

/** An extractive build on this thread: answers, which read a few passages and must not queue behind a course. */
export async function extractiveHere<T>(
  meter: UsageMeter | undefined,
  build: (engine: ExtractiveEngine) => T,
): Promise<T> {
  const loaded = await extractiveEngine();
  const started = performance.now();
  const out = build(loaded);
  recordExtractive(meter, started);
  return out;
}

/**
 * Runs an extractive course builder in the engine's thread (`llm.builds`), recorded as above. The
 * input is copied there without its meter.
 */
export async function extractive<K extends BuilderName>(
  llm: Llm,
  name: K,
  input: Parameters<ExtractiveEngine[K]>[0] & ArtefactOptions,
): Promise<ReturnType<ExtractiveEngine[K]>> {
  const { meter, ...data } = input;
  const started = performance.now();
  const out = (await llm.builds[name]!(data)) as ReturnType<ExtractiveEngine[K]>;
  recordExtractive(meter, started);
  return out;
}

/** Chapters as compact text for prompts that work from finished chapters (guide, notes, cards, exam). */
export function formatChapters(chapters: ChapterSummary[], perChapterChars: number): string {
  return chapters
    .map(
      (c, i) =>
        `### Chapter ${i + 1}: ${c.title}\nKey concepts: ${c.key_concepts.join("; ")}\n\n${c.content.trim().slice(0, perChapterChars)}`,
    )
    .join("\n\n");
}

/** The most of the chapters' text a prompt that works from finished chapters shows. */
const PROMPT_CHAPTERS_CHARS = 14_000;

/**
 * `frame(chapters)` with the chapters (formatChapters) in what the context window leaves beside the
 * rest of the prompt and the task's reply: their titles and key concepts whole, their text in equal shares.
 */
export function chaptersWithin(llm: Llm, task: Task, frame: (chapters: string) => Prompt, chapters: ChapterSummary[]) {
  const room = Math.min(PROMPT_CHAPTERS_CHARS, sourceBudget(llm, task, frame(""))) - formatChapters(chapters, 0).length;
  return frame(formatChapters(chapters, Math.max(0, Math.floor(room / Math.max(1, chapters.length)))));
}

/** Removes duplicates by a normalised key, keeping the first. */
export function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t).toLowerCase().replace(/\s+/g, " ").trim();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
