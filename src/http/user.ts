import { resolveUser, type User } from "../tenants/users.ts";
import type { Services } from "../services.ts";
import { authOf } from "./context.ts";

/** The learner named by X-User-Id or X-External-User-Id; `create` on writes (pattern A). */
export function userOf(svc: Services, request: Request, opts: { create: boolean }): User {
  const auth = authOf(request);
  return resolveUser(
    svc.db,
    auth.tenantId,
    { externalId: request.headers.get("x-external-user-id"), userId: request.headers.get("x-user-id") },
    opts,
  );
}

/** Owner of course-scoped reads and writes. */
export function ownerOf(svc: Services, request: Request, opts: { create: boolean } = { create: false }) {
  const user = userOf(svc, request, opts);
  return { tenantId: user.tenantId, userId: user.id, user };
}
