import { AppError } from "../errors.ts";
import type { Services } from "../services.ts";
import { discardUnreferencedUser, resolveUser, type User } from "../tenants/users.ts";
import { authOf, stateOf } from "./context.ts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header value decoded as UTF-8. Bun hands header bytes over as Latin-1, one character per
 * byte, so `renée` sent as UTF-8 would read as `renÃ©e`.
 */
export function headerText(request: Request, name: string): string | null {
  const raw = request.headers.get(name);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is all of ASCII; anything beyond it is decoded
  if (raw === null || !/[^\x00-\x7f]/.test(raw)) return raw;
  try {
    return strictUtf8.decode(Buffer.from(raw, "latin1"));
  } catch {
    throw new AppError("VALIDATION_ERROR", `The ${name} header is not valid UTF-8; send the identifier's UTF-8 bytes`, {
      header: name,
    });
  }
}

/**
 * The learner named by X-User-Id or X-External-User-Id (a console session's own learner instead
 * of either); `create` on writes (pattern A). A learner
 * created here is removed again when the request fails (discardNewUser), so a refused first write
 * leaves no learner behind.
 */
export async function userOf(svc: Services, request: Request, opts: { create: boolean }): Promise<User> {
  const auth = authOf(request);
  const sessionUserId = stateOf(request)?.session?.userId;
  const headers = sessionUserId
    ? { externalId: null, userId: sessionUserId }
    : { externalId: headerText(request, "X-External-User-Id"), userId: headerText(request, "X-User-Id") };
  try {
    return await resolveUser(svc.sql, auth.tenantId, headers, { create: false });
  } catch (err) {
    if (!opts.create || headers.userId !== null || !(err instanceof AppError && err.code === "USER_NOT_FOUND"))
      throw err;
  }
  const user = await resolveUser(svc.sql, auth.tenantId, headers, { create: true });
  const state = stateOf(request);
  if (state) state.newUserId = user.id;
  return user;
}

/**
 * Undoes this request's auto-registration after a failure. Only while nothing refers to the
 * learner: a sync course that failed in the model is stored and stays resumable, and the delete
 * must not cascade.
 */
export async function discardNewUser(svc: Services, request: Request): Promise<void> {
  const id = stateOf(request)?.newUserId;
  if (!id) return;
  await discardUnreferencedUser(svc.sql, id);
}

/** Owner of course-scoped reads and writes. */
export async function ownerOf(svc: Services, request: Request, opts: { create: boolean } = { create: false }) {
  const user = await userOf(svc, request, opts);
  return { tenantId: user.tenantId, userId: user.id, user };
}
