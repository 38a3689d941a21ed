/**
 * Turning a model's reply into a schema-valid value: lenient JSON parsing (code fences, prose
 * around the object, trailing commas, truncation via jsonrepair), light coercion, and validation
 * messages short enough to send back to the model.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { jsonrepair } from "jsonrepair";

export type ParseResult = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

const FENCE = /```(?:json|JSON)?\s*([\s\S]*?)(?:```|$)/;

// A reply wrapped whole in one fence: what lies between is the object, fences inside its strings included.
const WRAPPED = /^```(?:json|JSON)?\s*([{[][\s\S]*[}\]])\s*```$/;

export function parseJsonReply(reply: string): ParseResult {
  let text = reply.trim();
  // The reply as it stands first: a code example in a string may hold fences of its own.
  const whole = WRAPPED.exec(text)?.[1] ?? text;
  if (/^[{[]/.test(whole)) {
    try {
      return { ok: true, value: JSON.parse(whole), repaired: whole !== reply };
    } catch {
      // Repaired below.
    }
  }
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

/** Fixes what is safe to fix without asking again: "2" for 2, unknown extra keys. */
export function normalize<S extends TSchema>(schema: S, value: unknown): unknown {
  return Value.Clean(schema, Value.Convert(schema, value));
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
