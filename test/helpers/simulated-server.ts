/**
 * Our server (in this process) generating with a fresh model simulator, through Ollama's API or
 * the OpenAI-compatible one, and a key to call it with.
 */
import { type AppOptions, startApp, type TestApp } from "./app.ts";
import { type ModelSimulator, type SimulatorOptions, startModelSimulator } from "./model-simulator.ts";
import { FAST_ENV } from "./server.ts";

export interface SimulatedServer {
  sim: ModelSimulator;
  srv: TestApp;
  /** A production key of tenant "acme". */
  key: string;
  env: Record<string, string>;
  /** Stops the server, then the simulator. */
  stop(): Promise<void>;
}

export async function startSimulatedServer(
  opts: SimulatorOptions & { api?: "ollama" | "openai"; env?: Record<string, string>; server?: AppOptions } = {},
): Promise<SimulatedServer> {
  const { api = "ollama", env: own, server, ...simOptions } = opts;
  const sim = startModelSimulator(simOptions);
  const provider: Record<string, string> =
    api === "ollama"
      ? { LLM_PROVIDER: "ollama", OLLAMA_HOST: sim.url }
      : { LLM_PROVIDER: "openai", OPENAI_BASE_URL: sim.openaiUrl, OPENAI_API_KEY: "sim" };
  const env = { ...FAST_ENV, ...provider, ...own };
  try {
    const srv = await startApp({ ...server, env });
    const key = await srv.createKey("acme", "production");
    return {
      sim,
      srv,
      key,
      env,
      async stop() {
        await srv.stop();
        await sim.close();
      },
    };
  } catch (e) {
    await sim.close();
    throw e;
  }
}
