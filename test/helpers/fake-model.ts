/**
 * A test's model: the fake Ollama on loopback and the env that points our server at it. Every test
 * that runs the server (or its services) against a model starts it here, so they reach the fake the
 * same way and differ only in the settings they name.
 */
import { type AppOptions, startApp, type TestApp } from "./app.ts";
import { type FakeOllama, type FakeOllamaOptions, startFakeOllama } from "./fake-ollama.ts";
import { FAST_ENV } from "./server.ts";

export interface FakeModelOptions extends FakeOllamaOptions {
  /** The test's own settings, over the shared ones. */
  env?: Record<string, string>;
}

export interface FakeModel {
  fake: FakeOllama;
  /** FAST_ENV, then generation with the fake (LLM_PROVIDER, OLLAMA_HOST), then the test's own settings. */
  env: Record<string, string>;
  /** Closes the fake; stop the servers using it first. */
  stop(): Promise<void>;
}

export function startFakeModel(opts: FakeModelOptions = {}): FakeModel {
  const { env, ...fakeOptions } = opts;
  const fake = startFakeOllama(fakeOptions);
  return {
    fake,
    env: { ...FAST_ENV, LLM_PROVIDER: "ollama", OLLAMA_HOST: fake.url, ...env },
    stop: () => fake.close(),
  };
}

export interface ModelServer extends FakeModel {
  srv: TestApp;
  /** A production key of tenant "acme". */
  key: string;
  /** Stops the server, then the fake. */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/** Our server (in this process) generating with a fresh fake model, and a key to call it with. */
export async function startModelServer(opts: FakeModelOptions & { server?: AppOptions } = {}): Promise<ModelServer> {
  const { server, ...modelOptions } = opts;
  const model = startFakeModel(modelOptions);
  try {
    const srv = await startApp({ ...server, env: model.env });
    const key = await srv.createKey("acme", "production");
    return {
      ...model,
      srv,
      key,
      async stop(stopOpts) {
        await srv.stop(stopOpts);
        await model.stop();
      },
    };
  } catch (e) {
    await model.stop();
    throw e;
  }
}
