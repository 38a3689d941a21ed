/**
 * The callers every authenticated route must turn away, in one place: no key (401), another
 * tenant's key (404: the resource does not exist for it), the owner tenant's test key against
 * production data (404: another environment's data), and another learner of the owner's tenant
 * (404). A route test lists its routes and who owns the resource; each case is asserted as a user
 * would see it: status, and the service's error body.
 */
import { expect } from "bun:test";
import { call, errorOf, type Target } from "./server.ts";

export type Outsider = "no key" | "another tenant" | "a test key" | "another learner";

export interface GuardedRoute {
  method: string;
  /** From the server's root, naming the owner's resource. */
  path: string;
  json?: unknown;
  /** Where the spec names another refusal than 401/404 (a course read by another learner is 403). */
  statuses?: Partial<Record<Outsider, number>>;
}

export interface Outsiders {
  /** The owner: a production key of its tenant and the learner the resource belongs to. */
  key: string;
  user: string;
  /** A production key of another tenant; the same external learner id is tried with it. */
  otherTenantKey?: string;
  /** A test key of the owner's tenant: production data is not its data. */
  testKey?: string;
  /** Another learner of the owner's tenant. */
  otherUser?: string;
}

/** Asserts that `route` refuses every outsider named in `who`, and answers 401 without a key. */
export async function expectGuarded(target: Target, route: GuardedRoute, who: Outsiders): Promise<void> {
  const { method, path, json } = route;
  const cases: [Outsider, { key: string | null; user: string }, number][] = [
    ["no key", { key: null, user: who.user }, 401],
  ];
  if (who.otherTenantKey) cases.push(["another tenant", { key: who.otherTenantKey, user: who.user }, 404]);
  if (who.testKey) cases.push(["a test key", { key: who.testKey, user: who.user }, 404]);
  if (who.otherUser) cases.push(["another learner", { key: who.key, user: who.otherUser }, 404]);
  for (const [caller, auth, usual] of cases) {
    const status = route.statuses?.[caller] ?? usual;
    const r = await call(target, path, { method, json, ...auth });
    expect(`${method} ${path} as ${caller}: ${r.status}`).toBe(`${method} ${path} as ${caller}: ${status}`);
    errorOf(r);
  }
}
