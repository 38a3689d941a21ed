/**
 * A stand-in sentence-embedding model for tests: a real ONNX graph shaped like a BERT encoder
 * (token embedding, then per layer four H×H projections with a residual and an H→4H→H feed-forward
 * with ReLU) with random weights, plus a WordPiece tokenizer, laid out as Hugging Face exports are
 * under MODELS_DIR/embeddings/<name>/. Real models are downloads this machine cannot make; this one
 * exercises the same loading and inference path, and at hidden 384 with 6 layers costs about what
 * all-MiniLM-L6-v2 costs per token, which makes it usable for comparing onnxruntime backends.
 * The protobuf is written by hand (a few fields of onnx.proto) to avoid a code generator.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Field = [field: number, value: number | string | Uint8Array];

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  do {
    let byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v > 0) byte |= 0x80;
    out.push(byte);
  } while (v > 0);
  return out;
}

function message(fields: Field[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [field, value] of fields) {
    if (typeof value === "number") {
      parts.push(Uint8Array.from([...varint(field << 3), ...varint(value)]));
    } else {
      const payload = typeof value === "string" ? new TextEncoder().encode(value) : value;
      parts.push(Uint8Array.from([...varint((field << 3) | 2), ...varint(payload.length)]), payload);
    }
  }
  return Buffer.concat(parts);
}

const FLOAT = 1;
const INT64 = 7;

function randomWeights(count: number, scale: number): Uint8Array {
  const w = new Float32Array(count);
  for (let i = 0; i < count; i++) w[i] = (Math.random() * 2 - 1) * scale;
  return new Uint8Array(w.buffer);
}

const tensor = (name: string, dims: number[], raw: Uint8Array) =>
  message([...dims.map((d): Field => [1, d]), [2, FLOAT], [8, name], [9, raw]]);
const valueInfo = (name: string, elemType: number, dims: (number | string)[]) =>
  message([
    [1, name],
    [
      2,
      message([
        [
          1,
          message([
            [1, elemType],
            [2, message(dims.map((d): Field => [1, message([typeof d === "number" ? [1, d] : [2, d]])]))],
          ]),
        ],
      ]),
    ],
  ]);

export interface EncoderOptions {
  hidden?: number;
  layers?: number;
  /** Words the tokenizer knows whole; any other word is split into letters. */
  words?: string[];
}

/** Writes the model into `modelsDir/embeddings/<name>/`; returns its folder. */
export function writeSyntheticEncoder(modelsDir: string, name: string, opts: EncoderOptions = {}): string {
  const hidden = opts.hidden ?? 64;
  const layers = opts.layers ?? 2;
  const chars = "abcdefghijklmnopqrstuvwxyz0123456789.,;:!?'\"()-";
  const vocabList = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ...chars, ...[...chars].map((c) => `##${c}`)];
  for (const w of opts.words ?? []) if (!vocabList.includes(w)) vocabList.push(w);

  const initializers: Uint8Array[] = [
    tensor("embeddings", [vocabList.length, hidden], randomWeights(vocabList.length * hidden, 0.5)),
  ];
  const nodes: Uint8Array[] = [];
  const node = (op: string, inputs: string[], output: string) => {
    nodes.push(message([...inputs.map((i): Field => [1, i]), [2, output], [3, `${op}_${nodes.length}`], [4, op]]));
    return output;
  };
  const weight = (name: string, rows: number, cols: number) => {
    initializers.push(tensor(name, [rows, cols], randomWeights(rows * cols, 1 / Math.sqrt(rows))));
    return name;
  };
  let h = node("Gather", ["embeddings", "input_ids"], "h0");
  for (let l = 0; l < layers; l++) {
    let a = h;
    for (let j = 0; j < 4; j++) a = node("MatMul", [a, weight(`l${l}.proj${j}`, hidden, hidden)], `l${l}.proj${j}.out`);
    const attended = node("Add", [h, a], `l${l}.attended`);
    const up = node("MatMul", [attended, weight(`l${l}.up`, hidden, 4 * hidden)], `l${l}.up.out`);
    const down = node(
      "MatMul",
      [node("Relu", [up], `l${l}.act`), weight(`l${l}.down`, 4 * hidden, hidden)],
      `l${l}.down.out`,
    );
    h = node("Add", [attended, down], l === layers - 1 ? "last_hidden_state" : `h${l + 1}`);
  }
  const graph = message([
    ...nodes.map((n): Field => [1, n]),
    [2, "synthetic-encoder"],
    ...initializers.map((t): Field => [5, t]),
    [11, valueInfo("input_ids", INT64, ["batch", "sequence"])],
    [12, valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", hidden])],
  ]);
  const model = message([
    [1, 8],
    [2, "courseforge-tests"],
    [7, graph],
    [
      8,
      message([
        [1, ""],
        [2, 13],
      ]),
    ],
  ]);

  const dir = join(modelsDir, "embeddings", name);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", "model.onnx"), model);
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ model_type: "bert", hidden_size: hidden, architectures: ["BertModel"] }),
  );
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "BertTokenizer",
      do_lower_case: true,
      model_max_length: 512,
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
    }),
  );
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const cls = { SpecialToken: { id: "[CLS]", type_id: 0 } };
  const sep = { SpecialToken: { id: "[SEP]", type_id: 0 } };
  writeFileSync(
    join(dir, "tokenizer.json"),
    JSON.stringify({
      version: "1.0",
      truncation: { direction: "Right", max_length: 512, strategy: "LongestFirst", stride: 0 },
      padding: null,
      added_tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].map((t, i) => special(i, t)),
      normalizer: {
        type: "BertNormalizer",
        clean_text: true,
        handle_chinese_chars: true,
        strip_accents: null,
        lowercase: true,
      },
      pre_tokenizer: { type: "BertPreTokenizer" },
      post_processor: {
        type: "TemplateProcessing",
        single: [cls, { Sequence: { id: "A", type_id: 0 } }, sep],
        pair: [cls, { Sequence: { id: "A", type_id: 0 } }, sep, { Sequence: { id: "B", type_id: 1 } }, sep],
        special_tokens: {
          "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] },
          "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] },
        },
      },
      decoder: { type: "WordPiece", prefix: "##", cleanup: true },
      model: {
        type: "WordPiece",
        unk_token: "[UNK]",
        continuing_subword_prefix: "##",
        max_input_chars_per_word: 100,
        vocab: Object.fromEntries(vocabList.map((w, i) => [w, i])),
      },
    }),
  );
  return dir;
}
