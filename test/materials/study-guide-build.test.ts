import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sqliteSql } from "../../src/db/sql.ts";
import { UsageMeter } from "../../src/llm/artefacts.ts";
import { buildStudyGuide, readStudyGuide } from "../../src/materials/study-guide.ts";
import { createKey } from "../../src/tenants/keys.ts";
import { cleanup } from "../helpers/server.ts";
import { BIOLOGY, insertRichCourse } from "./fixtures.ts";
import { localServices } from "./services.ts";

let svc: Awaited<ReturnType<typeof localServices>>;
let apiKey: string;

beforeAll(async () => {
  svc = await localServices();
  apiKey = (await createKey(sqliteSql(svc.sqlite), { tenant: "acme", env: "test" })).key;
});
afterAll(() => {
  svc.sqlite.close();
  cleanup(svc.dataDir);
});

describe("buildStudyGuide (extractive engine)", () => {
  test("stores a guide of the course's chapters, marked extractive", async () => {
    const courseId = await insertRichCourse(svc.dataDir, { apiKey, externalUserId: "u1" });
    const meter = new UsageMeter();
    await buildStudyGuide(svc, courseId, { meter });
    const stored = await readStudyGuide(sqliteSql(svc.sqlite), courseId);
    expect(stored).not.toBeNull();
    expect(stored!.engine).toBe("extractive");
    expect(stored!.model).toBe("extractive");
    expect(stored!.guide.title).toContain("Cell Biology");
    const headings = stored!.guide.sections.map((s) => s.heading);
    for (const ch of BIOLOGY) expect(headings.some((h) => h.includes(ch.title))).toBe(true);
    for (const s of stored!.guide.sections) {
      const kinds = ["items", "bullets", "body"].filter((k) => k in s);
      expect(kinds.length).toBe(1);
    }
    const terms = stored!.guide.sections.flatMap((s) => ("items" in s ? s.items.map((i) => i.term.toLowerCase()) : []));
    expect(terms).toContain("osmosis");
    expect(meter.calls).toBe(1);
    expect(meter.engine).toBe("extractive");
  });

  test("is idempotent: a second call (and concurrent calls) keep the first guide", async () => {
    const courseId = await insertRichCourse(svc.dataDir, { apiKey, externalUserId: "u1" });
    await Promise.all([buildStudyGuide(svc, courseId), buildStudyGuide(svc, courseId)]);
    const first = (await readStudyGuide(sqliteSql(svc.sqlite), courseId))!;
    svc.sqlite.run("UPDATE chapters SET title = 'Renamed' WHERE course_id = ?", [courseId]);
    const meter = new UsageMeter();
    await buildStudyGuide(svc, courseId, { meter });
    expect(await readStudyGuide(sqliteSql(svc.sqlite), courseId)).toEqual(first);
    expect(meter.calls).toBe(0);
  });

  test("an aborted build stores nothing", async () => {
    const courseId = await insertRichCourse(svc.dataDir, { apiKey, externalUserId: "u1" });
    const ctl = new AbortController();
    ctl.abort();
    await expect(buildStudyGuide(svc, courseId, { signal: ctl.signal })).rejects.toThrow();
    expect(await readStudyGuide(sqliteSql(svc.sqlite), courseId)).toBeNull();
  });

  test("an unknown course is a 404 AppError", async () => {
    await expect(buildStudyGuide(svc, crypto.randomUUID())).rejects.toMatchObject({ status: 404 });
  });
});
