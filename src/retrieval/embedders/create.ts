/** Picks the embedder from EMBEDDER and EMBEDDING_MODEL (auto: a local ONNX model if one is there, else builtin). */
import type { Config } from "../../config.ts";
import { builtinEmbedder } from "./builtin.ts";
import { ollamaEmbedder } from "./ollama.ts";
import {
  embeddingsDir,
  findModel,
  inspectModel,
  type TransformersModel,
  transformersEmbedder,
} from "./transformers.ts";
import type { Embedder } from "./types.ts";

export type EmbedderConfig = Pick<
  Config,
  "embedder" | "embeddingModel" | "modelsDir" | "ollamaHost" | "llmTimeoutMs" | "llmKeepAlive"
>;

export const DEFAULT_OLLAMA_EMBEDDING_MODEL = "nomic-embed-text";

function localModel(cfg: EmbedderConfig): TransformersModel | null {
  return cfg.embeddingModel ? inspectModel(cfg.modelsDir, cfg.embeddingModel) : findModel(cfg.modelsDir);
}

export function createEmbedder(cfg: EmbedderConfig): Embedder {
  switch (cfg.embedder) {
    case "builtin":
      return builtinEmbedder();
    case "ollama":
      return ollamaEmbedder({
        hosts: cfg.ollamaHost,
        model: cfg.embeddingModel ?? DEFAULT_OLLAMA_EMBEDDING_MODEL,
        timeoutMs: cfg.llmTimeoutMs,
        keepAlive: cfg.llmKeepAlive,
      });
    case "transformers": {
      const model = localModel(cfg);
      if (!model) {
        const where = `${embeddingsDir(cfg.modelsDir)}/${cfg.embeddingModel ?? "<name>"}`;
        throw new Error(
          `EMBEDDER=transformers needs an ONNX sentence-embedding model in ${where} (config.json, tokenizer.json, onnx/model.onnx); see models/README.md`,
        );
      }
      return transformersEmbedder(model);
    }
    case "auto": {
      const model = localModel(cfg);
      return model
        ? transformersEmbedder(model, `auto: model found in ${embeddingsDir(cfg.modelsDir)}`)
        : builtinEmbedder(384, `auto: no model in ${embeddingsDir(cfg.modelsDir)}`);
    }
  }
}
