/**
 * The web console at /app/ (and / sends browsers there). Every path under /app/ that is not an
 * asset is the console's page, whose router shows the view the path names. A strict Content
 * Security Policy keeps every request on this server and no inline script running, whatever a
 * document's text tries.
 */
import { Elysia } from "elysia";
import { consoleFiles } from "../../console/bundle.ts";
import { AppError } from "../../errors.ts";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

export const consoleRoutes = () =>
  new Elysia({ name: "console" })
    .get("/", ({ redirect }) => redirect("/app/", 302), { detail: { hide: true } })
    .get(
      "/app/*",
      async ({ params }) => {
        const files = await consoleFiles();
        const path = params["*"];
        const asset = path.startsWith("assets/") ? files[path] : files[""];
        if (!asset) throw new AppError("NOT_FOUND", `No console file ${path}`);
        return new Response(asset.body, {
          headers: {
            ...SECURITY_HEADERS,
            "content-type": asset.type,
            // The page is small and names the assets; both are revalidated so an upgrade shows at once.
            "cache-control": "no-cache",
          },
        });
      },
      { detail: { hide: true } },
    );
