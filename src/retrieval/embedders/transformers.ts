/**
 * Sentence embeddings from an ONNX model on disk, run by @huggingface/transformers (onnxruntime).
 * Never reaches the hub: remote models are disabled and the model is read from
 * MODELS_DIR/embeddings/<name>/ (see models/README.md). The library is imported on the first
 * call, so a server that never embeds with it does not pay its memory.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadOnnxRuntime } from "../../onnx/runtime.ts";
import { type Embedder, l2Normalize } from "./types.ts";

/** ONNX file names transformers.js knows, with the dtype that selects each, in order of preference. */
const ONNX_FILES: [file: string, dtype: "fp32" | "q8" | "fp16" | "int8" | "uint8" | "q4"][] = [
  ["model.onnx", "fp32"],
  ["model_quantized.onnx", "q8"],
  ["model_fp16.onnx", "fp16"],
  ["model_int8.onnx", "int8"],
  ["model_uint8.onnx", "uint8"],
  ["model_q4.onnx", "q4"],
];

const BATCH = 16;

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

function hiddenSizeOf(model: TransformersModel): number {
  const cfg = JSON.parse(readFileSync(join(model.root, model.name, "config.json"), "utf8")) as {
    hidden_size?: number;
    dim?: number;
    d_model?: number;
  };
  return cfg.hidden_size ?? cfg.dim ?? cfg.d_model ?? 0;
}

type Extractor = (
  texts: string[],
  opts: { pooling: "mean" | "cls"; normalize: boolean },
) => Promise<{ dims: number[]; data: Float32Array }>;

export function transformersEmbedder(model: TransformersModel, reason = "configured"): Embedder {
  let extractor: Promise<Extractor> | null = null;
  const load = async (): Promise<Extractor> => {
    await loadOnnxRuntime();
    const { env, pipeline } = await import("@huggingface/transformers");
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = model.root;
    env.useFSCache = false;
    const pipe = await pipeline("feature-extraction", model.name, {
      dtype: model.dtype,
      subfolder: model.subfolder,
      local_files_only: true,
    });
    return pipe as unknown as Extractor;
  };
  let dimension = hiddenSizeOf(model);
  const id = `transformers:${model.name}`;
  return {
    id,
    get dimension() {
      return dimension;
    },
    async embed(texts) {
      extractor ??= load().catch((err: unknown) => {
        extractor = null;
        throw err;
      });
      const run = await extractor;
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH);
        const tensor = await run(batch, { pooling: model.pooling, normalize: true });
        const dim = tensor.dims[tensor.dims.length - 1]!;
        dimension = dim;
        for (let r = 0; r < batch.length; r++)
          out.push(l2Normalize(Float32Array.from(tensor.data.subarray(r * dim, (r + 1) * dim))));
      }
      return out;
    },
    describe: () => `${id} (${model.dtype}, ${model.pooling} pooling; ${reason})`,
  };
}
