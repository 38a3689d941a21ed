/** The extractive engine's thread as the composition root starts it, for tests and benchmarks that build without a server. */
import type { EngineWork } from "../../src/engine-thread.ts";
import { threadCalls } from "../../src/thread-calls.ts";

export const engineThread = threadCalls<EngineWork>(new URL("../../src/engine-thread.ts", import.meta.url));
