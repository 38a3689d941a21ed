/**
 * OpenAPI 3.1 document at /openapi.json and the browsable reference at /docs, both generated from
 * the TypeBox schemas the routes validate with. The reference page's script is served from the
 * executable itself, and configured to make no request beyond this server (air-gapped installs).
 *
 * The document comes from @elysiajs/openapi's generator, with two additions:
 * - the generator leaves a request body's content empty when a route has a function parser, and
 *   every JSON route has ours (src/http/json-body.ts), so JSON bodies are filled in here from the
 *   same route schemas;
 * - the shared schemas (NAMED) are hoisted into components.schemas and referenced with $ref wherever
 *   they appear. Matching is by content, so routes keep validating with their plain TypeBox schemas;
 * - each operation's error responses list its error codes: the route's own (`errors(...)` in
 *   schemas.ts) and the ones every route of its kind shares (sharedCodes), grouped by status, each a
 *   reference to the Error body with `code` narrowed to an enum of them.
 */
import { toOpenAPISchema, unwrapSchema } from "@elysiajs/openapi/openapi";
import type { TSchema } from "@sinclair/typebox";
import { type AnyElysia, Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import { AppError, type ErrorCode, errorCatalogue } from "../errors.ts";
import { Job } from "./routes/course-schemas.ts";
import { Chapter, ChapterSource, Course } from "./routes/courses.ts";
import { DocumentRecord, SourceChunk } from "./routes/documents.ts";
import { ExtractedDocumentSchema } from "./routes/documents-extract.ts";
import { scalarBundle } from "./scalar-bundle.ts";
import { ErrorSchema } from "./schemas.ts";

const SCALAR_PATH = "/docs/scalar.js";
const SPEC_PATH = "/openapi.json";
const HIDDEN = [SCALAR_PATH, SPEC_PATH, "/docs", "/media/*"];

const OPENAPI_VERSION = "3.1.0";

/**
 * Scalar options (@scalar/api-reference 1.46) for a page that works offline: no default fonts
 * (fonts.scalar.com), no proxyUrl (requests from the built-in client go straight to this server),
 * and none of the hosted features: the developer toolbar (Deploy, Share: api/proxy/registry.scalar.com),
 * the "Open in API Client" button (client.scalar.com), the "Ask AI" agent, telemetry. Code samples
 * show what to put in X-API-Key rather than Scalar's fake YOUR_SECRET_TOKEN.
 */
export const SCALAR_CONFIG = {
  url: SPEC_PATH,
  withDefaultFonts: false,
  customCss: ":root { --scalar-font: system-ui, sans-serif; --scalar-font-code: ui-monospace, monospace; }",
  showDeveloperTools: "never",
  hideClientButton: true,
  agent: { disabled: true },
  telemetry: false,
  authentication: {
    preferredSecurityScheme: "ApiKey",
    securitySchemes: { ApiKey: { value: "<key from: courseforge keys create>" } },
  },
};

const attribute = (value: string) => value.replaceAll("&", "&amp;").replaceAll('"', "&quot;");

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>courseforge API</title></head>
<body><script id="api-reference" data-configuration="${attribute(JSON.stringify(SCALAR_CONFIG))}"></script><script src="${SCALAR_PATH}"></script></body></html>`;

/** Shared schemas, named in components.schemas. */
const NAMED: Record<string, TSchema> = {
  Error: ErrorSchema,
  Job,
  Course,
  Chapter,
  ChapterSource,
  Document: DocumentRecord,
  ExtractedDocument: ExtractedDocumentSchema,
  RetrievalSource: SourceChunk,
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type MediaTypes = Record<string, { schema?: unknown }>;
type Response = { description?: string; content?: MediaTypes };
type Operation = {
  requestBody?: { content?: MediaTypes };
  responses?: Record<string, Response>;
  parameters?: { in?: string; name?: string }[];
  security?: unknown[];
};

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/**
 * Plain JSON of generated schemas, without the `nullable: true` Elysia's t.Nullable adds: a 3.0
 * keyword that 3.1 (JSON Schema 2020-12) does not have; the type already lists "null".
 */
const toJson = (value: unknown): Json =>
  JSON.parse(JSON.stringify(value), (key, v) => (key === "nullable" && v === true ? undefined : v));

/** The generator's 3.1 rendering of a TypeBox schema, as plain JSON. */
const render = (schema: unknown): Json =>
  toJson(unwrapSchema(schema as TSchema, undefined, "output", OPENAPI_VERSION) ?? schema);

/** Key-order independent text of a JSON value, to compare schemas by content. */
const canonical = (v: Json): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(",")}]`
    : v && typeof v === "object"
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`)
          .join(",")}}`
      : JSON.stringify(v);

/** `node` with every subschema equal to a named one replaced by its $ref (`node` itself only if `self`). */
function withRefs(node: Json, names: Map<string, string>, self = true): Json {
  if (self && node && typeof node === "object" && !Array.isArray(node)) {
    const name = names.get(canonical(node));
    if (name) return { $ref: `#/components/schemas/${name}` };
  }
  if (Array.isArray(node)) return node.map((v) => withRefs(v, names));
  if (node && typeof node === "object")
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withRefs(v, names)]));
  return node;
}

/**
 * The codes an operation can answer with whatever its handler does: a failure of ours; on
 * authenticated routes the key, the console cookie's origin, the rate limits and a full disk; on
 * routes with a schema, its validation; on JSON bodies, our parser's refusals; on routes naming a
 * learner, the learner headers.
 */
function sharedCodes(route: AnyElysia["routes"][number], op: Operation): ErrorCode[] {
  const hooks = route.hooks as { body?: unknown; headers?: unknown; params?: unknown; query?: unknown };
  const codes: ErrorCode[] = ["INTERNAL"];
  if (op.security?.length !== 0)
    codes.push("UNAUTHORIZED", "CROSS_ORIGIN_REQUEST", "RATE_LIMITED", "INSUFFICIENT_STORAGE");
  if (hooks.body || hooks.headers || hooks.params || hooks.query) codes.push("VALIDATION_ERROR");
  if (op.requestBody?.content?.["application/json"])
    codes.push("INVALID_BODY", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "REQUEST_TIMEOUT");
  if (op.parameters?.some((p) => p.in === "header" && p.name === "x-user-id"))
    codes.push("USER_REQUIRED", "USER_NOT_FOUND");
  return codes;
}

/** The codes of a rendered error response (its body's `code` enum), or null for any other response. */
function codesOf(response: Response): string[] | null {
  const schema = response.content?.["application/json"]?.schema as
    | { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }
    | undefined;
  return schema?.properties?.error?.properties?.code?.enum ?? null;
}

/** `op`'s error responses rebuilt with the shared codes added, one status each, codes as an enum. */
function listErrorCodes(op: Operation, shared: ErrorCode[]): void {
  const responses = op.responses ?? {};
  const groups = new Map<string, Set<string>>();
  const add = (status: string, code: string) => groups.set(status, (groups.get(status) ?? new Set()).add(code));
  for (const [status, response] of Object.entries(responses))
    for (const code of codesOf(response) ?? []) add(status, code);
  for (const code of shared) add(String(errorCatalogue[code].status), code);
  for (const [status, codes] of groups) {
    const sorted = [...codes].sort();
    responses[status] = {
      ...responses[status],
      description: sorted.map((code) => `- ${code}: ${errorCatalogue[code as ErrorCode].doc}`).join("\n"),
      content: {
        "application/json": {
          schema: {
            $ref: "#/components/schemas/Error",
            properties: { error: { properties: { code: { enum: sorted } } } },
          },
        },
      },
    };
  }
  op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

function buildDocument(app: AnyElysia) {
  const { paths, components } = toOpenAPISchema(app, { paths: HIDDEN }, undefined, undefined, OPENAPI_VERSION);
  for (const route of app.routes) {
    const body = (route.hooks as { body?: unknown }).body;
    const op = (paths[openApiPath(route.path)] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (body && op?.requestBody && Object.keys(op.requestBody.content ?? {}).length === 0) {
      op.requestBody.content = { "application/json": { schema: body } };
    }
  }
  // Schemas given in `detail` (and the bodies above) are still TypeBox: rendered like the generator's
  // own, so that one shape has one text. A bodiless response (204) gets no content.
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      for (const media of [op.requestBody?.content, ...Object.values(op.responses ?? {}).map((r) => r.content)]) {
        for (const entry of Object.values(media ?? {})) if (entry?.schema) entry.schema = render(entry.schema);
      }
      for (const response of Object.values(op.responses ?? {})) {
        if (response.content && Object.values(response.content).some((m) => typeof m !== "object"))
          delete response.content;
      }
    }
  }
  for (const route of app.routes) {
    const op = (paths[openApiPath(route.path)] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (op) listErrorCodes(op, sharedCodes(route, op));
  }
  const rendered = Object.entries(NAMED).map(([name, schema]) => [name, render(schema)] as const);
  const names = new Map(rendered.map(([name, json]) => [canonical(json), name]));
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "courseforge",
      version: pkg.version,
      license: { name: pkg.license, identifier: pkg.license },
      description:
        "Course generation and document intelligence. Every endpoint except /health needs X-API-Key; per-user endpoints need X-External-User-Id or X-User-Id. " +
        "The web console at /app/ signs in once with POST /v2/console/session and then sends its HttpOnly session cookie instead, accepted only from its own origin. " +
        'Errors: {"error":{"code","message","request_id","details"?}}.',
    },
    // Relative: the document describes whichever server serves it.
    servers: [{ url: "/", description: "this server" }],
    security: [{ ApiKey: [] }],
    components: {
      schemas: {
        ...components.schemas,
        ...Object.fromEntries(rendered.map(([name, json]) => [name, withRefs(json, names, false)])),
      },
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
    },
    paths: withRefs(toJson(paths), names),
  };
}

/** `root` is the whole application, read when the document is first asked for. */
export const docsRoutes = (root: () => AnyElysia) => {
  let document: string | null = null;
  return new Elysia({ name: "docs" })
    .get(
      SPEC_PATH,
      () => {
        document ??= JSON.stringify(buildDocument(root()));
        return new Response(document, { headers: { "content-type": "application/json" } });
      },
      { detail: { hide: true } },
    )
    .get("/docs", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }), {
      detail: { hide: true },
    })
    .get(
      SCALAR_PATH,
      async () => {
        const script = await scalarBundle();
        if (!script)
          throw new AppError(
            "NOT_FOUND",
            "The reference page's script comes with the dev dependencies (npm install) or in the executable",
          );
        return new Response(script, {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
        });
      },
      { detail: { hide: true } },
    );
};
