/** What every embedder provides; vectors are L2-normalised, so a dot product is their cosine. */
export interface Embedder {
  /** Names the vector space, e.g. builtin-hash-384 or transformers:all-MiniLM-L6-v2; stored on every chunk. */
  readonly id: string;
  /** Length of the vectors (for Ollama, known after the first call; 0 before). */
  readonly dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** One line for the startup log: kind, model and why it was chosen. */
  describe(): string;
}

export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
