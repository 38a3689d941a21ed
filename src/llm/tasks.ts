/** Per-task sampling and sizing: structured extraction runs cool, scripts and notes warmer. */
import type { CallOptions, Task } from "./types.ts";

interface TaskProfile {
  temperature: number;
  maxTokens: number;
}

const PROFILES: Record<Task, TaskProfile> = {
  outline: { temperature: 0.3, maxTokens: 1500 },
  chapter: { temperature: 0.4, maxTokens: 4000 },
  study_guide: { temperature: 0.2, maxTokens: 3000 },
  notes: { temperature: 0.5, maxTokens: 5000 },
  flashcards: { temperature: 0.2, maxTokens: 3000 },
  exam: { temperature: 0.3, maxTokens: 3500 },
  answer: { temperature: 0.1, maxTokens: 800 },
  podcast: { temperature: 0.7, maxTokens: 3500 },
  general: { temperature: 0.3, maxTokens: 2000 },
};

export interface Sampling {
  temperature: number;
  maxTokens: number;
  /** Context window to request: the prompt plus the output budget, rounded up, within the cap. */
  numCtx: number;
}

// ~4 characters per token in English prose; a rough estimate is enough to size the window.
const estimateTokens = (chars: number) => Math.ceil(chars / 3.5);

export function samplingFor(opts: CallOptions, promptChars: number, maxCtx: number): Sampling {
  const profile = PROFILES[opts.task ?? "general"];
  const maxTokens = opts.maxTokens ?? profile.maxTokens;
  const wanted = estimateTokens(promptChars) + maxTokens;
  const numCtx = Math.min(maxCtx, Math.max(2048, Math.ceil(wanted / 1024) * 1024));
  return { temperature: opts.temperature ?? profile.temperature, maxTokens, numCtx };
}
