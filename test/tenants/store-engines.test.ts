/**
 * The tenants owner's storage (tenants, api_keys, users, console_sessions), run the same on both
 * engines: SQLite (the server's) and PostgreSQL (a throwaway cluster, migrated by migratePostgres).
 * What is checked is what the HTTP layer relies on: who a key or a session authenticates as, when
 * it stops doing so, and that first writes racing each other still make one tenant or learner.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "../../src/db/sql.ts";
import { AppError } from "../../src/errors.ts";
import { endSession, openSession, SESSION_HOURS, sessionAuthenticator } from "../../src/tenants/console-sessions.ts";
import {
  createKey,
  ensureTenant,
  hasAnyKey,
  keyAuthenticator,
  listKeys,
  revokeKey,
  setTenantTtsProvider,
} from "../../src/tenants/keys.ts";
import { discardUnreferencedUser, registerUser, resolveUser, updateUserProfile } from "../../src/tenants/users.ts";
import { ENGINES, type Engine } from "../helpers/engines.ts";
import { manualClock } from "../helpers/manual-clock.ts";

describe.each(ENGINES)("tenants storage on %s", (_, open) => {
  let e: Engine;

  // initdb on a loaded machine takes longer than a hook's default 5 s.
  beforeAll(async () => {
    e = await open();
  }, 120_000);
  afterAll(() => e?.close());

  test("a tenant is made once, by name, and its rate limit and TTS engine are set on it", async () => {
    expect(await hasAnyKey(e.db)).toBe(false);
    const made = await ensureTenant(e.db, "acme");
    expect(made.created).toBe(true);
    expect(await ensureTenant(e.db, "acme", 30)).toEqual({ id: made.id, created: false });
    await setTenantTtsProvider(e.db, "acme", "piper");
    const row = await e.db.get<{ rate_limit_per_minute: number; tts_provider: string }>(
      sql`SELECT rate_limit_per_minute, tts_provider FROM tenants WHERE id = ${made.id}`,
    );
    expect(row).toEqual({ rate_limit_per_minute: 30, tts_provider: "piper" });
  });

  test("first keys of one new tenant created at once make one tenant and one test environment", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => createKey(e.db, { tenant: "rush", env: "test" })));
    expect(new Set(made.map((m) => m.tenantId)).size).toBe(1);
    const rows = await e.db.all<{ id: string }>(
      sql`SELECT id FROM tenants WHERE name = 'rush' OR environment_of = ${made[0]!.tenantId}`,
    );
    expect(rows).toHaveLength(2);
  });

  test("a key authenticates as its tenant, a test key as the tenant's test environment, until it is revoked", async () => {
    const authenticate = keyAuthenticator(e.db);
    const production = await createKey(e.db, { tenant: "globex", env: "production", rateLimit: 7 });
    const testKey = await createKey(e.db, { tenant: "globex", env: "test" });
    expect(await hasAnyKey(e.db)).toBe(true);

    const prod = await authenticate(production.key);
    expect(prod).toEqual({
      tenantId: production.tenantId,
      tenantName: "globex",
      keyId: production.id,
      keyEnv: "production",
      rateLimit: 7,
      rateBucket: `key:${production.id}`,
      ttsProvider: null,
    });
    const test = (await authenticate(testKey.key))!;
    expect(test.keyEnv).toBe("test");
    expect(test.tenantId).not.toBe(testKey.tenantId);
    expect(test.rateBucket).toBe(`tenant:${testKey.tenantId}`);

    // The environment named in the key must be the key's own.
    expect(await authenticate(production.key.replace("-production-", "-test-"))).toBeNull();
    expect(await authenticate("sk-service-test-short")).toBeNull();
    expect(await authenticate(null)).toBeNull();

    await expect(revokeKey(e.db, "sk-service")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(revokeKey(e.db, "sk-service-test-")).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(revokeKey(e.db, "sk-service-production-zzzzzzzz")).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await revokeKey(e.db, production.key)).toEqual({ prefix: production.prefix });
    expect(await authenticate(production.key)).toBeNull();
    expect(await authenticate(testKey.key)).not.toBeNull();

    const listed = (await listKeys(e.db)).filter((k) => k.tenant === "globex");
    expect(listed).toEqual([
      expect.objectContaining({
        prefix: production.prefix,
        env: "production",
        rateLimit: 7,
        revokedAt: expect.any(String),
      }),
      expect.objectContaining({ prefix: testKey.prefix, env: "test", rateLimit: null, revokedAt: null }),
    ]);
  });

  test("learners: created on a write only, found by external id or user id, one row for racing first writes", async () => {
    const { id: tenantId } = await ensureTenant(e.db, "learners");
    const headers = { externalId: "Renée", userId: null };
    await expect(resolveUser(e.db, tenantId, headers, { create: false })).rejects.toMatchObject({
      code: "USER_NOT_FOUND",
    });
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => resolveUser(e.db, tenantId, headers, { create: true })),
    );
    expect(new Set(raced.map((u) => u.id)).size).toBe(1);
    const [u] = raced;
    expect(u).toMatchObject({ tenantId, externalId: "Renée", email: null, learningGoal: null });
    expect(await resolveUser(e.db, tenantId, { externalId: null, userId: u!.id }, { create: false })).toEqual(u!);
    await expect(
      resolveUser(e.db, tenantId, { externalId: null, userId: crypto.randomUUID() }, { create: true }),
    ).rejects.toMatchObject({ code: "USER_NOT_FOUND" });
    await expect(
      resolveUser(e.db, tenantId, { externalId: "a\u200bb", userId: null }, { create: true }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(resolveUser(e.db, tenantId, { externalId: null, userId: null }, { create: true })).rejects.toThrow(
      AppError,
    );

    expect(await registerUser(e.db, tenantId, { external_id: "Renée" })).toEqual({ user: u!, created: false });
    const other = await registerUser(e.db, tenantId, { email: "a@example.org", learning_goal: "career" });
    expect(other.created).toBe(true);
    const updated = await updateUserProfile(e.db, u!, { name: "Renée D.", learning_goal: "exams" });
    expect(await resolveUser(e.db, tenantId, headers, { create: false })).toEqual(updated);
    expect(updated).toMatchObject({ name: "Renée D.", learningGoal: "exams" });

    await e.db.run(
      sql`INSERT INTO usage_events (id, tenant_id, user_id, key_env, operation, created_at)
          VALUES (${crypto.randomUUID()}, ${tenantId}, ${u!.id}, 'production', 'query', ${new Date().toISOString()})`,
    );
    await discardUnreferencedUser(e.db, u!.id);
    await discardUnreferencedUser(e.db, other.user.id);
    const left = await e.db.all<{ id: string }>(sql`SELECT id FROM users WHERE tenant_id = ${tenantId}`);
    expect(left).toEqual([{ id: u!.id }]);
  });

  test("a console session lasts its hours and ends with sign-out or its key's revocation", async () => {
    const clock = manualClock();
    const sessionOf = sessionAuthenticator(e.db, clock);
    const made = await createKey(e.db, { tenant: "console", env: "test" });
    const authenticate = keyAuthenticator(e.db);
    const opened = await openSession({ db: e.db, clock }, authenticate, { apiKey: made.key, externalUserId: "ada" });
    expect(opened.user.externalId).toBe("ada");
    const found = (await sessionOf(opened.token))!;
    expect(found.userId).toBe(opened.user.id);
    expect(found.auth).toEqual((await authenticate(made.key))!);

    await expect(
      openSession({ db: e.db, clock }, authenticate, { apiKey: `${made.key}x`, externalUserId: "ada" }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    const second = await openSession({ db: e.db, clock }, authenticate, { apiKey: made.key, userId: opened.user.id });
    await endSession(e.db, second.token);
    expect(await sessionOf(second.token)).toBeNull();
    expect(await sessionOf(opened.token)).not.toBeNull();

    clock.advance(SESSION_HOURS * 3_600_000);
    expect(await sessionOf(opened.token)).toBeNull();

    const third = await openSession({ db: e.db, clock }, authenticate, { apiKey: made.key, externalUserId: "ada" });
    // Opening a session clears the expired ones.
    const stored = await e.db.all(sql`SELECT token_hash FROM console_sessions WHERE key_id = ${made.id}`);
    expect(stored).toHaveLength(1);
    await revokeKey(e.db, made.key);
    expect(await sessionOf(third.token)).toBeNull();
  });
});
