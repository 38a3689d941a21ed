/**
 * OpenAPI document at /openapi.json and the browsable reference at /docs. The reference page's
 * script is served from the executable itself (air-gapped installs have no CDN).
 */
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import scalarBundle from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import pkg from "../../package.json" with { type: "json" };

export const SCALAR_PATH = "/docs/scalar.js";

export const docsRoutes = () =>
  new Elysia({ name: "docs" })
    .get(SCALAR_PATH, () => new Response(Bun.file(scalarBundle), { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } }), {
      detail: { hide: true },
    })
    .use(
      openapi({
        path: "/docs",
        specPath: "/openapi.json",
        // The plugin's type lists every Scalar option as required; it fills defaults for the rest.
        scalar: { cdn: SCALAR_PATH } as Parameters<typeof openapi>[0] extends infer O ? O extends { scalar?: infer S } ? S : never : never,
        exclude: { paths: [SCALAR_PATH, "/media/*"] },
        documentation: {
          info: {
            title: "courseforge",
            version: pkg.version,
            description:
              "Course generation and document intelligence. Every endpoint except /health needs X-API-Key; per-user endpoints need X-External-User-Id or X-User-Id. Errors: {\"error\":{\"code\",\"message\",\"request_id\",\"details\"?}}.",
          },
          components: {
            securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
          },
          security: [{ ApiKey: [] }],
        },
      }),
    );
