/**
 * The web console's sign-in: an API key and a learner are checked once and exchanged for an
 * HttpOnly session cookie (src/http/console-cookie.ts), so the key never stays in the browser.
 */
import { Elysia, t } from "elysia";
import { AppError, unauthorized } from "../../errors.ts";
import type { Services } from "../../services.ts";
import { endSession, openSession } from "../../tenants/console-sessions.ts";
import { type AuthContext, type KeyAuthenticator, keyAuthenticator } from "../../tenants/keys.ts";
import { toUserResource, type User } from "../../tenants/users.ts";
import { clientAddress } from "../client-address.ts";
import { SESSION_COOKIE, sessionCookie, sessionTokenOf } from "../console-cookie.ts";
import { stateOf } from "../context.ts";
import { type RateLimiter, rateLimited } from "../rate-limit.ts";
import { errors } from "../schemas.ts";
import { signInLimits } from "../sign-in-limit.ts";
import { userOf } from "../user.ts";
import { UserResource } from "./users.ts";

const PATH = "/v2/console/session";

/** Sign-in is the one console request made before there is a session: app.ts lets it through unauthenticated. */
export const isSignIn = (method: string, path: string) => method === "POST" && path === PATH;
export const isSignOut = (method: string, path: string) => method === "DELETE" && path === PATH;

const Session = t.Object({
  user: UserResource,
  tenant: t.String({ description: "Name of the key's tenant" }),
  key_env: t.String({ description: "test or production" }),
  expires_at: t.String(),
});

const sessionView = (auth: AuthContext, user: User, expiresAt: string) => ({
  user: toUserResource(user),
  tenant: auth.tenantName,
  key_env: auth.keyEnv,
  expires_at: expiresAt,
});

/** `limiter` is the app's request limiter: a sign-in with a right key is a call of that key, counted in its bucket. */
export const consoleSessionRoutes = (svc: Services, limiter: RateLimiter) => {
  const db = svc.sql;
  const checkKey = keyAuthenticator(db);
  const authenticate: KeyAuthenticator = async (key) => {
    const auth = await checkKey(key);
    if (auth) {
      const decision = await limiter.check(auth.rateBucket, auth.rateLimit ?? svc.cfg.rateLimitPerMinute);
      if (!decision.allowed) throw rateLimited(decision, "Rate limit");
    }
    return auth;
  };
  const limits = signInLimits(svc.cfg.signInFailuresPerMinute, limiter);
  return new Elysia({ name: "console-session" })
    .post(
      PATH,
      async ({ request, body, set, server }) => {
        if (body.external_user_id === undefined && body.user_id === undefined) {
          throw new AppError("USER_REQUIRED", "Give the learner: external_user_id or user_id");
        }
        if (body.external_user_id !== undefined && body.user_id !== undefined) {
          throw new AppError("VALIDATION_ERROR", "Give one of external_user_id and user_id, not both");
        }
        const { token, session, user } = await (async () => {
          try {
            return await openSession({ db, clock: svc.clock }, authenticate, {
              apiKey: body.api_key,
              externalUserId: body.external_user_id,
              userId: body.user_id,
            });
          } catch (err) {
            if (!(err instanceof AppError && err.code === "UNAUTHORIZED")) throw err;
            const address = clientAddress(request, server?.requestIP(request)?.address, svc.cfg.trustedProxies);
            throw await limits.failed(address, body.api_key, err);
          }
        })();
        set.status = 201;
        set.headers["set-cookie"] = sessionCookie(request, svc.cfg, token);
        set.headers["cache-control"] = "no-store";
        return sessionView(session.auth, user, session.expiresAt);
      },
      {
        body: t.Object({
          api_key: t.String({ minLength: 1, maxLength: 200 }),
          external_user_id: t.Optional(t.String({ minLength: 1, maxLength: 256 })),
          user_id: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
        }),
        response: {
          201: Session,
          ...errors("UNAUTHORIZED", "CROSS_ORIGIN_REQUEST", "RATE_LIMITED", "USER_REQUIRED", "USER_NOT_FOUND"),
        },
        detail: {
          summary: "Sign the web console in",
          description:
            `Checks the API key and the learner (an unknown external_user_id is registered) and sets the HttpOnly, SameSite=Strict ` +
            `cookie ${SESSION_COOKIE} (Secure over HTTPS), valid 12 hours. The API accepts that cookie instead of X-API-Key only ` +
            "from the console's own origin, and every write must carry Origin; the session ends at sign-out, expiry or the key's revocation. " +
            "Only browsers on this server's origin may call it (403 CROSS_ORIGIN_REQUEST otherwise). Failed sign-ins are limited per client " +
            "address and per key prefix tried (SIGN_IN_FAILURES_PER_MINUTE; 429 past it); a right key always signs in, as a call of that key within its rate limit.",
          tags: ["console"],
          // The key travels in the body: no X-API-Key header.
          security: [],
        },
      },
    )
    .get(
      PATH,
      async ({ request, set }) => {
        // app.ts looked the session up when it authenticated the request.
        const session = stateOf(request)?.session;
        if (!session) throw unauthorized("No console session; sign in with POST /v2/console/session");
        set.headers["cache-control"] = "no-store";
        return sessionView(session.auth, await userOf(svc, request, { create: false }), session.expiresAt);
      },
      {
        response: { 200: Session, ...errors("USER_NOT_FOUND") },
        detail: { summary: "The console's current session", tags: ["console"] },
      },
    )
    .delete(
      PATH,
      async ({ request, set }) => {
        const token = sessionTokenOf(request);
        if (token) await endSession(db, token);
        set.status = 204;
        set.headers["set-cookie"] = sessionCookie(request, svc.cfg, "");
      },
      {
        response: { 204: t.Void() },
        detail: { summary: "Sign the console out (ends the session at once)", tags: ["console"] },
      },
    );
};
