/**
 * Tenants and their API keys. Keys are 32 random bytes (base62) behind a readable prefix, so a
 * single SHA-256 is enough to store them safely: unlike passwords they cannot be guessed from a
 * dictionary, and a fast hash keeps authentication off the hot path's profile.
 */
import { forUpdate, type Query, raw, type Sql, sql } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { newId, nowIso, sha256Hex } from "../util.ts";

export type KeyEnv = "test" | "production";

export interface AuthContext {
  /**
   * Owner of every record the key creates or sees: the tenant for a production key, the tenant's
   * test environment for a test key, so the two never read, change or delete each other's data.
   */
  tenantId: string;
  tenantName: string;
  keyId: string;
  keyEnv: KeyEnv;
  /** Requests per minute for this caller's bucket, or null for the server default. */
  rateLimit: number | null;
  /** Rate-limit bucket: the key when it has its own limit, otherwise the tenant. */
  rateBucket: string;
  ttsProvider: string | null;
}

const KEY_RE = /^sk-service-(test|production)-([0-9A-Za-z]{20,64})$/;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomBase62(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let out = "";
  for (const b of bytes) {
    // Rejection sampling keeps every character equally likely (248 = 4 * 62).
    if (b < 248) out += ALPHABET[b % 62];
    if (out.length === length) break;
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

export function ensureTenant(
  db: Sql,
  name: string,
  rateLimit?: number | null,
): Promise<{ id: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const id = newId();
    // The unique name settles two nodes creating one tenant at once: one insert lands.
    const inserted = await tx.run(
      sql`INSERT INTO tenants (id, name, rate_limit_per_minute, created_at)
          VALUES (${id}, ${name}, ${rateLimit ?? null}, ${nowIso()}) ON CONFLICT (name) DO NOTHING`,
    );
    if (inserted === 1) return { id, created: true };
    const existing = (await tx.get<{ id: string }>(sql`SELECT id FROM tenants WHERE name = ${name}`))!;
    if (rateLimit !== undefined)
      await tx.run(sql`UPDATE tenants SET rate_limit_per_minute = ${rateLimit} WHERE id = ${existing.id}`);
    return { id: existing.id, created: false };
  });
}

/** The tenants row holding a tenant's test data (see migration 0010), made on first use. */
async function ensureTestEnvironment(db: Sql, tenantId: string): Promise<void> {
  // environment_of is unique: a second creator's insert is skipped.
  await db.run(
    sql`INSERT INTO tenants (id, name, environment_of, created_at)
        VALUES (${newId()}, ${`test-environment:${tenantId}`}, ${tenantId}, ${nowIso()}) ON CONFLICT DO NOTHING`,
  );
}

export function createKey(
  db: Sql,
  opts: { tenant: string; env: KeyEnv; rateLimit?: number | null },
): Promise<{ key: string; id: string; tenantId: string; prefix: string }> {
  return db.transaction(async (tx) => {
    const { id: tenantId } = await ensureTenant(tx, opts.tenant);
    if (opts.env === "test") await ensureTestEnvironment(tx, tenantId);
    const key = `sk-service-${opts.env}-${randomBase62(40)}`;
    const prefix = key.slice(0, `sk-service-${opts.env}-`.length + 8);
    const id = newId();
    await tx.run(
      sql`INSERT INTO api_keys (id, tenant_id, env, prefix, key_hash, rate_limit_per_minute, created_at)
          VALUES (${id}, ${tenantId}, ${opts.env}, ${prefix}, ${sha256Hex(key)}, ${opts.rateLimit ?? null}, ${nowIso()})`,
    );
    return { key, id, tenantId, prefix };
  });
}

export interface ListedKey {
  prefix: string;
  tenant: string;
  env: KeyEnv;
  rateLimit: number | null;
  createdAt: string;
  revokedAt: string | null;
}

export function listKeys(db: Sql): Promise<ListedKey[]> {
  return db.all<ListedKey>(
    sql`SELECT k.prefix, t.name AS tenant, k.env, k.rate_limit_per_minute AS "rateLimit", k.created_at AS "createdAt",
               k.revoked_at AS "revokedAt"
          FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
         ORDER BY t.name, k.created_at`,
  );
}

/** Revokes the one active key whose prefix starts with `prefix`; refuses an ambiguous prefix. */
export function revokeKey(db: Sql, prefix: string): Promise<{ prefix: string }> {
  if (prefix.length < 12)
    return Promise.reject(new AppError("VALIDATION_ERROR", "Give at least the first 12 characters of the key"));
  return db.transaction(async (tx) => {
    // Accepts the prefix shown by `keys list` or the whole key; there are few keys, so filter here.
    const active = await tx.all<{ id: string; prefix: string }>(
      sql`SELECT id, prefix FROM api_keys WHERE revoked_at IS NULL${forUpdate}`,
    );
    const matches = active.filter((k) => k.prefix.startsWith(prefix) || prefix.startsWith(k.prefix));
    if (matches.length === 0) throw new AppError("NOT_FOUND", `No active key starts with ${prefix}`);
    if (matches.length > 1)
      throw new AppError("CONFLICT", `${matches.length} active keys start with ${prefix}; give more characters`);
    const match = matches[0]!;
    await tx.run(sql`UPDATE api_keys SET revoked_at = ${nowIso()} WHERE id = ${match.id}`);
    return { prefix: match.prefix };
  });
}

export function setTenantTtsProvider(db: Sql, tenant: string, provider: string | null): Promise<void> {
  return db.transaction(async (tx) => {
    const { id } = await ensureTenant(tx, tenant);
    await tx.run(sql`UPDATE tenants SET tts_provider = ${provider} WHERE id = ${id}`);
  });
}

/** A key's row joined with its tenant and the tenant's test environment, as authentication selects it. */
export interface KeyRow {
  key_id: string;
  env: KeyEnv;
  key_limit: number | null;
  tenant_id: string;
  tenant_name: string;
  tenant_limit: number | null;
  tts_provider: string | null;
  test_environment_id: string | null;
}

/** Columns of KeyRow, from KEY_ROW_TABLES. */
export const KEY_ROW_COLUMNS =
  raw(`k.id AS key_id, k.env, k.rate_limit_per_minute AS key_limit, t.id AS tenant_id, t.name AS tenant_name,
            t.rate_limit_per_minute AS tenant_limit, t.tts_provider, e.id AS test_environment_id`);
export const KEY_ROW_TABLES = raw(
  "api_keys k JOIN tenants t ON t.id = k.tenant_id LEFT JOIN tenants e ON e.environment_of = t.id",
);

/** The caller a key row authenticates, or null for a test key without its environment. */
export function authContextOf(row: KeyRow): AuthContext | null {
  const dataOwner = row.env === "test" ? row.test_environment_id : row.tenant_id;
  // createKey and migration 0010 give every test key its environment; without one, refuse
  // rather than let a test key work on production data.
  if (!dataOwner) return null;
  return {
    tenantId: dataOwner,
    tenantName: row.tenant_name,
    keyId: row.key_id,
    keyEnv: row.env,
    rateLimit: row.key_limit ?? row.tenant_limit,
    // One bucket for both environments: test keys do not add to a tenant's production limit.
    rateBucket: row.key_limit != null ? `key:${row.key_id}` : `tenant:${row.tenant_id}`,
    ttsProvider: row.tts_provider,
  };
}

export type KeyAuthenticator = (key: string | null) => Promise<AuthContext | null>;

/** The key row of a live key with this SHA-256, as authentication selects it. */
const liveKeyByHash = (hash: string): Query =>
  sql`SELECT ${KEY_ROW_COLUMNS} FROM ${KEY_ROW_TABLES} WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL`;

/** The authentication hot path: a malformed key is refused before the one indexed lookup by hash. */
export function keyAuthenticator(db: Sql): KeyAuthenticator {
  return async (key) => {
    if (!key) return null;
    const m = KEY_RE.exec(key);
    if (!m) return null;
    const row = await db.get<KeyRow>(liveKeyByHash(sha256Hex(key)));
    if (!row || row.env !== m[1]) return null;
    return authContextOf(row);
  };
}

export async function hasAnyKey(db: Sql): Promise<boolean> {
  return (await db.get(sql`SELECT id FROM api_keys LIMIT 1`)) !== null;
}
