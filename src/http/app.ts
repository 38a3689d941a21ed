/**
 * The Elysia application: request ids, authentication, rate limits and the error body are applied
 * here once for every route; each resource's routes live in routes/.
 */
import { type AnyElysia, Elysia } from "elysia";
import { AppError, crossOrigin, unauthorized } from "../errors.ts";
import type { Services } from "../services.ts";
import { sessionAuthenticator } from "../tenants/console-sessions.ts";
import { type AuthContext, keyAuthenticator } from "../tenants/keys.ts";
import { httpDuration, httpRequests } from "../metrics.ts";
import { fromOwnOrigin, sessionTokenOf } from "./console-cookie.ts";
import { beginRequest, type RequestState, stateOf } from "./context.ts";
import { docsRoutes } from "./docs.ts";
import { classifyError, errorResponse } from "./errors.ts";
import { hasBody, isJsonType, notJson, parseJsonBody } from "./json-body.ts";
import { RateLimiter, rateHeaders } from "./rate-limit.ts";
import { consoleRoutes } from "./routes/console.ts";
import { consoleSessionRoutes, isSignIn } from "./routes/console-session.ts";
import { courseGenerationRoutes } from "./routes/course-generation.ts";
import { courseReadRoutes } from "./routes/courses.ts";
import { documentExtractRoutes } from "./routes/documents-extract.ts";
import { documentRoutes } from "./routes/documents.ts";
import { healthRoutes } from "./routes/health.ts";
import { materialRoutes } from "./routes/materials.ts";
import { mediaRoutes } from "./routes/media.ts";
import { metricsRoutes } from "./routes/metrics.ts";
import { podcastRoutes } from "./routes/podcasts.ts";
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
    path === "/metrics"
  );
}

function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const q = url.indexOf("?", start);
  return q === -1 ? url.slice(start) : url.slice(start, q);
}

export function createApp(svc: Services) {
  const authenticate = keyAuthenticator(svc.db);
  const sessionOf = sessionAuthenticator(svc.sqlite);

  /**
   * The caller: by X-API-Key, or else by the console's session cookie, which counts only on the
   * console's own requests (see console-cookie.ts) and names the learner itself.
   */
  function callerOf(request: Request, state: RequestState): AuthContext {
    const key = request.headers.get("x-api-key");
    const token = key === null ? sessionTokenOf(request) : null;
    if (token === null) {
      const auth = authenticate(key);
      if (!auth) throw unauthorized();
      return auth;
    }
    if (!fromOwnOrigin(request, svc.cfg)) throw crossOrigin();
    const session = sessionOf(token);
    if (!session) throw unauthorized("The console session has ended (signed out, expired, or its key revoked); sign in again");
    state.sessionUserId = session.userId;
    return session.auth;
  }
  const limiter = new RateLimiter();

  // Routes with a body schema and no parser of their own take JSON only (uploads read their own
  // bodies); known once every route is registered, so built on the first request.
  let jsonRoutes: Set<string> | null = null;
  const takesJson = (methodAndRoute: string) =>
    (jsonRoutes ??= new Set(
      app.routes
        .filter((r) => r.hooks.body && (r.hooks.parse ?? []).every((p: { fn: unknown }) => p.fn === parseJsonHook))
        .map((r) => `${r.method} ${r.path}`),
    )).has(methodAndRoute);

  // Routes with no body schema ignore a JSON body (resume) or read their own (uploads): it is not parsed here.
  let bodiless: Set<string> | null = null;
  const ignoresBody = (methodAndRoute: string) =>
    (bodiless ??= new Set(app.routes.filter((r) => !r.hooks.body).map((r) => `${r.method} ${r.path}`))).has(methodAndRoute);

  function parseJsonHook({ request, contentType, route }: { request: Request; contentType: string; route: string }) {
    if (isJsonType(contentType)) return ignoresBody(`${request.method} ${route}`) ? {} : parseJsonBody(request);
    if (hasBody(request) && takesJson(`${request.method} ${route}`)) throw notJson(contentType);
  }

  const app: AnyElysia = new Elysia()
    .onRequest(({ request, set, server }) => {
      const state = beginRequest(request);
      set.headers["x-request-id"] = state.id;
      const path = pathOf(request.url);
      if (isPublic(path)) return;
      if (isSignIn(request.method, path)) {
        // Sign-in carries the key, not the cookie, but only the console's own page may ask for one.
        if (!fromOwnOrigin(request, svc.cfg)) throw crossOrigin();
        return;
      }
      const auth = callerOf(request, state);
      state.auth = auth;
      // Synchronous generation, exams and large uploads outlast the server's 30 s idle timeout;
      // an authenticated caller's request may take as long as its work does.
      if (request.method !== "GET") server?.timeout(request, 0);
      const decision = limiter.check(auth.rateBucket, auth.rateLimit ?? svc.cfg.rateLimitPerMinute);
      state.headers = rateHeaders(decision);
      Object.assign(set.headers, state.headers);
      if (!decision.allowed) {
        const retryAfter = Math.max(1, decision.reset - Math.floor(Date.now() / 1000));
        throw new AppError(429, "RATE_LIMITED", `Rate limit of ${decision.limit} requests per minute exceeded`, undefined, {
          "retry-after": String(retryAfter),
        });
      }
      const userKey = request.headers.get("x-user-id") ?? request.headers.get("x-external-user-id");
      if (svc.cfg.userRateLimitPerMinute > 0 && userKey) {
        const perUser = limiter.check(`user:${auth.tenantId}:${userKey}`, svc.cfg.userRateLimitPerMinute);
        if (!perUser.allowed) {
          throw new AppError(429, "RATE_LIMITED", `Per-learner rate limit of ${perUser.limit} requests per minute exceeded`, undefined, {
            "retry-after": String(Math.max(1, perUser.reset - Math.floor(Date.now() / 1000))),
          });
        }
      }
    })
    .onParse(parseJsonHook)
    .onError(({ code, error, request }) => {
      const state = stateOf(request);
      const c = classifyError(code, error);
      if (state) state.status = c.status;
      // Before the answer leaves: a client reading the learner right after sees the 404.
      discardNewUser(svc, request);
      if (c.status >= 500) {
        svc.log.error("request failed", {
          request_id: state?.id,
          route: state?.route,
          error: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
      }
      return errorResponse(c.status, c.code, c.message, state?.id ?? crypto.randomUUID(), { ...state?.headers, ...c.headers }, c.details);
    })
    .onAfterResponse(({ request, route, set, responseValue }) => {
      const state = stateOf(request);
      if (!state) return;
      const status =
        state.status ?? (responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200);
      const seconds = (performance.now() - state.startedAt) / 1000;
      // Unmatched paths share one label so arbitrary URLs cannot grow the metric set.
      const routeLabel = route || "unmatched";
      httpRequests.inc({ route: routeLabel, method: request.method, status });
      httpDuration.observe({ route: routeLabel, method: request.method, status }, seconds);
      svc.log.info("request", {
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
    .use(consoleSessionRoutes(svc))
    .use(healthRoutes(svc))
    .use(metricsRoutes(svc))
    .use(mediaRoutes(svc))
    .use(userRoutes(svc))
    .use(courseReadRoutes(svc))
    .use(courseGenerationRoutes(svc))
    .use(webhookRoutes(svc))
    .use(podcastRoutes(svc))
    .use(documentExtractRoutes(svc))
    .use(documentRoutes(svc))
    .use(usageRoutes(svc))
    .use(materialRoutes(svc));
  return app;
}

export type App = ReturnType<typeof createApp>;
