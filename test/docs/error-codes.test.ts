/**
 * The closed error catalogue as a client meets it: /openapi.json lists each endpoint's error codes
 * under their statuses (catalogue codes only), the server answers with codes its document lists,
 * the README's error table is the catalogue, and no throw site in src picks a status itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { END, errorTable, START, withErrorTable } from "../../scripts/error-table.ts";
import { AppError, type ErrorCode, errorCatalogue, MODEL_FAILURE_STATUS } from "../../src/errors.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call, errorOf, ROOT } from "../helpers/server.ts";

let srv: TestApp;
let doc: any;
let key: string;

beforeAll(async () => {
  srv = await startApp();
  key = await srv.createKey("errors", "production");
  const res = await call(srv, "/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => srv.stop());

/** The codes the document lists for `method path` under `status` (empty when it lists none). */
function listed(method: string, path: string, status: number): string[] {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`no operation ${method} ${path}`);
  const schema = op.responses[String(status)]?.content?.["application/json"]?.schema;
  return schema?.properties?.error?.properties?.code?.enum ?? [];
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, any>).map(([method, op]) => ({ path, method, op })),
  );

describe("the OpenAPI document", () => {
  test("names the codes a user checks for, under their statuses", () => {
    expect(listed("delete", "/v2/courses/{course_id}", 409)).toEqual(["COURSE_BUSY"]);
    expect(listed("delete", "/v2/courses/{course_id}", 404)).toContain("NOT_FOUND");
    expect(listed("post", "/v2/courses/{course_id}/generate-exam", 422)).toContain("EXAM_SIZE_UNAVAILABLE");
    // A model's failure is a 503 on the materials and a 500 on course generation.
    expect(listed("post", "/v2/courses/{course_id}/generate-exam", 503)).toContain("LLM_TIMEOUT");
    expect(listed("post", "/v2/courses/generate", 500)).toContain("LLM_TIMEOUT");
    expect(listed("post", "/v2/courses/generate", 503)).toEqual(["MODEL_NOT_CONFIGURED"]);
    for (const upload of ["/v2/documents/process", "/v2/documents/extract", "/v2/courses/generate-from-files"]) {
      expect(listed("post", upload, 413)).toContain("PAYLOAD_TOO_LARGE");
      expect(listed("post", upload, 415)).toContain("UNSUPPORTED_MEDIA_TYPE");
    }
    expect(listed("post", "/v2/documents/extract", 400)).toEqual(["BAD_REQUEST"]);
    expect(listed("post", "/v2/webhooks", 422)).toContain("WEBHOOK_LIMIT");
    // Each status's body is the shared Error schema, narrowed to that status's codes.
    const busy = doc.paths["/v2/courses/{course_id}"].delete.responses["409"];
    expect(busy.content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
    expect(busy.description).toContain("COURSE_BUSY");
  });

  test("lists only catalogue codes, each under its catalogue status or its endpoint's model-failure status", () => {
    const restated = new Set<number>(Object.values(MODEL_FAILURE_STATUS));
    const listedCodes: string[] = [];
    const misplaced: string[] = [];
    for (const { path, method, op } of operations()) {
      for (const status of Object.keys(op.responses)) {
        for (const code of listed(method, path, Number(status))) {
          listedCodes.push(code);
          const own = errorCatalogue[code as ErrorCode]?.status;
          if (own !== Number(status) && !restated.has(Number(status)))
            misplaced.push(`${method} ${path} ${status} ${code}`);
        }
      }
    }
    expect(listedCodes.length).toBeGreaterThan(100);
    expect(listedCodes.filter((code) => !Object.hasOwn(errorCatalogue, code))).toEqual([]);
    expect(misplaced).toEqual([]);
    expect(doc.components.schemas.Error.properties.error.properties.code.enum.sort()).toEqual(
      Object.keys(errorCatalogue).sort(),
    );
  });

  test("every endpoint lists INTERNAL, and every endpoint that needs a key the codes all of them can give", () => {
    const missing: string[] = [];
    for (const { path, method, op } of operations()) {
      const expected: [number, ErrorCode][] = [[500, "INTERNAL"]];
      if (op.security?.length !== 0)
        expected.push([401, "UNAUTHORIZED"], [403, "CROSS_ORIGIN_REQUEST"], [429, "RATE_LIMITED"]);
      for (const [status, code] of expected)
        if (!listed(method, path, status).includes(code)) missing.push(`${method} ${path} ${status} ${code}`);
    }
    expect(operations().length).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});

describe("the server answers with codes its document lists", () => {
  const cases: { what: string; method: string; template: string; send: () => ReturnType<typeof call> }[] = [
    {
      what: "no key",
      method: "get",
      template: "/v2/courses",
      send: () => call(srv, "/v2/courses", { user: "ana" }),
    },
    {
      what: "an unknown course",
      method: "delete",
      template: "/v2/courses/{course_id}",
      send: () => call(srv, `/v2/courses/${crypto.randomUUID()}`, { method: "DELETE", key, user: "ana" }),
    },
    {
      what: "an unknown webhook",
      method: "delete",
      template: "/v2/webhooks/{webhook_id}",
      send: () => call(srv, `/v2/webhooks/${crypto.randomUUID()}`, { method: "DELETE", key }),
    },
    {
      what: "a JSON body over 1 MiB",
      method: "post",
      template: "/v2/courses/generate",
      send: () => call(srv, "/v2/courses/generate", { key, user: "ana", json: { topic: "x".repeat(1_100_000) } }),
    },
    {
      what: "an exam size out of range",
      method: "post",
      template: "/v2/courses/{course_id}/generate-exam",
      send: () =>
        call(srv, `/v2/courses/${crypto.randomUUID()}/generate-exam`, { key, user: "ana", json: { exam_size: 5 } }),
    },
    {
      what: "extract with no sources",
      method: "post",
      template: "/v2/documents/extract",
      send: () => call(srv, "/v2/documents/extract", { key, user: "ana", body: new FormData() }),
    },
  ];
  for (const c of cases) {
    test(c.what, async () => {
      const res = await c.send();
      const { code } = errorOf(res);
      expect(res.status).toBe(errorCatalogue[code as ErrorCode].status);
      expect(listed(c.method, c.template, res.status)).toContain(code);
    });
  }
});

describe("the catalogue in the repository", () => {
  const readmePath = join(ROOT, "README.md");

  test("the README's error table is generated from it", async () => {
    const readme = await Bun.file(readmePath).text();
    expect(readme).toContain(`${START}\n${errorTable()}\n${END}`);
    expect(withErrorTable(readme)).toBe(readme);
    for (const [code, { status }] of Object.entries(errorCatalogue))
      expect(readme).toContain(`| \`${code}\` | ${status} |`);
  });

  test("an AppError takes its status from its code", () => {
    expect(new AppError("COURSE_BUSY", "busy").status).toBe(409);
    expect(new AppError("PAYLOAD_TOO_LARGE", "big").status).toBe(413);
    expect(new AppError("LLM_TIMEOUT", "slow", undefined, undefined, "generation").status).toBe(500);
  });

  test("no throw site in src names a status, and every code it names is in the catalogue", async () => {
    const files = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" }).filter((f) =>
      /\.tsx?$/.test(f),
    );
    const numbered: string[] = [];
    const unknown: string[] = [];
    for (const file of files) {
      const text = await Bun.file(join(ROOT, "src", file)).text();
      if (/new AppError\(\s*\d/.test(text)) numbered.push(file);
      for (const m of text.matchAll(/new AppError\(\s*"([^"]+)"/g))
        if (!Object.hasOwn(errorCatalogue, m[1]!)) unknown.push(`${file}: ${m[1]}`);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(numbered).toEqual([]);
    expect(unknown).toEqual([]);
  });
});
