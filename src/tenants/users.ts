/** Learners inside a tenant, addressed by the caller's external id or by our user UUID. */
import type { Database } from "bun:sqlite";
import { eq } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { users } from "../db/schema/index.ts";
import { AppError } from "../errors.ts";
import { getOrCreate, isUuid, newId, nowIso } from "../util.ts";

const LEARNING_GOALS = ["exams", "career", "curiosity", "supplement"] as const;
export type LearningGoal = (typeof LEARNING_GOALS)[number];

export type User = typeof users.$inferSelect;

export interface UserHeaders {
  externalId: string | null;
  userId: string | null;
}

/**
 * The rules an external id meets, each named in the 422: ids are echoed into logs, JSON and the
 * console, and two ids that look the same must be the same learner. A lone surrogate (JSON allows
 * "\ud800") used to be stored as U+FFFD, merging distinct ids into one learner; zero-width and
 * bidi-override characters make an id that reads as another.
 */
const EXTERNAL_ID_RULES: [rule: string, re: RegExp, what: string][] = [
  ["no_lone_surrogates", /\p{Cs}/u, "a lone surrogate (half of a UTF-16 pair)"],
  ["no_control_characters", /\p{Cc}/u, "control characters"],
  ["no_invisible_characters", /\p{Cf}/u, "zero-width or bidi-override characters"],
];
const MAX_EXTERNAL_ID = 256;

/** The external id as stored and looked up (NFC), or a 422 naming the rule it breaks. */
function externalIdOf(raw: string): string {
  for (const [rule, re, what] of EXTERNAL_ID_RULES) {
    if (re.test(raw)) throw new AppError("VALIDATION_ERROR", `An external user id may not hold ${what}`, { rule });
  }
  const id = raw.normalize("NFC");
  if (id.length < 1 || id.length > MAX_EXTERNAL_ID) {
    throw new AppError("VALIDATION_ERROR", `An external user id has 1-${MAX_EXTERNAL_ID} characters`, {
      rule: "length",
    });
  }
  return id;
}

export function toUserResource(u: User) {
  return {
    user_id: u.id,
    external_id: u.externalId,
    email: u.email,
    name: u.name,
    learning_goal: u.learningGoal,
    created_at: u.createdAt,
  };
}

/**
 * Resolves the learner named by the request headers. Writes create an unknown external id
 * (pattern A); reads never do, so an unknown learner is 404 there.
 */
export function resolveUser(db: Db, tenantId: string, h: UserHeaders, opts: { create: boolean }): User {
  if (h.userId != null) {
    if (!isUuid(h.userId)) throw new AppError("USER_NOT_FOUND", "Unknown X-User-Id");
    const u = lookups(db).byId.get(tenantId, h.userId);
    if (!u) throw new AppError("USER_NOT_FOUND", "Unknown X-User-Id");
    return u;
  }
  if (h.externalId != null) {
    const externalId = externalIdOf(h.externalId);
    const found = findByExternalId(db, tenantId, externalId);
    if (found) return found;
    if (!opts.create) throw new AppError("USER_NOT_FOUND", "Unknown external user");
    return insertUser(db, tenantId, { externalId });
  }
  throw new AppError("USER_REQUIRED", "This endpoint needs X-External-User-Id or X-User-Id");
}

const USER_COLUMNS = `id, tenant_id AS tenantId, external_id AS externalId, email, name, learning_goal AS learningGoal,
  created_at AS createdAt`;

// Every per-user request resolves its learner: prepared statements keep that to microseconds.
const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db) {
  return {
    byId: db.$client.query<User, [string, string]>(`SELECT ${USER_COLUMNS} FROM users WHERE tenant_id = ? AND id = ?`),
    byExternal: db.$client.query<User, [string, string]>(
      `SELECT ${USER_COLUMNS} FROM users WHERE tenant_id = ? AND external_id = ?`,
    ),
  };
}
function lookups(db: Db) {
  const p = getOrCreate(prepared, db, () => prepare(db));
  return p;
}

function findByExternalId(db: Db, tenantId: string, externalId: string): User | undefined {
  return lookups(db).byExternal.get(tenantId, externalId) ?? undefined;
}

function insertUser(
  db: Db,
  tenantId: string,
  v: { externalId?: string | null; email?: string | null; name?: string | null; learningGoal?: string | null },
): User {
  const row: User = {
    id: newId(),
    tenantId,
    externalId: v.externalId ?? null,
    email: v.email ?? null,
    name: v.name ?? null,
    learningGoal: v.learningGoal ?? null,
    createdAt: nowIso(),
  };
  // Two first writes of one learner may race; the unique (tenant, external id) keeps one row.
  db.insert(users).values(row).onConflictDoNothing().run();
  return v.externalId ? findByExternalId(db, tenantId, v.externalId)! : row;
}

/** POST /v2/users: registers a learner, or returns the one already registered with that external id. */
export function registerUser(
  db: Db,
  tenantId: string,
  body: { external_id?: string; email?: string; name?: string; learning_goal?: LearningGoal },
): { user: User; created: boolean } {
  const externalId = body.external_id == null ? undefined : externalIdOf(body.external_id);
  if (externalId !== undefined) {
    const existing = findByExternalId(db, tenantId, externalId);
    if (existing) return { user: existing, created: false };
  }
  const user = insertUser(db, tenantId, {
    externalId,
    email: body.email,
    name: body.name,
    learningGoal: body.learning_goal,
  });
  return { user, created: true };
}

export function updateUserProfile(
  db: Db,
  user: User,
  patch: { email?: string; name?: string; learning_goal?: LearningGoal | null },
): User {
  const next = {
    email: patch.email ?? user.email,
    name: patch.name ?? user.name,
    learningGoal: patch.learning_goal === undefined ? user.learningGoal : patch.learning_goal,
  };
  db.update(users).set(next).where(eq(users.id, user.id)).run();
  return { ...user, ...next };
}

/**
 * Deletes a learner only while nothing refers to it, in one statement so nothing can start referring
 * in between (courses, documents and progress cascade from users; jobs and usage keep the id).
 */
export function discardUnreferencedUser(sqlite: Database, id: string): void {
  sqlite.run(
    `DELETE FROM users WHERE id = ?1
       AND NOT EXISTS (SELECT 1 FROM courses WHERE user_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM documents WHERE user_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM jobs WHERE user_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM usage_events WHERE user_id = ?1)`,
    [id],
  );
}
