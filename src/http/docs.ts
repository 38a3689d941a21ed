/**
 * OpenAPI document at /openapi.json and the browsable reference at /docs, both generated from the
 * TypeBox schemas the routes validate with. The reference page's script is served from the
 * executable itself (air-gapped installs have no CDN).
 *
 * The document comes from @elysiajs/openapi's generator, with one repair: the generator leaves a
 * request body's content empty when a route has a function parser, and every JSON route has ours
 * (src/http/json-body.ts), so JSON bodies are filled in here from the same route schemas.
 */
import { toOpenAPISchema } from "@elysiajs/openapi";
import { type AnyElysia, Elysia } from "elysia";
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import pkg from "../../package.json" with { type: "json" };

const SCALAR_PATH = "/docs/scalar.js";
const SPEC_PATH = "/openapi.json";
const HIDDEN = [SCALAR_PATH, SPEC_PATH, "/docs", "/media/*"];

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>courseforge API</title></head>
<body><script id="api-reference" data-url="${SPEC_PATH}"></script><script src="${SCALAR_PATH}"></script></body></html>`;

type Operation = { requestBody?: { content?: Record<string, unknown> } };

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

function buildDocument(app: AnyElysia) {
  const { paths, components } = toOpenAPISchema(app, { paths: HIDDEN }, undefined, undefined, "3.0.3");
  for (const route of app.routes) {
    const body = (route.hooks as { body?: unknown }).body;
    const op = (paths[openApiPath(route.path)] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (body && op?.requestBody && Object.keys(op.requestBody.content ?? {}).length === 0) {
      op.requestBody.content = { "application/json": { schema: JSON.parse(JSON.stringify(body)) } };
    }
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "courseforge",
      version: pkg.version,
      description:
        "Course generation and document intelligence. Every endpoint except /health needs X-API-Key; per-user endpoints need X-External-User-Id or X-User-Id. Errors: {\"error\":{\"code\",\"message\",\"request_id\",\"details\"?}}.",
    },
    security: [{ ApiKey: [] }],
    components: {
      ...components,
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
    },
    paths,
  };
}

/** `root` is the whole application, read when the document is first asked for. */
export const docsRoutes = (root: () => AnyElysia) => {
  let document: string | null = null;
  return new Elysia({ name: "docs" })
    .get(
      SPEC_PATH,
      () => new Response((document ??= JSON.stringify(buildDocument(root()))), { headers: { "content-type": "application/json" } }),
      { detail: { hide: true } },
    )
    .get("/docs", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }), { detail: { hide: true } })
    .get(
      SCALAR_PATH,
      () =>
        new Response(Bun.file(scalarBundle), {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
        }),
      { detail: { hide: true } },
    );
};
