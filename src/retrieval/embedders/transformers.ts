/**
 * Sentence embeddings from a sentence-transformers model exported to ONNX, run directly on
 * onnxruntime-node with the model's own tokenizer.json (@huggingface/tokenizers). Nothing reaches
 * the network: the model is read from MODELS_DIR/embeddings/<name>/ (see models/README.md). The
 * runtime is loaded on the first call, so a server that never embeds with it does not pay its memory.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Tokenizer } from "@huggingface/tokenizers";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import { loadOnnxRuntime } from "../../onnx/runtime.ts";
import { type Embedder, l2Normalize } from "./types.ts";

/** The ONNX file names of Hugging Face exports, with the weights' type each holds, in order of preference. */
const ONNX_FILES: [file: string, dtype: "fp32" | "q8" | "fp16" | "int8" | "uint8" | "q4"][] = [
  ["model.onnx", "fp32"],
  ["model_quantized.onnx", "q8"],
  ["model_fp16.onnx", "fp16"],
  ["model_int8.onnx", "int8"],
  ["model_uint8.onnx", "uint8"],
  ["model_q4.onnx", "q4"],
];

const BATCH = 16;
/** BERT's position limit, for a tokenizer_config.json that states none. */
const DEFAULT_MAX_TOKENS = 512;

export interface TransformersModel {
  name: string;
  /** MODELS_DIR/embeddings */
  root: string;
  subfolder: "onnx" | "";
  dtype: (typeof ONNX_FILES)[number][1];
  pooling: "mean" | "cls";
}

export const embeddingsDir = (modelsDir: string) => join(modelsDir, "embeddings");

/** The model folder's layout, or null when it is not a usable model (missing tokenizer or ONNX file). */
export function inspectModel(modelsDir: string, name: string): TransformersModel | null {
  const root = embeddingsDir(modelsDir);
  const dir = join(root, name);
  if (!existsSync(join(dir, "tokenizer.json")) || !existsSync(join(dir, "config.json"))) return null;
  for (const subfolder of ["onnx", ""] as const) {
    const found = ONNX_FILES.find(([file]) => existsSync(join(dir, subfolder, file)));
    if (found) return { name, root, subfolder, dtype: found[1], pooling: poolingOf(dir) };
  }
  return null;
}

/** sentence-transformers records its pooling in 1_Pooling/config.json; BERT-style models default to mean. */
function poolingOf(dir: string): "mean" | "cls" {
  const file = join(dir, "1_Pooling", "config.json");
  if (!existsSync(file)) return "mean";
  const cfg = JSON.parse(readFileSync(file, "utf8")) as { pooling_mode_cls_token?: boolean };
  return cfg.pooling_mode_cls_token ? "cls" : "mean";
}

/** The first usable model folder under MODELS_DIR/embeddings, by name. */
export function findModel(modelsDir: string): TransformersModel | null {
  const root = embeddingsDir(modelsDir);
  if (!existsSync(root)) return null;
  for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const model = inspectModel(modelsDir, entry.name);
    if (model) return model;
  }
  return null;
}

const readJson = (path: string): Record<string, unknown> =>
  existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>) : {};

function hiddenSizeOf(model: TransformersModel): number {
  const cfg = readJson(join(model.root, model.name, "config.json")) as {
    hidden_size?: number;
    dim?: number;
    d_model?: number;
  };
  return cfg.hidden_size ?? cfg.dim ?? cfg.d_model ?? 0;
}

interface Loaded {
  ort: Awaited<ReturnType<typeof loadOnnxRuntime>>;
  session: InferenceSession;
  tokenizer: Tokenizer;
  maxTokens: number;
  padId: number;
}

async function load(model: TransformersModel): Promise<Loaded> {
  const dir = join(model.root, model.name);
  const config = readJson(join(dir, "tokenizer_config.json")) as { model_max_length?: number; pad_token?: unknown };
  // Imported here, not at server start, like the runtime below.
  const { Tokenizer } = await import("@huggingface/tokenizers");
  const tokenizer = new Tokenizer(readJson(join(dir, "tokenizer.json")), config);
  const ort = await loadOnnxRuntime();
  const file = ONNX_FILES.find(([, dtype]) => dtype === model.dtype)![0];
  const session = await ort.InferenceSession.create(join(dir, model.subfolder, file));
  // Tokenizer configs often say 1e30 ("no limit"); the position embeddings still stop at 512.
  const stated = config.model_max_length ?? DEFAULT_MAX_TOKENS;
  const padToken = typeof config.pad_token === "string" ? config.pad_token : "[PAD]";
  return {
    ort,
    session,
    tokenizer,
    maxTokens: Math.min(stated, DEFAULT_MAX_TOKENS),
    padId: tokenizer.token_to_id(padToken) ?? 0,
  };
}

/** Token ids of each text, cut to `max` tokens keeping the closing special token. */
function encodeBatch({ tokenizer, maxTokens }: Loaded, texts: string[]) {
  return texts.map((text) => {
    const { ids, token_type_ids } = tokenizer.encode(text, { return_token_type_ids: true });
    if (ids.length <= maxTokens) return { ids, types: token_type_ids };
    return {
      ids: [...ids.slice(0, maxTokens - 1), ids.at(-1)!],
      types: [...token_type_ids.slice(0, maxTokens - 1), token_type_ids.at(-1)!],
    };
  });
}

/** One vector per text: the model's pooled output when it has one, else its token states pooled. */
async function embedBatch(loaded: Loaded, texts: string[], pooling: "mean" | "cls"): Promise<Float32Array[]> {
  const { ort, session, padId } = loaded;
  const encoded = encodeBatch(loaded, texts);
  const length = Math.max(...encoded.map((e) => e.ids.length));
  const ids = new BigInt64Array(texts.length * length).fill(BigInt(padId));
  const mask = new BigInt64Array(texts.length * length);
  const types = new BigInt64Array(texts.length * length);
  encoded.forEach((e, r) => {
    e.ids.forEach((id, t) => {
      ids[r * length + t] = BigInt(id);
      mask[r * length + t] = 1n;
      types[r * length + t] = BigInt(e.types[t] ?? 0);
    });
  });
  const shape = [texts.length, length];
  const inputs: Record<string, Tensor> = {};
  const available = { input_ids: ids, attention_mask: mask, token_type_ids: types };
  for (const name of session.inputNames) {
    const data = available[name as keyof typeof available];
    if (!data) throw new Error(`the embedding model asks for an input this embedder does not make: ${name}`);
    inputs[name] = new ort.Tensor("int64", data, shape);
  }
  const output = (await session.run(inputs))[session.outputNames[0]!]!;
  const data = output.data as Float32Array;
  const dim = output.dims.at(-1)!;
  if (output.dims.length === 2)
    return texts.map((_, r) => l2Normalize(Float32Array.from(data.subarray(r * dim, (r + 1) * dim))));
  return encoded.map((e, r) => {
    const row = r * length * dim;
    if (pooling === "cls") return l2Normalize(Float32Array.from(data.subarray(row, row + dim)));
    const sum = new Float32Array(dim);
    for (let t = 0; t < e.ids.length; t++) for (let d = 0; d < dim; d++) sum[d] = sum[d]! + data[row + t * dim + d]!;
    for (let d = 0; d < dim; d++) sum[d] = sum[d]! / e.ids.length;
    return l2Normalize(sum);
  });
}

export function transformersEmbedder(model: TransformersModel, reason = "configured"): Embedder {
  let loading: Promise<Loaded> | null = null;
  let dimension = hiddenSizeOf(model);
  const id = `transformers:${model.name}`;
  return {
    id,
    get dimension() {
      return dimension;
    },
    async embed(texts) {
      loading ??= load(model).catch((err: unknown) => {
        loading = null;
        throw err;
      });
      const loaded = await loading;
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const vectors = await embedBatch(loaded, texts.slice(i, i + BATCH), model.pooling);
        dimension = vectors[0]?.length ?? dimension;
        out.push(...vectors);
      }
      return out;
    },
    describe: () => `${id} (${model.dtype}, ${model.pooling} pooling; ${reason})`,
  };
}
