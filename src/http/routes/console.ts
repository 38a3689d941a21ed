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

/** An asset under /app/assets/, else the console's page, whose router reads the rest of the path. */
async function consoleFile(path: string): Promise<Response> {
  const files = await consoleFiles();
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
}

export const consoleRoutes = () =>
  new Elysia({ name: "console" })
    .get("/", ({ redirect }) => redirect("/app/", 302), { detail: { hide: true } })
    // The router matches /app/ here too (trailing slashes are ignored): only the bare /app redirects,
    // so the page's relative asset URLs resolve under /app/.
    .get(
      "/app",
      async ({ request, redirect }) =>
        new URL(request.url).pathname === "/app" ? redirect("/app/", 301) : consoleFile(""),
      {
        detail: { hide: true },
      },
    )
    .get("/app/*", async ({ params }) => consoleFile(params["*"]), { detail: { hide: true } });
