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
  grading: { temperature: 0, maxTokens: 1000 },
  answer: { temperature: 0.1, maxTokens: 800 },
  podcast: { temperature: 0.7, maxTokens: 3500 },
  condense: { temperature: 0.2, maxTokens: 2000 },
  general: { temperature: 0.3, maxTokens: 2000 },
};

export interface Sampling {
  temperature: number;
  maxTokens: number;
  /**
   * Context window to request: the same on every call. Ollama reloads a model whenever num_ctx
   * changes (ollama issue 9977), so a window sized per prompt reloaded it again and again in one course.
   */
  numCtx: number;
}

/** The reply a task is allowed, in tokens: the part of the context window its prompt may not use. */
export const replyTokens = (task: Task, maxTokens?: number) => maxTokens ?? PROFILES[task].maxTokens;

export function samplingFor(opts: CallOptions, numCtx: number): Sampling {
  const profile = PROFILES[opts.task ?? "general"];
  return {
    temperature: opts.temperature ?? profile.temperature,
    maxTokens: opts.maxTokens ?? profile.maxTokens,
    numCtx,
  };
}
