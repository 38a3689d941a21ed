/** Learners inside a tenant, addressed by the caller's external id or by our user UUID. */
import type { users } from "../db/schema/index.ts";
import { type Query, raw, type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { isUuid, newId, nowIso } from "../util.ts";

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
export async function resolveUser(db: Sql, tenantId: string, h: UserHeaders, opts: { create: boolean }): Promise<User> {
  if (h.userId != null) return knownUser(await db.get<User>(userById(tenantId, userIdOf(h.userId))));
  const externalId = requiredExternalId(h);
  const found = await db.get<User>(userByExternalId(tenantId, externalId));
  if (found) return found;
  if (!opts.create) throw new AppError("USER_NOT_FOUND", "Unknown external user");
  return insertUser(db, tenantId, { externalId });
}

function userIdOf(userId: string): string {
  if (!isUuid(userId)) throw new AppError("USER_NOT_FOUND", "Unknown X-User-Id");
  return userId;
}

function knownUser(u: User | null): User {
  if (!u) throw new AppError("USER_NOT_FOUND", "Unknown X-User-Id");
  return u;
}

function requiredExternalId(h: UserHeaders): string {
  if (h.externalId == null) throw new AppError("USER_REQUIRED", "This endpoint needs X-External-User-Id or X-User-Id");
  return externalIdOf(h.externalId);
}

// Quoted aliases: PostgreSQL folds unquoted names to lower case.
const USER_COLUMNS = raw(`id, tenant_id AS "tenantId", external_id AS "externalId", email, name,
  learning_goal AS "learningGoal", created_at AS "createdAt"`);

const userById = (tenantId: string, id: string): Query =>
  sql`SELECT ${USER_COLUMNS} FROM users WHERE tenant_id = ${tenantId} AND id = ${id}`;

const userByExternalId = (tenantId: string, externalId: string): Query =>
  sql`SELECT ${USER_COLUMNS} FROM users WHERE tenant_id = ${tenantId} AND external_id = ${externalId}`;

type NewUser = {
  externalId?: string | null;
  email?: string | null;
  name?: string | null;
  learningGoal?: string | null;
};

function newUserRow(tenantId: string, v: NewUser): User {
  return {
    id: newId(),
    tenantId,
    externalId: v.externalId ?? null,
    email: v.email ?? null,
    name: v.name ?? null,
    learningGoal: v.learningGoal ?? null,
    createdAt: nowIso(),
  };
}

// Two first writes of one learner may race; the unique (tenant, external id) keeps one row.
const insertUserRow = (u: User): Query =>
  sql`INSERT INTO users (id, tenant_id, external_id, email, name, learning_goal, created_at)
      VALUES (${u.id}, ${u.tenantId}, ${u.externalId}, ${u.email}, ${u.name}, ${u.learningGoal}, ${u.createdAt})
      ON CONFLICT DO NOTHING`;

async function insertUser(db: Sql, tenantId: string, v: NewUser): Promise<User> {
  const row = newUserRow(tenantId, v);
  await db.run(insertUserRow(row));
  return v.externalId ? (await db.get<User>(userByExternalId(tenantId, v.externalId)))! : row;
}

/** POST /v2/users: registers a learner, or returns the one already registered with that external id. */
export async function registerUser(
  db: Sql,
  tenantId: string,
  body: { external_id?: string; email?: string; name?: string; learning_goal?: LearningGoal },
): Promise<{ user: User; created: boolean }> {
  const externalId = body.external_id == null ? undefined : externalIdOf(body.external_id);
  if (externalId !== undefined) {
    const existing = await db.get<User>(userByExternalId(tenantId, externalId));
    if (existing) return { user: existing, created: false };
  }
  const user = await insertUser(db, tenantId, {
    externalId,
    email: body.email,
    name: body.name,
    learningGoal: body.learning_goal,
  });
  return { user, created: true };
}

export async function updateUserProfile(
  db: Sql,
  user: User,
  patch: { email?: string; name?: string; learning_goal?: LearningGoal | null },
): Promise<User> {
  const next = {
    email: patch.email ?? user.email,
    name: patch.name ?? user.name,
    learningGoal: patch.learning_goal === undefined ? user.learningGoal : patch.learning_goal,
  };
  await db.run(
    sql`UPDATE users SET email = ${next.email}, name = ${next.name}, learning_goal = ${next.learningGoal}
         WHERE id = ${user.id}`,
  );
  return { ...user, ...next };
}

/**
 * Deletes a learner only while nothing refers to it, in one statement so nothing can start referring
 * in between (courses, documents and progress cascade from users; jobs and usage keep the id).
 */
export async function discardUnreferencedUser(db: Sql, id: string): Promise<void> {
  await db.run(
    sql`DELETE FROM users WHERE id = ${id}
          AND NOT EXISTS (SELECT 1 FROM courses WHERE user_id = ${id})
          AND NOT EXISTS (SELECT 1 FROM documents WHERE user_id = ${id})
          AND NOT EXISTS (SELECT 1 FROM jobs WHERE user_id = ${id})
          AND NOT EXISTS (SELECT 1 FROM usage_events WHERE user_id = ${id})`,
  );
}
