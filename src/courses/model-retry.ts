/**
 * Automatic retries of a generation step after a transient model failure (a timeout or a rate
 * limit), with exponential back-off, before the step fails the course. Other failures (refusal,
 * invalid output after the model layer's own re-asks) fail at once: repeating them rarely helps.
 */
import pRetry from "p-retry";
import { isLlmError } from "../llm/errors.ts";
import type { RetryDeps } from "./deps.ts";

const isTransientStep = (err: unknown) => isLlmError(err, "LLM_TIMEOUT", "LLM_RATE_LIMIT");

export function withModelRetries<T>(svc: RetryDeps, step: Record<string, unknown>, run: () => Promise<T>): Promise<T> {
  return pRetry(run, {
    retries: svc.cfg.generationRetries,
    minTimeout: svc.cfg.generationRetryDelayMs,
    factor: 2,
    shouldRetry: ({ error }) => isTransientStep(error),
    onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
      if (retriesLeft > 0 && isTransientStep(error)) {
        svc.log.warn("generation step failed; retrying", {
          ...step,
          attempt: attemptNumber,
          code: (error as { code?: string }).code,
        });
      }
    },
  });
}
