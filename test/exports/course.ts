/**
 * A real course for the export tests: generated through the API (extractive engine, no model) from
 * a markdown file and a paper of the shared corpus, with the materials a learner would have made:
 * flashcards, an exam, notes and podcast episodes. Its topic is hostile, so every package shows how it escapes text.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { startApp, type TestApp } from "../helpers/app.ts";
import { fileHash, runCached, runDir } from "../helpers/run-cache.ts";
import { call, ROOT, tempDir } from "../helpers/server.ts";
import { BIOLOGY } from "../materials/fixtures.ts";
import { writeFakePiperVoice } from "../podcasts/fixtures/fake-piper-voice.ts";

/** A 13-page paper: enough text for a 10-question exam beside the chapter quizzes. */
const PAPER = join(ROOT, "../shared/corpus/pdf/dpr-paper-multi-column.pdf");

/** Markup, a path, a forbidden character reference, an undefined entity and escaped markup: each must reach every package as the text it is. */
export const HOSTILE_TOPIC = `Cell biology <script>alert("x")</script> & ../../etc/passwd &#0; &xxe; &lt;b&gt;`;

/** A paragraph of document text that tries to inject markup into rendered pages. */
const HOSTILE_TEXT = `Membranes and markup. The cell membrane is described in <img src=x onerror="alert(1)"> many textbooks and <script>document.title="pwned"</script> lab manuals as a selectively permeable barrier.`;

export interface ExportCourseEnv {
  srv: TestApp;
  key: string;
  user: string;
  courseId: string;
  stop(): Promise<void>;
}

/**
 * The export tests' server settings. Stand-in Piper voices speak the episodes: the packages and the
 * feed carry whatever MP3s the course has, and eSpeak's real speech of the paper's chapters (ten
 * minutes of audio, encoded) was most of the course's CPU and outlasted the set-up beside other
 * work (speech has its own tests). The voices are kept in the run's directory for every server of
 * the course's copies: the feed test speaks an episode again.
 */
const APP_ENV = { RATE_LIMIT_PER_MINUTE: "10000", PIPER_HOST_VOICE: "host", PIPER_GUEST_VOICE: "guest" };
const appEnv = () => ({ ...APP_ENV, MODELS_DIR: join(runDir(), "export-voices") });
const VOICE = { phonemeIdMap: { _: [0], "^": [1], $: [2] } };

interface BuiltCourse {
  /** The stopped server's data directory, copied by every test file that exports the course. */
  dataDir: string;
  key: string;
  courseId: string;
}

const USER = "learner";

/** Generates the course with every material and its episodes, then stops its server and keeps its data. */
async function buildCourse(): Promise<BuiltCourse> {
  const dataDir = mkdtempSync(join(runDir(), "export-course-"));
  for (const voice of ["host", "guest"]) await writeFakePiperVoice(join(appEnv().MODELS_DIR, "piper"), voice, VOICE);
  const srv = await startApp({ dataDir, env: appEnv() });
  const key = await srv.createKey("acme", "production");
  const user = USER;
  const form = new FormData();
  const text = [...BIOLOGY.map((c) => c.content), HOSTILE_TEXT].join("\n\n");
  form.append("files", new File([text], "cell-biology.md", { type: "text/markdown" }));
  form.append("files", new File([await Bun.file(PAPER).arrayBuffer()], "dpr-paper.pdf", { type: "application/pdf" }));
  form.append("num_chapters", "3");
  form.append("topic", HOSTILE_TOPIC);
  const r = await call(srv, "/v2/courses/generate-from-files?mode=sync", { key, user, body: form });
  if (r.status !== 200) throw new Error(`course generation failed: ${r.status} ${r.text}`);
  const courseId: string = r.body.course.id;
  for (const [path, json] of [
    ["generate-flashcards", {}],
    ["generate-exam", { exam_size: 10 }],
    ["generate-notes", {}],
  ] as const) {
    const m = await call(srv, `/v2/courses/${courseId}/${path}`, { key, user, json });
    if (m.status !== 200) throw new Error(`${path} failed: ${m.status} ${m.text}`);
  }
  const g = await call(srv, `/v2/courses/${courseId}/podcasts/generate?tts_provider=provider_a`, {
    key,
    user,
    json: {},
  });
  if (g.status !== 200) throw new Error(`podcasts failed: ${g.status} ${g.text}`);
  // Speech of every chapter: seconds idle, a minute on a loaded machine.
  const deadline = Date.now() + 480_000;
  for (;;) {
    const l = await call(srv, `/v2/courses/${courseId}/podcasts`, { key, user });
    if (l.body.count > 0 && l.body.episodes.every((e: { status: string }) => e.status === "ready")) break;
    if (l.body.episodes?.some((e: { status: string }) => e.status === "error"))
      throw new Error(`episode failed: ${l.text}`);
    if (Date.now() > deadline) throw new Error(`episodes still generating: ${l.text}`);
    await Bun.sleep(200);
  }
  await srv.stop({ keepData: true });
  return { dataDir, key, courseId };
}

/**
 * A server in this process on its own copy of the course's data. The course, its materials and
 * its episodes are generated once per run (helpers/run-cache.ts) for every export test file: a
 * course from the paper and the episodes' speech are most of these files' CPU. It listens: the
 * podcast feed test hands its URLs to podget, a real client.
 */
export async function exportCourse(): Promise<ExportCourseEnv> {
  const built = await runCached(
    "export-course",
    [fileHash(PAPER), BIOLOGY, HOSTILE_TEXT, HOSTILE_TOPIC, APP_ENV, VOICE],
    buildCourse,
    // Under the export files' 600 s set-up: speech of three chapters took minutes beside other work.
    580_000,
  );
  const dataDir = tempDir();
  cpSync(built.dataDir, dataDir, { recursive: true });
  const srv = await startApp({ dataDir, listen: true, env: appEnv() });
  return { srv, key: built.key, user: USER, courseId: built.courseId, stop: () => srv.stop() };
}

/** GET export as bytes, with status and headers. */
export async function download(env: ExportCourseEnv, format: string, user = env.user) {
  const res = await env.srv.fetch(`/v2/courses/${env.courseId}/export?format=${format}`, {
    headers: { "x-api-key": env.key, "x-external-user-id": user },
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
