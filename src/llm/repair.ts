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

const OPENING = /^\s*<(think|thinking|reasoning)>/i;

/**
 * A streamed reply's pieces with a leading reasoning block left out: the start is held back until
 * it is clearly not an opening tag, everything up to the closing tag is dropped, and so is the
 * white space after it.
 */
export class ReasoningFilter {
  private held = "";
  private closing = "";
  private state: "start" | "inside" | "after" | "passing" = "start";

  /** What of `delta` the reader may see now. */
  push(delta: string): string {
    if (this.state === "passing") return delta;
    this.held += delta;
    if (this.state === "start") {
      const open = OPENING.exec(this.held);
      if (!open) {
        // Still possibly the start of an opening tag ("<thi"): wait for more.
        if (/^\s*<[a-z]*$/i.test(this.held)) return "";
        return this.release(this.held);
      }
      this.closing = `</${open[1]!.toLowerCase()}>`;
      this.held = this.held.slice(open[0].length);
      this.state = "inside";
    }
    if (this.state === "inside") {
      const end = this.held.toLowerCase().indexOf(this.closing);
      if (end < 0) return "";
      this.held = this.held.slice(end + this.closing.length);
      this.state = "after";
    }
    const rest = this.held.trimStart();
    return rest ? this.release(rest) : "";
  }

  private release(text: string): string {
    this.state = "passing";
    this.held = "";
    return text;
  }
}

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
