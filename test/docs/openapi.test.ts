/**
 * The served /openapi.json is a valid OpenAPI 3.1 document (checked with a real validator, not by
 * shape), documents /metrics, and names the shared schemas as components referenced from operations.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import { startApp, type TestApp } from "../helpers/app.ts";
import { call } from "../helpers/server.ts";

let srv: TestApp;
let doc: any;

beforeAll(async () => {
  srv = await startApp();
  const res = await call(srv, "/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => srv.stop());

const ref = (name: string) => `#/components/schemas/${name}`;

/** Every `$ref` anywhere below `node`. */
function refsIn(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) refsIn(v, out);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
}

test("declares OpenAPI 3.1 and passes the 3.1 validator", async () => {
  expect(doc.openapi).toBe("3.1.0");
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
});

test("every schema in the document compiles as JSON Schema 2020-12 and every $ref resolves", () => {
  // The OAS 3.1 meta-schema does not descend into Schema Objects; Ajv's 2020-12 dialect does.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: "https://courseforge.invalid/openapi.json", components: doc.components });
  for (const name of Object.keys(doc.components.schemas)) {
    expect(() => ajv.getSchema(`https://courseforge.invalid/openapi.json#/components/schemas/${name}`)).not.toThrow();
  }
  for (const r of refsIn(doc)) {
    expect(r.startsWith("#/components/schemas/")).toBe(true);
    expect(doc.components.schemas[r.slice("#/components/schemas/".length)]).toBeDefined();
  }
});

test("GET /metrics documents its Prometheus text and its 401/404 (and the 500 any route can give)", () => {
  const op = doc.paths["/metrics"].get;
  expect(Object.keys(op.responses).sort()).toEqual(["200", "401", "404", "500"]);
  expect(op.responses["200"].content["text/plain"].schema.type).toBe("string");
  expect(op.responses["401"].content["application/json"].schema.$ref).toBe(ref("Error"));
  expect(op.responses["404"].content["application/json"].schema.$ref).toBe(ref("Error"));
});

test("the shared schemas are named components, referenced from the operations", () => {
  const schemas = doc.components.schemas;
  for (const name of [
    "Error",
    "Job",
    "Course",
    "Chapter",
    "ChapterSource",
    "Document",
    "ExtractedDocument",
    "RetrievalSource",
  ]) {
    expect(schemas[name]?.type).toBe("object");
  }
  const json = (op: any, status: string) => op.responses[status].content["application/json"].schema;
  const course = doc.paths["/v2/courses/{course_id}"].get;
  expect(json(course, "200").$ref).toBe(ref("Course"));
  expect(json(course, "404").$ref).toBe(ref("Error"));
  expect(schemas.Course.properties.chapters.items.$ref).toBe(ref("Chapter"));
  expect(schemas.Chapter.properties.sources.items.$ref).toBe(ref("ChapterSource"));
  expect(json(doc.paths["/v2/documents"].get, "200").properties.data.items.$ref).toBe(ref("Document"));
  expect(json(doc.paths["/v2/documents/process"].post, "200").properties.documents.items.$ref).toBe(ref("Document"));
  expect(json(doc.paths["/v2/documents/extract"].post, "200").properties.documents.items.$ref).toBe(
    ref("ExtractedDocument"),
  );
  expect(json(doc.paths["/v2/documents/query"].post, "200").properties.sources.items.$ref).toBe(ref("RetrievalSource"));
  const generate = doc.paths["/v2/courses/generate"].post;
  expect(refsIn(generate.responses["202"])).toContain(ref("Job"));
  // Named once: no operation repeats a named schema inline.
  for (const name of ["Error", "ChapterSource", "RetrievalSource"])
    expect(JSON.stringify(doc.paths)).not.toContain(JSON.stringify(schemas[name]));
});
