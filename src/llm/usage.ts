import type { CallUsage, Engine } from "./types.ts";

/**
 * Sums the cost of model calls, so a course (or a material) can record one usage line for all the
 * calls it made. `model`/`engine` are those of the latest call.
 */
export class UsageMeter {
  calls = 0;
  promptTokens = 0;
  completionTokens = 0;
  ms = 0;
  model: string | null = null;
  engine: Engine | null = null;

  add(usage: CallUsage): void {
    this.calls += 1;
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
    this.ms += usage.ms;
    this.model = usage.model;
    this.engine = usage.engine;
  }

  get totalTokens(): number {
    return this.promptTokens + this.completionTokens;
  }

  toJSON() {
    return {
      calls: this.calls,
      prompt_tokens: this.promptTokens,
      completion_tokens: this.completionTokens,
      total_tokens: this.totalTokens,
      ms: Math.round(this.ms),
      model: this.model,
      engine: this.engine,
    };
  }
}
