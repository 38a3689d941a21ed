/**
 * One bad source beside a good one gets the same answer on every upload endpoint (README, API
 * decisions, "A bad source among good ones"): an empty file or a page address sent as a video is
 * that source's failure, with its reason, and the good source is used (process indexes it, extract
 * returns it, generate-from-files builds the course from it); an unsupported file type is 415 for
 * the whole request, naming the file, and nothing is stored.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type CourseEnv, courseEnv, filesForm, postForm, readSse } from "../courses/helpers.ts";
import { LIGHT_REACTIONS } from "../courses/sources.ts";
import { call, errorOf, request, type Target } from "../helpers/server.ts";

// Whole course generations run against a real server.
setDefaultTimeout(300_000);

let env: CourseEnv;
let url: Target;
let key: string;

beforeAll(async () => {
  env = await courseEnv({ extractive: true });
  url = env.srv;
  key = env.key;
});
afterAll(() => env.stop());

const good = { name: "light.md", content: LIGHT_REACTIONS, type: "text/markdown" };
const empty = { name: "empty.md", content: "" };
const exe = {
  name: "tool.exe",
  content: new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0, 0, 0xff, 0xff, 0, 0]),
};
const PAGE = "https://example.org/lecture-page";

/** The bad sources beside the good file, with what their failure says. */
const PER_SOURCE: {
  what: string;
  fields: Record<string, string>;
  files: { name: string; content: string; type?: string }[];
  name: string;
  reason: RegExp;
}[] = [
  { what: "an empty file", fields: {}, files: [good, empty], name: "empty.md", reason: /empty/ },
  {
    what: "a page address sent as a video",
    fields: { youtube_urls: JSON.stringify([PAGE]) },
    files: [good],
    name: PAGE,
    reason: /not a YouTube video URL/,
  },
];

function blobCount(): number {
  try {
    return readdirSync(join(env.srv.dataDir, "blobs"), { recursive: true }).filter((f) => String(f).includes("."))
      .length;
  } catch {
    return 0;
  }
}

function documentRows(): number {
  const db = new Database(join(env.srv.dataDir, "courseforge.db"), { readonly: true });
  try {
    return db.query<{ n: number }, []>("SELECT count(*) AS n FROM documents").get()!.n;
  } finally {
    db.close();
  }
}

describe("a bad source beside a good one", () => {
  for (const c of PER_SOURCE) {
    test(`process: ${c.what} is that entry's error; the good one is indexed and answers`, async () => {
      const user = `process-${c.name.length}`;
      const r = await postForm(url, "/v2/documents/process", key, user, filesForm(c.fields, c.files));
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(2);
      expect(r.body.ready).toBe(1);
      expect(r.body.errored).toBe(1);
      const [ok, bad] = r.body.documents;
      expect(ok.filename).toBe("light.md");
      expect(ok.status).toBe("ready");
      expect(ok.chunk_count).toBeGreaterThan(0);
      expect(bad.filename).toBe(c.name);
      expect(bad.status).toBe("error");
      expect(bad.error).toMatch(c.reason);
      const q = await call(url, "/v2/documents/query", {
        key,
        user,
        json: { question: "Where do the light reactions happen?", document_ids: [ok.id] },
      });
      expect(q.status).toBe(200);
      expect(q.body.sources[0].document_id).toBe(ok.id);
    });

    test(`extract: ${c.what} is that entry's error, not billed; the good one has its markdown`, async () => {
      const r = await postForm(url, "/v2/documents/extract", key, "extractor", filesForm(c.fields, c.files));
      expect(r.status).toBe(200);
      expect(r.body.ready).toBe(1);
      expect(r.body.errored).toBe(1);
      const [ok, bad] = r.body.documents;
      expect(ok.status).toBe("ready");
      expect(ok.markdown).toContain("thylakoid");
      expect(ok.billed_amount_usd).toBeGreaterThan(0);
      expect(bad.filename).toBe(c.name);
      expect(bad.status).toBe("error");
      expect(bad.error_message).toMatch(c.reason);
      expect(bad.billed_amount_usd).toBe(0);
      expect(r.body.total_billed_usd).toBe(ok.billed_amount_usd);
    });

    test(`generate-from-files: ${c.what} is that source's failure; the course is built from the good one`, async () => {
      const user = `course-${c.name.length}`;
      const r = await postForm(
        url,
        "/v2/courses/generate-from-files?mode=sync",
        key,
        user,
        filesForm({ ...c.fields, num_chapters: "1", search_enabled: "false" }, c.files),
      );
      expect(r.status).toBe(200);
      const course = await call(url, `/v2/courses/${r.body.course.id}`, { key, user });
      expect(course.body.status).toBe("completed");
      const cited = new Set(course.body.chapters.flatMap((ch: any) => ch.sources.map((s: any) => s.filename)));
      expect([...cited]).toEqual(["light.md"]);
      // The failed source stays listed with its reason among the learner's documents.
      const listed = await call(url, "/v2/documents", { key, user });
      const failed = listed.body.data.find((d: any) => d.filename === c.name);
      expect(failed.status).toBe("error");
      expect(failed.error).toMatch(c.reason);
    });
    test(`generate-from-files, streamed: ${c.what} is a document event with its reason`, async () => {
      const res = await request(url, `/v2/courses/generate-from-files?mode=stream`, {
        method: "POST",
        headers: { "x-api-key": key, "x-external-user-id": "streamer" },
        body: filesForm({ ...c.fields, num_chapters: "1", search_enabled: "false" }, c.files),
      });
      expect(res.status).toBe(200);
      const { events } = await readSse(res);
      const docs = events.filter((e) => e.event === "document").map((e) => e.data.document);
      expect(docs.map((d) => d.filename).sort()).toEqual([c.name, "light.md"].sort());
      expect(docs.find((d) => d.filename === "light.md").status).toBe("ready");
      const bad = docs.find((d) => d.filename === c.name);
      expect(bad.status).toBe("error");
      expect(bad.error).toMatch(c.reason);
      expect(events.at(-1)!.event).toBe("completed");
    });
  }

  for (const endpoint of ["/v2/documents/process", "/v2/documents/extract", "/v2/courses/generate-from-files"]) {
    test(`${endpoint}: an unsupported file type is 415 naming it, and nothing is stored`, async () => {
      const [blobs, rows] = [blobCount(), documentRows()];
      const r = await postForm(url, endpoint, key, "refused", filesForm({}, [good, exe]));
      expect(r.status).toBe(415);
      expect(errorOf(r).message).toContain("tool.exe");
      expect(blobCount()).toBe(blobs);
      expect(documentRows()).toBe(rows);
      const courses = await call(url, "/v2/courses", { key, user: "refused" });
      expect(courses.status === 404 || courses.body.data.length === 0).toBe(true);
    });
  }
});
