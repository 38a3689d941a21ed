/**
 * Calls into a worker thread by name (src/thread-calls.ts), as the engine's thread is called: a
 * call's result comes back whole, a refusal in the thread comes back as the same AppError (its code
 * is what the HTTP layer answers with), and the calls can be returned from an async function
 * (resolved as a value) without posting a call named "then".
 */
import { expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { threadCalls } from "../../src/thread-calls.ts";
import type { EchoWork } from "../helpers/echo-thread.ts";

const calls = threadCalls<EchoWork>(new URL("../helpers/echo-thread.ts", import.meta.url));

test("a call runs in the thread and its result comes back whole", async () => {
  const out = await calls.twice({ n: 21 });
  expect(out.n).toBe(42);
  expect(out.seen.get("n")).toBe(21);
});

test("a refusal in the thread comes back as the same AppError", async () => {
  const err = await calls.refuse({ id: "d1" }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe("DOCUMENT_NOT_FOUND");
  expect((err as AppError).message).toBe("No document d1");
});

test("the calls are no promise: resolving them posts nothing", async () => {
  expect(await Promise.resolve(calls)).toBe(calls);
  expect(await calls.twice({ n: 1 })).toMatchObject({ n: 2 });
});
