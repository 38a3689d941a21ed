/** A worker thread's entry for test/llm/thread-calls.test.ts: a call that answers and one that refuses. */
import { AppError } from "../../src/errors.ts";
import { serveCalls } from "../../src/thread-calls.ts";

const ECHO_WORK = {
  twice: (input: { n: number }) => ({ n: input.n * 2, seen: new Map([["n", input.n]]) }),
  refuse: (input: { id: string }): never => {
    throw new AppError("DOCUMENT_NOT_FOUND", `No document ${input.id}`);
  },
};
export type EchoWork = typeof ECHO_WORK;

serveCalls(ECHO_WORK);
