/** format=markdown and format=apkg from a real course, read as unzip and Anki (its SQLite collection) read them. */

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { safeEntryName } from "../../src/exports/names.ts";
import { insertCourse } from "../helpers/fixtures.ts";
import { call, errorOf } from "../helpers/server.ts";
import { download, type ExportCourseEnv, exportCourse, HOSTILE_TOPIC } from "./course.ts";
import { extractZip, openZip, text } from "./unzip.ts";

let env: ExportCourseEnv;

beforeAll(async () => {
  env = await exportCourse();
}, 600_000);
afterAll(() => env.stop());

const get = (path: string) => call(env.srv, `/v2/courses/${env.courseId}/${path}`, { key: env.key, user: env.user });

describe("GET export: who and when", () => {
  test("another learner's or an unknown course is 404, an unknown format 422, a course still generating 409, apkg without flashcards 409", async () => {
    expect((await download(env, "markdown", "someone-else")).status).toBe(404);
    const unknown = await call(env.srv, `/v2/courses/${crypto.randomUUID()}/export?format=markdown`, {
      key: env.key,
      user: env.user,
    });
    expect(unknown.status).toBe(404);
    const bad = await call(env.srv, `/v2/courses/${env.courseId}/export?format=pdf`, {
      key: env.key,
      user: env.user,
    });
    expect(bad.status).toBe(422);
    expect(errorOf(bad).code).toBe("VALIDATION_ERROR");
    expect((await call(env.srv, `/v2/courses/${env.courseId}/export?format=markdown`, { user: env.user })).status).toBe(
      401,
    );

    const generating = await insertCourse(
      env.srv.dataDir,
      { apiKey: env.key, externalUserId: env.user },
      { status: "generating" },
    );
    const busy = await call(env.srv, `/v2/courses/${generating}/export?format=markdown`, {
      key: env.key,
      user: env.user,
    });
    expect(busy.status).toBe(409);
    expect(errorOf(busy).code).toBe("COURSE_GENERATING");

    const bare = await insertCourse(env.srv.dataDir, { apiKey: env.key, externalUserId: env.user });
    const noCards = await call(env.srv, `/v2/courses/${bare}/export?format=apkg`, { key: env.key, user: env.user });
    expect(noCards.status).toBe(409);
    expect(errorOf(noCards).code).toBe("FLASHCARDS_NOT_GENERATED");
  });

  test("the export and feed routes are in the OpenAPI document, the feed routes without an API key", async () => {
    const doc = (await call(env.srv, "/openapi.json")).body;
    const exportOp = doc.paths["/v2/courses/{course_id}/export"].get;
    const format = exportOp.parameters.find((p: { name: string }) => p.name === "format");
    expect(format).toMatchObject({
      in: "query",
      required: true,
      schema: { enum: ["imscc", "scorm12", "apkg", "markdown"] },
    });
    expect(Object.keys(exportOp.responses).sort()).toEqual([
      "200",
      "401",
      "403",
      "404",
      "409",
      "422",
      "429",
      "500",
      "503",
      "507",
    ]);
    expect(Object.keys(doc.paths["/v2/courses/{course_id}/podcasts/feed"]).sort()).toEqual(["delete", "post"]);
    for (const path of ["/feeds/{token}/rss", "/feeds/{token}/episodes/{file}"])
      expect(doc.paths[path].get.security).toEqual([]);
  });

  test("archive entry names with a parent, absolute or odd segment are refused", () => {
    for (const bad of ["../etc/passwd", "/etc/passwd", "a/../b", "a//b", "a\\b", ".hidden", "a/b\u0000", ""])
      expect(() => safeEntryName(bad)).toThrow();
    expect(safeEntryName("chapters/01-cells.md")).toBe("chapters/01-cells.md");
  });
});

describe("format=markdown", () => {
  test("a streamed zip of every chapter, the study guide, the notes and each episode's audio; document HTML is inert", async () => {
    const course = (await call(env.srv, `/v2/courses/${env.courseId}`, { key: env.key, user: env.user })).body;
    const res = await download(env, "markdown");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    // Streamed: the length is not known before the body is sent.
    expect(res.headers.get("content-length")).toBeNull();
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+-markdown\.zip"$/);

    const files = openZip(res.bytes);
    const names = Object.keys(files);
    const chapters = names.filter((n) => n.startsWith("chapters/")).sort();
    expect(chapters).toHaveLength(course.chapters.length);
    for (const [i, ch] of course.chapters.entries()) {
      expect(chapters[i]).toMatch(new RegExp(`^chapters/0${i + 1}-[a-z0-9-]+\\.md$`));
      const md = text(files[chapters[i]!]);
      expect(md).toContain(ch.title);
      expect(md).toContain("## Key concepts");
      for (const k of ch.key_concepts) expect(md).toContain(k);
      expect(md).toContain("## Quiz");
      expect(md).toContain(ch.quiz.questions[0].prompt);
      expect(md).toContain("## Sources");
    }
    const guide = (await get("study-guide")).body.study_guide;
    // Markup in a title is written as entities (see below).
    const shown = (s: string) => s.replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    expect(text(files["study-guide.md"])).toContain(`# ${shown(guide.title)}`);
    for (const s of guide.sections) expect(text(files["study-guide.md"])).toContain(`## ${shown(s.heading)}`);
    const notes = (await get("notes")).body.notes;
    expect(text(files["notes.md"]).slice(0, 200)).toBe(shown(notes).slice(0, 200));

    const episodes = (await get("podcasts")).body.episodes;
    const audio = names.filter((n) => n.startsWith("podcast/")).sort();
    expect(audio).toHaveLength(episodes.length);
    for (const [i, e] of episodes.entries()) {
      const original = new Uint8Array(await (await env.srv.fetch(e.audio_url)).arrayBuffer());
      expect(files[audio[i]!]!.length).toBe(original.length);
      expect(Buffer.compare(files[audio[i]!]!, original)).toBe(0);
    }

    // Every name is a plain relative path, and the hostile title and document text are shown, not run.
    for (const n of names) expect(n).toMatch(/^[a-z0-9][a-z0-9./-]*$/i);
    expect(names.some((n) => n.includes(".."))).toBe(false);
    const readme = text(files["README.md"]);
    expect(readme).toContain("&lt;script&gt;alert(");
    expect(readme).toContain("&lt;/script&gt; & ../../etc/passwd");
    for (const n of names.filter((n) => n.endsWith(".md"))) {
      expect(text(files[n])).not.toContain("<script");
      expect(text(files[n])).not.toMatch(/<img/i);
    }
    // unzip itself writes every file inside the folder it was given.
    const dir = extractZip(res.bytes);
    for (const n of names) expect(await Bun.file(`${dir}/${n}`).exists()).toBe(true);
    expect(HOSTILE_TOPIC).toContain("../");
  }, 300_000);
});

describe("format=apkg", () => {
  test("an Anki collection with its tables, one Basic note and one card per flashcard, tagged with course and chapter", async () => {
    const deck = (
      await call(env.srv, `/v2/courses/${env.courseId}/generate-flashcards`, {
        key: env.key,
        user: env.user,
        json: {},
      })
    ).body.flashcards;
    const res = await download(env, "apkg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/\.apkg"$/);
    const files = openZip(res.bytes);
    expect(Object.keys(files).sort()).toEqual(["collection.anki2", "media"]);
    expect(JSON.parse(text(files.media))).toEqual({});

    const db = Database.deserialize(files["collection.anki2"]!);
    try {
      const tables = db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((r) => r.name);
      expect(tables).toEqual(["cards", "col", "graves", "notes", "revlog"]);
      const col = db
        .query<{ ver: number; models: string; decks: string; dconf: string; conf: string }, []>("SELECT * FROM col")
        .get()!;
      expect(col.ver).toBe(11);
      const models = JSON.parse(col.models);
      const decks = JSON.parse(col.decks);
      expect(JSON.parse(col.dconf)["1"]).toBeDefined();
      const [model] = Object.values(models) as any[];
      expect(model.flds.map((f: { name: string }) => f.name)).toEqual(["Front", "Back"]);
      expect(model.tmpls[0].qfmt).toBe("{{Front}}");

      const notes = db
        .query<{ id: number; mid: number; flds: string; tags: string; sfld: string; guid: string }, []>(
          "SELECT * FROM notes ORDER BY id",
        )
        .all();
      const cards = db
        .query<{ nid: number; did: number; ord: number; queue: number }, []>("SELECT * FROM cards ORDER BY nid")
        .all();
      expect(notes).toHaveLength(deck.cards.length);
      expect(cards).toHaveLength(deck.cards.length);
      expect(new Set(notes.map((n) => n.guid)).size).toBe(notes.length);
      const titles = (await call(env.srv, `/v2/courses/${env.courseId}`, { key: env.key, user: env.user })).body
        .chapters.length;
      for (const [i, note] of notes.entries()) {
        expect(String(note.mid)).toBe(model.id);
        expect(note.flds).toBe(`${Bun.escapeHTML(deck.cards[i].front)}\x1f${Bun.escapeHTML(deck.cards[i].back)}`);
        const tags = note.tags.trim().split(" ");
        expect(tags[0]).toMatch(/^course::cell-biology-script-alert-x-script-etc-passwd-0-xxe-lt-b-gt$/);
        expect(tags[1]).toMatch(new RegExp(`^chapter::0[1-${titles}]-[a-z0-9-]+$`));
        expect(cards[i]).toMatchObject({ nid: note.id, ord: 0, queue: 0 });
        expect(decks[String(cards[i]!.did)]).toBeDefined();
      }
    } finally {
      db.close();
    }
  });
});
