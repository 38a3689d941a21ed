/** Shared pieces of the course-generation tests: server + fake Ollama, polling, SSE, forms. */
import { createParser } from "eventsource-parser";
import { type AppOptions, startApp, type TestApp } from "../helpers/app.ts";
import { startModelServer } from "../helpers/fake-model.ts";
import type { FakeOllama, RecordedCall } from "../helpers/fake-ollama.ts";
import { call, FAST_ENV, type Target } from "../helpers/server.ts";

export interface CourseEnv {
  srv: TestApp;
  fake: FakeOllama | null;
  key: string;
  /** The server's settings, for restarting it on its data. */
  env: Record<string, string>;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/**
 * The server in this process generating with a fake Ollama, or with the extractive engine. It
 * listens too, so a test may restart a server process on its data and call both by URL.
 */
export async function courseEnv(
  opts: { latencyMs?: number; env?: Record<string, string>; extractive?: boolean; server?: AppOptions } = {},
): Promise<CourseEnv> {
  const server = { listen: true, ...opts.server };
  if (!opts.extractive) return startModelServer({ latencyMs: opts.latencyMs, env: opts.env, server });
  const env = { ...FAST_ENV, LLM_PROVIDER: "extractive", ...opts.env };
  const srv = await startApp({ ...server, env });
  const key = await srv.createKey("acme", "production");
  return { srv, fake: null, key, env, stop: (stopOpts) => srv.stop(stopOpts) };
}

/**
 * How long a wait polls before it fails naming what it waited for: under a test's 300 s budget, far
 * above an idle machine's seconds (a course took minutes beside other work).
 */
const WAIT_MS = 240_000;

export async function waitFor<T>(
  what: string,
  get: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = WAIT_MS,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await Bun.sleep(everyMs);
  }
}

export const progressOf = (target: Target, key: string, user: string, courseId: string) =>
  call(target, `/v2/courses/${courseId}/progress`, { key, user });

/** Polls progress until the course completes or fails; returns the last record. */
export async function settle(target: Target, key: string, user: string, courseId: string, timeoutMs = WAIT_MS) {
  const r = await waitFor(
    `course ${courseId}`,
    () => progressOf(target, key, user, courseId),
    (r) => r.status !== 200 || r.body.course_status !== "generating",
    timeoutMs,
  );
  return r.body;
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Reads an SSE response to its end (or until `stopAfter` says so, then disconnects). */
export async function readSse(
  res: Response,
  stopAfter?: (e: SseEvent, all: SseEvent[]) => boolean,
): Promise<{ events: SseEvent[]; comments: string[] }> {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let stop = false;
  const parser = createParser({
    onEvent: (m) => {
      const e = { event: m.event ?? "message", data: JSON.parse(m.data) };
      events.push(e);
      if (stopAfter?.(e, events)) stop = true;
    },
    onComment: (c) => comments.push(c.trim()),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  while (!stop) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  if (stop) await reader.cancel();
  return { events, comments };
}

/** Generation calls whose requested JSON schema is a chapter's (it has key_concepts). */
export const chapterCalls = (fake: FakeOllama): RecordedCall[] =>
  fake.generations().filter((c) => JSON.stringify(c.body?.format ?? "").includes("key_concepts"));
export const outlineCalls = (fake: FakeOllama): RecordedCall[] =>
  fake.generations().filter((c) => {
    const f = JSON.stringify(c.body?.format ?? "");
    return f.includes("objectives") && !f.includes("key_concepts");
  });

/** A multipart form for generate-from-files. */
export function filesForm(
  fields: Record<string, string>,
  files: { name: string; content: string | Uint8Array; type?: string }[] = [],
): FormData {
  const form = new FormData();
  for (const f of files)
    form.append(
      "files",
      new Blob([typeof f.content === "string" ? f.content : f.content.slice()], {
        type: f.type ?? "application/octet-stream",
      }),
      f.name,
    );
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

export async function postForm(target: Target, path: string, key: string, user: string, form: FormData) {
  return call(target, path, { key, user, method: "POST", body: form });
}

/**
 * A course generated in sync mode from `form` (see `filesForm`), as `GET /v2/courses/{id}` shows it
 * to `user`; a failed generation throws with the server's answer.
 */
export async function syncCourse(env: CourseEnv, form: FormData, user = "reader"): Promise<any> {
  const made = await call(env.srv, "/v2/courses/generate-from-files?mode=sync", { key: env.key, user, body: form });
  if (made.status !== 200) throw new Error(`generation answered ${made.status}: ${made.text.slice(0, 300)}`);
  const course = await call(env.srv, `/v2/courses/${made.body.course.id}`, { key: env.key, user });
  return course.body;
}

/** A form for generate-from-files with one corpus file and `num_chapters` 4. */
export const corpusForm = async (path: string, fields: Record<string, string> = { num_chapters: "4" }) =>
  filesForm(fields, [{ name: path.split("/").pop()!, content: await Bun.file(path).bytes() }]);

/** Short notes with two sections, titled `title`: a one-chapter course that builds in moments. */
export const tidesNotes = (title = "Tides") =>
  [
    `# ${title}`,
    "",
    "## Causes",
    "",
    "Tides rise and fall twice a day because the Moon's gravity pulls the oceans toward it. The Sun adds a smaller pull of its own, about half as strong as the Moon's.",
    "",
    "## Kinds",
    "",
    "Spring tides come when the Sun and the Moon line up, and their range is the largest of the month. Neap tides come when they stand at right angles, and their range is the smallest.",
  ].join("\n");
