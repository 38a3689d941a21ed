import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { AppError } from "../../src/errors.ts";
import { builtinEmbedder } from "../../src/retrieval/embedders/builtin.ts";
import { createEmbedder } from "../../src/retrieval/embedders/create.ts";
import { ollamaEmbedder } from "../../src/retrieval/embedders/ollama.ts";
import { findModel, transformersEmbedder } from "../../src/retrieval/embedders/transformers.ts";
import { writeSyntheticEncoder } from "../build/synthetic-encoder.ts";
import { startFakeOllama } from "../helpers/fake-ollama.ts";
import { cleanup, ROOT, tempDir } from "../helpers/server.ts";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

const dirs: string[] = [];
afterAll(() => dirs.forEach(cleanup));

describe("builtin embedder", () => {
  const e = builtinEmbedder();

  test("is deterministic, 384-dimensional and unit length", async () => {
    const [a, b] = await e.embed(["Mitochondria produce ATP.", "Mitochondria produce ATP."]);
    expect(e.id).toBe("builtin-hash-384");
    expect(a!.length).toBe(384);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(norm(a!)).toBeCloseTo(1, 5);
    // Same vector in a fresh instance (nothing depends on process state).
    const [c] = await builtinEmbedder().embed(["Mitochondria produce ATP."]);
    expect(Array.from(c!)).toEqual(Array.from(a!));
  });

  test("makes the vectors it always made, so stored chunks stay comparable with new ones", async () => {
    // The digest of these vectors as the string-keyed embedder of before #28's speed-up made them.
    const vectors = await e.embed([
      "Mitochondria produce ATP in the inner membrane; ATP synthase turns.",
      "Don't café naïve covid-19 3.5 it’s John's Ωmega 日本語",
      "the of and",
    ]);
    const hash = new Bun.CryptoHasher("sha1");
    for (const v of vectors) hash.update(new Uint8Array(v.buffer));
    expect(hash.digest("hex")).toBe("9781060c22280c769d6782573c95e7dccf38bb84");
  });

  test("ranks texts sharing content words (in any inflection) above unrelated ones", async () => {
    const [q, near, inflected, far] = await e.embed([
      "How do vaccines train the immune system?",
      "Vaccines train the immune system to recognise a pathogen.",
      "Vaccination trains immunity: the system learns to recognize pathogens.",
      "The stock market closed higher on Friday after earnings reports.",
    ]);
    expect(dot(q!, near!)).toBeGreaterThan(dot(q!, far!) + 0.2);
    expect(dot(q!, inflected!)).toBeGreaterThan(dot(q!, far!) + 0.1);
  });

  test("ignores stopwords and still embeds a text of stopwords only", async () => {
    const [a, b, only] = await e.embed(["the cat sat on the mat", "cat sat mat", "the of and"]);
    expect(dot(a!, b!)).toBeCloseTo(1, 5);
    expect(only!.every((x) => Number.isFinite(x))).toBe(true);
  });
});

describe("transformers embedder on an ONNX model built here", () => {
  const modelsDir = tempDir("cf-models-");
  dirs.push(modelsDir);
  writeSyntheticEncoder(modelsDir, "synthetic", { hidden: 48, words: ["tides", "moon", "the"] });
  const e = transformersEmbedder(findModel(modelsDir)!);

  test("gives unit vectors of the model's width, the same for the same text", async () => {
    const [a, b, c] = await e.embed(["The moon raises the tides.", "The moon raises the tides.", "Rates rose."]);
    expect(e.id).toBe("transformers:synthetic");
    expect(e.dimension).toBe(48);
    expect(a!.length).toBe(48);
    expect(norm(a!)).toBeCloseTo(1, 4);
    expect(Array.from(b!)).toEqual(Array.from(a!));
    expect(dot(a!, c!)).toBeLessThan(0.9999);
  });

  test("a text's vector does not depend on the longer texts batched with it (padding is masked)", async () => {
    const [alone] = await e.embed(["tides"]);
    const [batched] = await e.embed(["tides", "the moon and the tides and the moon again, for a long while"]);
    for (let i = 0; i < alone!.length; i++) expect(batched![i]!).toBeCloseTo(alone![i]!, 4);
  });

  test("reads a text longer than the model's 512 positions up to the limit, as BERT models must", async () => {
    const moons = Array.from({ length: 3000 }, () => "moon").join(" ");
    const [long, longer] = await e.embed([moons, `${moons} tides tides tides`]);
    expect(norm(long!)).toBeCloseTo(1, 4);
    expect(Array.from(longer!)).toEqual(Array.from(long!));
  });
});

describe("transformers embedder on a local model", () => {
  const model = findModel(loadConfig().modelsDir);
  if (!model)
    console.warn(
      `SKIPPED transformers embedder: no ONNX model under ${join(ROOT, "models/embeddings")} (see models/README.md)`,
    );

  test.skipIf(!model)("embeds with the local ONNX model: unit vectors, related texts closer", async () => {
    const e = transformersEmbedder(model!);
    const [q, near, far] = await e.embed([
      "A cat sits on the mat.",
      "A kitten is lying on a rug.",
      "Interest rates rose sharply.",
    ]);
    expect(e.id).toBe(`transformers:${model!.name}`);
    expect(q!.length).toBe(e.dimension);
    expect(norm(q!)).toBeCloseTo(1, 4);
    expect(dot(q!, near!)).toBeGreaterThan(dot(q!, far!));
  });
});

describe("ollama embedder", () => {
  const fake = startFakeOllama();
  afterAll(() => fake.close());

  test("calls /api/embed in batches and returns unit vectors of the model's dimension", async () => {
    const e = ollamaEmbedder({ hosts: [fake.url], model: "nomic-embed-text", timeoutMs: 5000, keepAlive: "5m" });
    expect(e.dimension).toBe(0);
    const texts = Array.from({ length: 40 }, (_, i) => `text number ${i}`);
    const before = fake.calls.filter((c) => c.path === "/api/embed").length;
    const vectors = await e.embed(texts);
    expect(vectors).toHaveLength(40);
    expect(e.dimension).toBe(384);
    expect(e.id).toBe("ollama:nomic-embed-text");
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 4);
    const calls = fake.calls.filter((c) => c.path === "/api/embed").slice(before);
    expect(calls.length).toBe(2);
    expect(calls[0]!.body!.model).toBe("nomic-embed-text");
  });

  test("falls back to the next host when one is down, and fails with 503 when all are", async () => {
    const e = ollamaEmbedder({ hosts: ["http://127.0.0.1:9", fake.url], model: "m", timeoutMs: 5000, keepAlive: "5m" });
    expect(await e.embed(["hello"])).toHaveLength(1);
    fake.behave("down", 1);
    const dead = ollamaEmbedder({
      hosts: [fake.url, "http://127.0.0.1:9"],
      model: "m",
      timeoutMs: 5000,
      keepAlive: "5m",
    });
    const err = await dead.embed(["hello"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(503);
    expect((err as AppError).code).toBe("EMBEDDER_UNAVAILABLE");
  });
});

describe("embedder selection", () => {
  const base = { embeddingModel: null, ollamaHost: ["http://127.0.0.1:9"], llmTimeoutMs: 1000, llmKeepAlive: "5m" };

  test("auto is builtin without a model, transformers with one; transformers without one is a clear error", () => {
    const empty = tempDir("cf-models-");
    dirs.push(empty);
    expect(createEmbedder({ ...base, embedder: "auto", modelsDir: empty }).id).toBe("builtin-hash-384");
    expect(() => createEmbedder({ ...base, embedder: "transformers", modelsDir: empty })).toThrow(/models\/README\.md/);

    const withModel = tempDir("cf-models-");
    dirs.push(withModel);
    const dir = join(withModel, "embeddings", "tiny-model");
    mkdirSync(join(dir, "onnx"), { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ hidden_size: 8 }));
    writeFileSync(join(dir, "tokenizer.json"), "{}");
    writeFileSync(join(dir, "onnx", "model_quantized.onnx"), "");
    const picked = createEmbedder({ ...base, embedder: "auto", modelsDir: withModel });
    expect(picked.id).toBe("transformers:tiny-model");
    expect(picked.dimension).toBe(8);
    expect(picked.describe()).toContain("q8");
  });

  test("ollama uses EMBEDDING_MODEL, or nomic-embed-text by default", () => {
    expect(createEmbedder({ ...base, embedder: "ollama", modelsDir: "/nonexistent" }).id).toBe(
      "ollama:nomic-embed-text",
    );
    expect(createEmbedder({ ...base, embedder: "ollama", embeddingModel: "bge-m3", modelsDir: "/x" }).id).toBe(
      "ollama:bge-m3",
    );
  });
});
