/**
 * Per-request state (request id, authenticated caller), keyed by the Request object so every hook
 * and handler reaches it without threading it through Elysia's context types.
 */

import { unauthorized } from "../errors.ts";
import type { ConsoleSession } from "../tenants/console-sessions.ts";
import type { AuthContext } from "../tenants/keys.ts";

export interface RequestState {
  id: string;
  startedAt: number;
  auth: AuthContext | null;
  headers: Record<string, string>;
  /** Route pattern for logs and metrics (never the raw path: it can hold ids). */
  route: string | null;
  /** Set when the error handler answered, whose Response Elysia does not hand to later hooks. */
  status?: number;
  /** The console session that authenticated the request: its learner, not a header, is the learner. */
  session?: ConsoleSession;
  /** A learner this request auto-registered (pattern A); removed again if the request fails. */
  newUserId?: string;
  /** Set by the body readers once the whole body has arrived (json-body.ts, multipart.ts). */
  bodyRead?: boolean;
  /** Called then: lifts the socket's idle timeout for the work that follows. */
  onBodyRead?: () => void;
}

const states = new WeakMap<Request, RequestState>();

export function beginRequest(request: Request): RequestState {
  const state: RequestState = {
    id: crypto.randomUUID(),
    startedAt: performance.now(),
    auth: null,
    headers: {},
    route: null,
  };
  states.set(request, state);
  return state;
}

export function stateOf(request: Request): RequestState | undefined {
  return states.get(request);
}

export function markBodyRead(request: Request): void {
  const state = states.get(request);
  if (!state) return;
  state.bodyRead = true;
  state.onBodyRead?.();
}

export function requestIdOf(request: Request): string {
  return states.get(request)?.id ?? "unknown";
}

/** The authenticated caller; every route outside the public list has one. */
export function authOf(request: Request): AuthContext {
  const auth = states.get(request)?.auth;
  if (!auth) throw unauthorized();
  return auth;
}
