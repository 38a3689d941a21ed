/**
 * Turning a model's reply into a schema-valid value: lenient JSON parsing (code fences, prose
 * around the object, trailing commas, truncation via jsonrepair), light coercion, and validation
 * messages short enough to send back to the model.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { jsonrepair } from "jsonrepair";

export type ParseResult = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

// A reasoning model's thinking aloud before its answer ("<think>…</think>"), closed or cut off.
const REASONING = /<(think|thinking|reasoning)>[\s\S]*?(<\/\1>|$)/gi;

/** `reply` without the reasoning a model wrote before (or instead of) its answer. */
export const withoutReasoning = (reply: string) => reply.replace(REASONING, "").trim();

const FENCE = /```(?:json|JSON)?\s*([\s\S]*?)(?:```|$)/;

export function parseJsonReply(reply: string): ParseResult {
  let text = reply.trim();
  const fenced = FENCE.exec(text);
  if (fenced?.[1] !== undefined) text = fenced[1].trim();
  const start = text.search(/[{[]/);
  if (start < 0) return { ok: false, error: "the reply contains no JSON object" };
  text = text.slice(start);
  try {
    return { ok: true, value: JSON.parse(text), repaired: text !== reply };
  } catch {
    try {
      return { ok: true, value: JSON.parse(jsonrepair(text)), repaired: true };
    } catch (err) {
      return { ok: false, error: `the reply is not valid JSON (${(err as Error).message.slice(0, 160)})` };
    }
  }
}

/** Fixes what is safe to fix without asking again: "2" for 2, unknown extra keys, lists longer than allowed. */
export function normalize<S extends TSchema>(schema: S, value: unknown): unknown {
  return withinMaxItems(schema, Value.Clean(schema, Value.Convert(schema, value)));
}

/**
 * `value` with every list cut to its schema's `maxItems`: a model that ignores "3-5 questions"
 * and writes eight has written five good ones, and asking again rarely makes it write fewer.
 */
function withinMaxItems(schema: TSchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items as TSchema | undefined;
    const kept = typeof schema.maxItems === "number" ? value.slice(0, schema.maxItems) : value;
    return items ? kept.map((v) => withinMaxItems(items, v)) : kept;
  }
  if (value && typeof value === "object" && schema.properties) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [key, sub] of Object.entries(schema.properties as Record<string, TSchema>)) {
      if (key in out) out[key] = withinMaxItems(sub, out[key]);
    }
    return out;
  }
  return value;
}

export function validationErrors<S extends TSchema>(schema: S, value: unknown, max = 12): string[] {
  const out: string[] = [];
  for (const e of Value.Errors(schema, value)) {
    out.push(`${e.path || "(root)"}: ${e.message}`);
    if (out.length >= max) break;
  }
  return out;
}

export function isValid<S extends TSchema>(schema: S, value: unknown): value is Static<S> {
  return Value.Check(schema, value);
}

/** The JSON Schema document to send to a provider (TypeBox's symbols stripped). */
export const toJsonSchema = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));
