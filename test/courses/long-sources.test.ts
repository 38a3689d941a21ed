/**
 * A long source is condensed, not cut (#30): a 300-page book planned and written by a model with
 * the default 8192-token context. Every passage of every chapter's own sections reaches that
 * chapter's prompt, whole or through the condensing calls whose notes reach it; the outline's
 * prompt reaches the book's last section; every call asks for the same num_ctx, and every first
 * prompt fits it beside its reply.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { documentParagraphs } from "../../src/courses/sections.ts";
import { paragraphPassages } from "../../src/courses/source-passages.ts";
import { stopExtractionWorkers } from "../../src/ingest/index.ts";
import type { RecordedCall } from "../helpers/fake-ollama.ts";
import { call, ROOT } from "../helpers/server.ts";
import { type CourseEnv, chapterCalls, courseEnv, filesForm, outlineCalls } from "./helpers.ts";

const BOOK = join(ROOT, "../shared/corpus/books/cphb-competitive-programmers-handbook.pdf");
const NUM_CTX = 8192;

let env: CourseEnv;
beforeAll(async () => {
  env = await courseEnv({ env: { LLM_NUM_CTX: String(NUM_CTX) } });
});
afterAll(async () => {
  await env.stop();
  stopExtractionWorkers();
});

const squash = (s: string) => s.replace(/\s+/g, " ").trim();
const fingerprint = (text: string) => squash(text).slice(0, 60);
const promptOf = (c: RecordedCall) => squash(c.body!.messages.map((m: { content: string }) => m.content).join("\n"));
const isCondenseCall = (c: RecordedCall) => JSON.stringify(c.body?.format ?? "").includes('"notes"');

test("a 300-page book: every chapter's own sections reach its prompt whole or condensed, the outline reaches the end, num_ctx never changes", async () => {
  const before = env.fake!.generations().length;
  const made = await call(env.srv, "/v2/courses/generate-from-files?mode=sync", {
    key: env.key,
    user: "long",
    body: filesForm({ num_chapters: "6", search_enabled: "false" }, [
      { name: "cphb.pdf", content: await Bun.file(BOOK).bytes(), type: "application/pdf" },
    ]),
  });
  expect(made.status).toBe(200);
  const course = (await call(env.srv, `/v2/courses/${made.body.course.id}`, { key: env.key, user: "long" })).body;
  expect(course.status).toBe("completed");
  const calls = env.fake!.generations().slice(before);

  // One context size on every call, and every first prompt fits it beside the reply it allows.
  expect(new Set(calls.map((c) => c.body!.options.num_ctx))).toEqual(new Set([NUM_CTX]));
  for (const c of calls.filter((c) => c.body!.messages.length === 2)) {
    const promptTokens = promptOf(c).length / 3;
    expect(promptTokens + c.body!.options.num_predict).toBeLessThanOrEqual(NUM_CTX);
  }
  const condensing = calls.map((c, i) => ({ c, i })).filter(({ c }) => isCondenseCall(c));
  // The book is far larger than one prompt: it had to be condensed.
  expect(condensing.length).toBeGreaterThan(10);

  // Text reaches a prompt when the prompt holds it, or when a later condensing call read it and
  // one of that call's notes reaches the prompt.
  const prompts = calls.map(promptOf);
  const memo = new Map<string, boolean>();
  const reaches = (text: string, target: string, after = -1): boolean => {
    if (target.includes(text)) return true;
    const key = `${after}\u0000${text}\u0000${target.length}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    memo.set(key, false);
    const found = condensing.some(
      ({ c, i }) =>
        i > after &&
        prompts[i]!.includes(text) &&
        (JSON.parse(c.reply!).notes as { text: string }[]).some((n) => reaches(fingerprint(n.text), target, i)),
    );
    memo.set(key, found);
    return found;
  };

  const db = env.srv.svc.sql;
  const planned = course.outline.chapters as {
    title: string;
    parts: { document_id: string; from: number; to: number }[];
  }[];
  expect(planned).toHaveLength(course.chapters.length);
  const paragraphs = await documentParagraphs(db, planned[0]!.parts[0]!.document_id);
  const firstPrompts = chapterCalls(env.fake!)
    .filter((c) => calls.includes(c) && c.body!.messages.length === 2)
    .map(promptOf);
  let passages = 0;
  planned.forEach((chapter, i) => {
    const prompt = firstPrompts.find((p) =>
      p.includes(squash(`${i + 1}. ${course.chapters[i].title} <- this chapter`)),
    );
    expect(prompt).toBeDefined();
    const own = chapter.parts.flatMap((part) => paragraphPassages(paragraphs.slice(part.from, part.to)));
    const missing = own.filter((p) => !reaches(fingerprint(p.text), prompt!));
    expect(missing.map((p) => `${p.page}: ${fingerprint(p.text)}`)).toEqual([]);
    passages += own.length;
  });
  // The chapters hold the whole book between them, and nothing of it was left out.
  expect(passages).toBe(paragraphPassages(paragraphs).length);

  const [outline] = outlineCalls(env.fake!).filter((c) => calls.includes(c));
  const last = paragraphPassages(paragraphs).at(-1)!;
  expect(reaches(fingerprint(last.text), promptOf(outline!))).toBe(true);
}, 120_000);
