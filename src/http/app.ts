/**
 * The Elysia application: request ids, authentication, rate limits and the error body are applied
 * here once for every route; each resource's routes live in routes/.
 */
import { type AnyElysia, Elysia } from "elysia";
import type { AppServices } from "../compose.ts";
import { crossOrigin, unauthorized } from "../errors.ts";
import { httpDuration, httpRequests } from "../metrics.ts";
import { sessionAuthenticator } from "../tenants/console-sessions.ts";
import { type AuthContext, keyAuthenticator } from "../tenants/keys.ts";
import { ownOriginCheck, sessionTokenOf } from "./console-cookie.ts";
import { beginRequest, type RequestState, stateOf } from "./context.ts";
import { docsRoutes } from "./docs.ts";
import { classifyError, errorResponse } from "./errors.ts";
import {
  declaresMoreThanJsonLimit,
  discardBody,
  hasBody,
  isJsonType,
  jsonTooLarge,
  notJson,
  parseJsonBody,
} from "./json-body.ts";
import { rateHeaders, rateLimited, rateLimiter } from "./rate-limit.ts";
import { routeLabeler } from "./route-label.ts";
import { consoleRoutes } from "./routes/console.ts";
import { consoleSessionRoutes, isSignIn, isSignOut } from "./routes/console-session.ts";
import { courseGenerationRoutes } from "./routes/course-generation.ts";
import { courseReadRoutes } from "./routes/courses.ts";
import { documentRoutes } from "./routes/documents.ts";
import { documentExtractRoutes } from "./routes/documents-extract.ts";
import { exportRoutes } from "./routes/exports.ts";
import { healthRoutes } from "./routes/health.ts";
import { materialRoutes } from "./routes/materials.ts";
import { mediaRoutes } from "./routes/media.ts";
import { metricsRoutes } from "./routes/metrics.ts";
import { podcastRoutes } from "./routes/podcasts.ts";
import { progressRoutes } from "./routes/progress.ts";
import { usageRoutes } from "./routes/usage.ts";
import { userRoutes } from "./routes/users.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { discardNewUser } from "./user.ts";

/** Paths served without an API key (the console's pages sign in through the session endpoint). */
function isPublic(path: string): boolean {
  return (
    path === "/" ||
    path === "/app" ||
    path.startsWith("/app/") ||
    path === "/health" ||
    path === "/v2/health" ||
    path === "/openapi.json" ||
    path === "/docs" ||
    path.startsWith("/docs/") ||
    path.startsWith("/media/") ||
    // Podcast feeds carry their own token (checked by the feed routes), since podcast apps send no API key.
    path.startsWith("/feeds/") ||
    path === "/metrics"
  );
}

/**
 * Where the router reads a request's path: from the first "/" after the scheme. Elysia's default
 * skips 11 characters, assuming a host of four or more ("http://a.bc"); with `Host: x` it then read
 * `/app/v2/…` as `/v2/…` while this middleware saw the public `/app/` prefix. The app is built with
 * `standardHostname: false`, so the router starts after "http://" (7 characters) as this does.
 */
export const ROUTER_HANDLER = { standardHostname: false } as const;
const PATH_FROM = "http://".length;

/**
 * The path every middleware decision uses (auth, public prefixes, the sign-in rules, rate limits),
 * read as the router reads it. The router ignores one trailing slash (`strictPath` is off), so
 * `/v2/console/session/` is the sign-in route and must meet its rules.
 */
export function routedPath(url: string): string {
  const start = url.indexOf("/", PATH_FROM);
  if (start === -1) return "/";
  const q = url.indexOf("?", start + 1);
  const path = q === -1 ? url.slice(start) : url.slice(start, q);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

export function createApp(svc: AppServices) {
  const db = svc.sql;
  const authenticate = keyAuthenticator(db);
  const sessionOf = sessionAuthenticator(db, svc.clock);
  const fromOwnOrigin = ownOriginCheck(svc.cfg);

  /**
   * The caller: by X-API-Key, or else by the console's session cookie, which counts only on the
   * console's own requests (see console-cookie.ts) and names the learner itself.
   */
  async function callerOf(request: Request, state: RequestState): Promise<AuthContext> {
    const key = request.headers.get("x-api-key");
    const token = key === null ? sessionTokenOf(request) : null;
    if (token === null) {
      const auth = await authenticate(key);
      if (!auth) throw unauthorized();
      return auth;
    }
    if (!fromOwnOrigin(request)) throw crossOrigin();
    const session = await sessionOf(token);
    if (!session)
      throw unauthorized("The console session has ended (signed out, expired, or its key revoked); sign in again");
    state.session = session;
    return session.auth;
  }
  const limiter = rateLimiter(svc.sql, svc.clock);
  const labelOf = routeLabeler(() => app.routes);

  // Route sets known once every route is registered, so built on the first request.
  type RouteInfo = (typeof app.routes)[number];
  const routeSet = (keep: (r: RouteInfo) => boolean) => {
    let set: Set<string> | null = null;
    return (methodAndRoute: string) => {
      set ??= new Set(app.routes.filter(keep).map((r) => `${r.method} ${r.path}`));
      return set.has(methodAndRoute);
    };
  };
  const ownParser = (r: RouteInfo) => (r.hooks.parse ?? []).some((p: { fn: unknown }) => p.fn !== parseJsonHook);
  // Routes with a body schema and no parser of their own take JSON only.
  const takesJson = routeSet((r) => Boolean(r.hooks.body) && !ownParser(r));
  // Routes with no body schema read their own (uploads) or take none (resume): it is not parsed here.
  const readsOwnBody = routeSet((r) => !r.hooks.body && ownParser(r));
  const takesNoBody = routeSet((r) => !r.hooks.body && !ownParser(r));

  function parseJsonHook({ request, contentType, route }: { request: Request; contentType: string; route: string }) {
    const methodAndRoute = `${request.method} ${route}`;
    // Whatever its type, no default parser may buffer a body: a route's own reader takes it, or
    // it is dropped under the JSON limits.
    if (readsOwnBody(methodAndRoute)) return {};
    if (takesNoBody(methodAndRoute))
      return hasBody(request) ? discardBody(request, svc.cfg.requestBodyTimeoutSeconds) : {};
    const json = isJsonType(contentType);
    if (json || takesJson(methodAndRoute)) {
      // The 1 MiB limit holds whatever the declared type, before a byte is read.
      if (declaresMoreThanJsonLimit(request)) throw jsonTooLarge();
      if (json) return parseJsonBody(request, svc.cfg.requestBodyTimeoutSeconds);
      if (hasBody(request)) throw notJson(contentType);
    }
  }

  const app: AnyElysia = new Elysia({ handler: ROUTER_HANDLER })
    .onRequest(async ({ request, set }) => {
      const state = beginRequest(request);
      set.headers["x-request-id"] = state.id;
      const path = routedPath(request.url);
      if (isPublic(path)) return;
      if (isSignIn(request.method, path) || isSignOut(request.method, path)) {
        // Sign-in carries the key, not the cookie, and sign-out must clear even a dead cookie; only
        // the console's own page may ask for either. Failed sign-ins are limited by the route.
        if (!fromOwnOrigin(request)) throw crossOrigin();
        return;
      }
      const auth = await callerOf(request, state);
      state.auth = auth;
      const decision = await limiter.check(auth.rateBucket, auth.rateLimit ?? svc.cfg.rateLimitPerMinute);
      state.headers = rateHeaders(decision);
      Object.assign(set.headers, state.headers);
      if (!decision.allowed) throw rateLimited(decision, "Rate limit");
      // A console session names its learner itself; API clients name theirs in a header.
      const userKey =
        state.session?.userId ?? request.headers.get("x-user-id") ?? request.headers.get("x-external-user-id");
      if (svc.cfg.userRateLimitPerMinute > 0 && userKey) {
        const perUser = await limiter.check(`user:${auth.tenantId}:${userKey}`, svc.cfg.userRateLimitPerMinute);
        if (!perUser.allowed) throw rateLimited(perUser, "Per-learner rate limit");
      }
    })
    .onRequest(({ request, server }) => {
      const state = stateOf(request);
      if (!state?.auth || request.method === "GET") return;
      // Synchronous generation, exams and large uploads outlast the socket's idle timeout: an
      // authenticated write may take as long as its work does, once its body has arrived. Until
      // then the body readers' stall timeout applies, and the idle timeout (just above it, see
      // server.ts) ends a body refused before it was read.
      if (!hasBody(request)) return void server?.timeout(request, 0);
      state.onBodyRead = () => server?.timeout(request, 0);
    })
    .onParse(parseJsonHook)
    .onError(async ({ code, error, request }) => {
      const state = stateOf(request);
      const c = classifyError(code, error);
      if (state) state.status = c.status;
      // Before the answer leaves: a client reading the learner right after sees the 404.
      await discardNewUser(svc, request);
      if (c.status >= 500) {
        svc.log.error("request failed", {
          request_id: state?.id,
          route: state?.route,
          error: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
      }
      return errorResponse(c, state?.id ?? crypto.randomUUID(), state?.headers ?? {});
    })
    .onAfterResponse(({ request, route, set, responseValue }) => {
      const state = stateOf(request);
      if (!state) return;
      const status =
        state.status ??
        (responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200);
      const seconds = (performance.now() - state.startedAt) / 1000;
      // A request refused before routing is labelled with the route its path names (route-label.ts).
      const routeLabel = route || labelOf(request.method, routedPath(request.url));
      httpRequests.inc({ route: routeLabel, method: request.method, status });
      httpDuration.observe({ route: routeLabel, method: request.method, status }, seconds);
      svc.log.access("request", {
        request_id: state.id,
        tenant_id: state.auth?.tenantId ?? null,
        method: request.method,
        route: routeLabel,
        status,
        duration_ms: Math.round(seconds * 100_000) / 100,
      });
    })
    .use(docsRoutes(() => app))
    .use(consoleRoutes())
    .use(consoleSessionRoutes(svc, limiter))
    .use(healthRoutes(svc))
    .use(metricsRoutes(svc))
    .use(mediaRoutes(svc))
    .use(userRoutes(svc))
    .use(courseReadRoutes(svc))
    .use(courseGenerationRoutes(svc))
    .use(webhookRoutes(svc))
    .use(podcastRoutes(svc))
    .use(exportRoutes(svc))
    .use(documentExtractRoutes(svc))
    .use(documentRoutes(svc))
    .use(usageRoutes(svc))
    .use(materialRoutes(svc))
    .use(progressRoutes(svc));
  return app;
}

export type App = ReturnType<typeof createApp>;
