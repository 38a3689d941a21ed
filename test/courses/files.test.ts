/** Courses from files and URLs: organization modes, failing sources, web search, validation. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, errorOf, request, type Target } from "../helpers/server.ts";
import { type CourseEnv, courseEnv, filesForm, outlineCalls, postForm, readSse, settle } from "./helpers.ts";
import { CALVIN_CYCLE, CASTLES, LIGHT_REACTIONS } from "./sources.ts";

// Each test drives a real server through whole generations.
setDefaultTimeout(300_000);

let env: CourseEnv;
let url: Target;
let key: string;
let searx: ReturnType<typeof Bun.serve>;
const searxQueries: string[] = [];

beforeAll(async () => {
  // A stand-in SearXNG: JSON results for any query.
  searx = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const q = new URL(req.url).searchParams.get("q") ?? "";
      searxQueries.push(q);
      return Response.json({
        results: [
          {
            url: "https://example.org/photosynthesis",
            title: "Photosynthesis explained",
            content: "Plants turn light into chemical energy in chloroplasts.",
          },
          {
            url: "https://example.org/chlorophyll",
            title: "Chlorophyll",
            content: "Chlorophyll absorbs red and blue light.",
          },
        ],
      });
    },
  });
  env = await courseEnv({ env: { CHAPTER_CONCURRENCY: "3" } });
  url = env.srv;
  key = env.key;
});
afterAll(async () => {
  await env.stop();
  searx.stop(true);
});

const light = { name: "light.md", content: LIGHT_REACTIONS, type: "text/markdown" };
const calvin = { name: "calvin.md", content: CALVIN_CYCLE, type: "text/markdown" };
const castles = { name: "castles.md", content: CASTLES, type: "text/markdown" };

async function build(
  fields: Record<string, string>,
  files: { name: string; content: string; type?: string }[],
  user = "fay",
) {
  const r = await postForm(url, "/v2/courses/generate-from-files?mode=sync", key, user, filesForm(fields, files));
  expect(r.status).toBe(200);
  const course = await call(url, `/v2/courses/${r.body.course.id}`, { key, user });
  expect(course.body.status).toBe("completed");
  return course.body;
}

const filenamesOf = (chapter: any) => new Set<string>(chapter.sources.map((s: any) => s.filename));

describe("organization modes", () => {
  test("sequential_sections: chapters follow the sources in order, each drawn from its own source", async () => {
    const before = env.fake!.generations().length;
    const course = await build({ organization: "sequential_sections", num_chapters: "4", search_enabled: "false" }, [
      light,
      castles,
    ]);
    // Outline, chapters and study guide all ask for one context size: Ollama never reloads the model mid-course.
    const sizes = env
      .fake!.generations()
      .slice(before)
      .map((c) => c.body?.options?.num_ctx);
    expect(sizes.length).toBeGreaterThanOrEqual(6);
    expect(new Set(sizes)).toEqual(new Set([8192]));
    expect(course.organization).toBe("sequential_sections");
    expect(course.source_type).toBe("files");
    expect(course.chapters).toHaveLength(4);
    const owners = course.chapters.map((ch: any) => [...filenamesOf(ch)]);
    for (const o of owners) expect(o).toHaveLength(1);
    const order = owners.map((o: string[]) => o[0]);
    expect(order).toEqual(["light.md", "light.md", "castles.md", "castles.md"]);
    const planned = course.outline.chapters.map((c: any) => c.source_document_ids);
    expect(planned[0]).toEqual(planned[1]);
    expect(planned[2]).toEqual(planned[3]);
    expect(planned[0]).not.toEqual(planned[2]);
    // Two sources without a topic: titled after both of them, never left empty.
    expect(course.topic.length).toBeGreaterThan(2);
  });

  test("thematic_bridge: the outline sees what both sources share and chapters draw on both", async () => {
    const before = outlineCalls(env.fake!).length;
    const course = await build({ organization: "thematic_bridge", num_chapters: "3", search_enabled: "false" }, [
      light,
      calvin,
    ]);
    expect(course.organization).toBe("thematic_bridge");
    // Every chapter of the bridge names the sources it draws on: both of them.
    const ids = new Set(course.sources?.map((s: any) => s.id) ?? course.outline.chapters[0].source_document_ids);
    expect(ids.size).toBe(2);
    for (const c of course.outline.chapters) expect(new Set(c.source_document_ids)).toEqual(ids);
    const outlines = outlineCalls(env.fake!).slice(before);
    expect(outlines).toHaveLength(1);
    const prompt = JSON.stringify(outlines[0]!.body);
    expect(prompt).toContain("light.md");
    expect(prompt).toContain("calvin.md");
    const bridged = course.chapters.filter((ch: any) => filenamesOf(ch).size === 2);
    expect(bridged.length).toBeGreaterThanOrEqual(1);
  });

  test("auto: related sources are bridged, unrelated ones kept in sequence", async () => {
    const related = await build({ num_chapters: "2", search_enabled: "false" }, [light, calvin]);
    expect(related.organization).toBe("thematic_bridge");
    expect(related.outline.source_relatedness).toBeGreaterThan(0.2);
    const unrelated = await build({ organization: "auto", num_chapters: "2", search_enabled: "false" }, [
      light,
      castles,
    ]);
    expect(unrelated.organization).toBe("sequential_sections");
    expect(unrelated.outline.source_relatedness).toBeLessThan(0.2);
  });

  test("separate_courses: one course per source, {jobs, count} in async mode", async () => {
    const r = await postForm(
      url,
      "/v2/courses/generate-from-files",
      key,
      "sep",
      filesForm({ organization: "separate_courses", num_chapters: "2", search_enabled: "false" }, [light, castles]),
    );
    expect(r.status).toBe(202);
    expect(r.body.count).toBe(2);
    expect(r.body.jobs).toHaveLength(2);
    const names = [];
    for (const job of r.body.jobs) {
      expect(job.type).toBe("course.generate");
      const done = await settle(url, key, "sep", job.course_id);
      expect(done.course_status).toBe("completed");
      const course = await call(url, `/v2/courses/${job.course_id}`, { key, user: "sep" });
      expect(course.body.organization).toBe("separate_courses");
      const files = new Set(course.body.chapters.flatMap((ch: any) => [...filenamesOf(ch)]));
      expect(files.size).toBe(1);
      names.push([...files][0]);
    }
    expect(names).toEqual(["light.md", "castles.md"]);
  });

  test("separate_courses in sync mode returns every course", async () => {
    const r = await postForm(
      url,
      "/v2/courses/generate-from-files?mode=sync",
      key,
      "sep",
      filesForm(
        { organization: "separate_courses", num_chapters: "1", search_enabled: "false", topic: "Plant energy" },
        [light, calvin],
      ),
    );
    expect(r.status).toBe(200);
    expect(r.body.courses).toHaveLength(2);
    expect(r.body.course).toBeUndefined();
    expect(r.body.usage.model_calls).toBe(6);
  });
});

describe("sources that fail", () => {
  test("a failing source is reported on its document and the course builds from the others", async () => {
    const res = await request(url, `/v2/courses/generate-from-files?mode=stream`, {
      method: "POST",
      headers: { "x-api-key": key, "x-external-user-id": "fay" },
      body: filesForm(
        { web_urls: JSON.stringify(["http://127.0.0.1:9/gone"]), num_chapters: "2", search_enabled: "false" },
        [light],
      ),
    });
    expect(res.status).toBe(200);
    const { events } = await readSse(res);
    const docs = events.filter((e) => e.event === "document").map((e) => e.data.document);
    expect(docs).toHaveLength(2);
    const failed = docs.find((d) => d.status === "error");
    expect(failed.filename).toBe("http://127.0.0.1:9/gone");
    expect(failed.error.length).toBeGreaterThan(0);
    const ready = docs.find((d) => d.status === "ready");
    expect(ready.filename).toBe("light.md");
    expect(ready.chunk_count).toBeGreaterThan(0);
    expect(events.at(-1)!.event).toBe("completed");
    const course = await call(url, `/v2/courses/${events.at(-1)!.data.course_id}`, { key, user: "fay" });
    expect(course.body.source_type).toBe("mixed");
  });

  test("when every source fails, the course fails with a clear reason", async () => {
    const r = await postForm(
      url,
      "/v2/courses/generate-from-files?mode=sync",
      key,
      "fay",
      filesForm({
        web_urls: JSON.stringify(["http://127.0.0.1:9/a", "http://127.0.0.1:9/b"]),
        search_enabled: "false",
      }),
    );
    expect(r.status).toBe(422);
    const e = errorOf(r);
    expect(e.code).toBe("SOURCES_FAILED");
    expect(e.message).toContain("127.0.0.1:9/a");
    const courseId = (e.details as { course_id: string }).course_id;
    const progress = await call(url, `/v2/courses/${courseId}/progress`, { key, user: "fay" });
    expect(progress.body.course_status).toBe("failed");
    expect(progress.body.error.code).toBe("SOURCES_FAILED");
  });
});

describe("web search", () => {
  test("without SEARXNG_URL the flag is accepted and the course says search was unavailable", async () => {
    const course = await build({ num_chapters: "1" }, [light]);
    expect(course.search_enabled).toBe(true);
    expect(course.search_note).toContain("SEARXNG_URL");
    expect(course.chapters[0].sources.every((s: any) => s.url === null)).toBe(true);
  });

  test("with SEARXNG_URL, chapters cite the web results they were given", async () => {
    const withSearch = await courseEnv({
      env: { SEARXNG_URL: `http://127.0.0.1:${searx.port}`, OUTBOUND_ALLOW: "127.0.0.1" },
    });
    try {
      const r = await postForm(
        withSearch.srv,
        "/v2/courses/generate-from-files?mode=sync",
        withSearch.key,
        "sam",
        filesForm({ num_chapters: "2" }, [light]),
      );
      expect(r.status).toBe(200);
      const course = await call(withSearch.srv, `/v2/courses/${r.body.course.id}`, {
        key: withSearch.key,
        user: "sam",
      });
      expect(course.body.search_note).toBeNull();
      for (const ch of course.body.chapters) {
        const web = ch.sources.filter((s: any) => s.url);
        expect(web.map((s: any) => s.url)).toContain("https://example.org/photosynthesis");
        expect(web[0].title).toBe("Photosynthesis explained");
      }
      expect(searxQueries.length).toBeGreaterThanOrEqual(2);
    } finally {
      await withSearch.stop();
    }
  });
});

describe("validation", () => {
  const post = (form: FormData) => postForm(url, "/v2/courses/generate-from-files", key, "fay", form);

  test("malformed URL arrays, bad enums and ranges are 422", async () => {
    const cases: Record<string, string>[] = [
      { youtube_urls: "not json" },
      { web_urls: '{"a": 1}' },
      { web_urls: '["not a url"]' },
      { youtube_urls: '["ftp://example.com/x"]' },
      { web_urls: '["https://example.org/page"]', organization: "random" },
      { web_urls: '["https://example.org/page"]', num_chapters: "0" },
      { web_urls: '["https://example.org/page"]', num_chapters: "21" },
      { web_urls: '["https://example.org/page"]', learning_goal: "fun" },
      { web_urls: '["https://example.org/page"]', topic: "ab" },
      {},
    ];
    for (const fields of cases) {
      const r = await post(filesForm(fields));
      if (r.status !== 422) throw new Error(`${JSON.stringify(fields)} gave ${r.status}`);
      errorOf(r);
    }
  });

  test("more than 10 files is 422; an unsupported format is 415; nothing is created", async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `n${i}.md`, content: LIGHT_REACTIONS }));
    const tooMany = await post(filesForm({}, eleven));
    expect(tooMany.status).toBe(422);
    errorOf(tooMany);
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0, 0, 0xff, 0xff, 0, 0]);
    const unsupported = await postForm(
      url,
      "/v2/courses/generate-from-files",
      key,
      "val",
      filesForm({}, [light, { name: "tool.exe", content: exe }]),
    );
    expect(unsupported.status).toBe(415);
    expect(errorOf(unsupported).message).toContain("tool.exe");
    // The refused request left no course behind (the learner was created by the write, with nothing).
    const list = await call(url, "/v2/courses", { key, user: "val" });
    expect(list.status === 404 || list.body.data.length === 0).toBe(true);
  });
});
