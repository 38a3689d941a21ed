/**
 * The web console's session cookie, and the origin rule under which the API accepts it: the cookie
 * authenticates only requests the console itself makes (same origin), and a write must say so with
 * an Origin header, so no other site can act with it even where SameSite would let the cookie through.
 */
import type { Config } from "../config.ts";
import { SESSION_HOURS } from "../tenants/console-sessions.ts";

export const SESSION_COOKIE = "cf_console";

const SAFE_METHODS = new Set(["GET", "HEAD"]);

export function sessionTokenOf(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  return new Bun.CookieMap(header).get(SESSION_COOKIE) || null;
}

/**
 * Whether a cookie-carrying request comes from the console's own pages. Browsers send
 * Sec-Fetch-Site on every request and Origin on every write; a write without Origin is refused.
 * The server's own origins are the one the request was addressed to, and PUBLIC_BASE_URL's
 * behind a proxy (parsed once, here).
 */
export function ownOriginCheck(cfg: Config): (request: Request) => boolean {
  const publicOrigin = cfg.publicBaseUrl ? new URL(cfg.publicBaseUrl).origin : null;
  return (request) => {
    const site = request.headers.get("sec-fetch-site");
    if (site !== null && site !== "same-origin") return false;
    const origin = request.headers.get("origin");
    if (origin === null) return SAFE_METHODS.has(request.method);
    return origin === publicOrigin || origin === new URL(request.url).origin;
  };
}

/** Secure when the console is reached over HTTPS (directly, through PUBLIC_BASE_URL, or a TLS proxy). */
function servedOverHttps(request: Request, cfg: Config): boolean {
  return (
    new URL(request.url).protocol === "https:" ||
    request.headers.get("x-forwarded-proto") === "https" ||
    (cfg.publicBaseUrl?.startsWith("https://") ?? false)
  );
}

/** The session cookie carrying `token`; an empty token with no lifetime clears it (sign-out). */
export function sessionCookie(request: Request, cfg: Config, token: string): string {
  return new Bun.Cookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: servedOverHttps(request, cfg),
    maxAge: token ? SESSION_HOURS * 3600 : 0,
  }).serialize();
}
