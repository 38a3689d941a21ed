/**
 * Tenants and their API keys. Keys are 32 random bytes (base62) behind a readable prefix, so a
 * single SHA-256 is enough to store them safely: unlike passwords they cannot be guessed from a
 * dictionary, and a fast hash keeps authentication off the hot path's profile.
 */
import { eq, isNull } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { apiKeys, tenants } from "../db/schema/index.ts";
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

export function ensureTenant(db: Db, name: string, rateLimit?: number | null): { id: string; created: boolean } {
  const existing = db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, name)).get();
  if (existing) {
    if (rateLimit !== undefined)
      db.update(tenants).set({ rateLimitPerMinute: rateLimit }).where(eq(tenants.id, existing.id)).run();
    return { id: existing.id, created: false };
  }
  const id = newId();
  db.insert(tenants)
    .values({ id, name, rateLimitPerMinute: rateLimit ?? null, createdAt: nowIso() })
    .run();
  return { id, created: true };
}

/** The tenants row holding a tenant's test data (see migration 0010), made on first use. */
function ensureTestEnvironment(db: Db, tenantId: string): string {
  const existing = db.select({ id: tenants.id }).from(tenants).where(eq(tenants.environmentOf, tenantId)).get();
  if (existing) return existing.id;
  const id = newId();
  db.insert(tenants)
    .values({ id, name: `test-environment:${tenantId}`, environmentOf: tenantId, createdAt: nowIso() })
    .run();
  return id;
}

export function createKey(
  db: Db,
  opts: { tenant: string; env: KeyEnv; rateLimit?: number | null },
): { key: string; id: string; tenantId: string; prefix: string } {
  const { id: tenantId } = ensureTenant(db, opts.tenant);
  if (opts.env === "test") ensureTestEnvironment(db, tenantId);
  const key = `sk-service-${opts.env}-${randomBase62(40)}`;
  const prefix = key.slice(0, `sk-service-${opts.env}-`.length + 8);
  const id = newId();
  db.insert(apiKeys)
    .values({
      id,
      tenantId,
      env: opts.env,
      prefix,
      keyHash: sha256Hex(key),
      rateLimitPerMinute: opts.rateLimit ?? null,
      createdAt: nowIso(),
    })
    .run();
  return { key, id, tenantId, prefix };
}

export function listKeys(db: Db) {
  return db
    .select({
      prefix: apiKeys.prefix,
      tenant: tenants.name,
      env: apiKeys.env,
      rateLimit: apiKeys.rateLimitPerMinute,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .orderBy(tenants.name, apiKeys.createdAt)
    .all();
}

/** Revokes the one active key whose prefix starts with `prefix`; refuses an ambiguous prefix. */
export function revokeKey(db: Db, prefix: string): { prefix: string } {
  if (prefix.length < 12) throw new AppError("VALIDATION_ERROR", "Give at least the first 12 characters of the key");
  // Accepts the prefix shown by `keys list` or the whole key; there are few keys, so filter here.
  const matches = db
    .select({ id: apiKeys.id, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(isNull(apiKeys.revokedAt))
    .all()
    .filter((k) => k.prefix.startsWith(prefix) || prefix.startsWith(k.prefix));
  if (matches.length === 0) throw new AppError("NOT_FOUND", `No active key starts with ${prefix}`);
  if (matches.length > 1)
    throw new AppError("CONFLICT", `${matches.length} active keys start with ${prefix}; give more characters`);
  const match = matches[0]!;
  db.update(apiKeys).set({ revokedAt: nowIso() }).where(eq(apiKeys.id, match.id)).run();
  return { prefix: match.prefix };
}

export function setTenantTtsProvider(db: Db, tenant: string, provider: string | null): void {
  const { id } = ensureTenant(db, tenant);
  db.update(tenants).set({ ttsProvider: provider }).where(eq(tenants.id, id)).run();
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
export const KEY_ROW_COLUMNS = `k.id AS key_id, k.env, k.rate_limit_per_minute AS key_limit, t.id AS tenant_id, t.name AS tenant_name,
            t.rate_limit_per_minute AS tenant_limit, t.tts_provider, e.id AS test_environment_id`;
export const KEY_ROW_TABLES =
  "api_keys k JOIN tenants t ON t.id = k.tenant_id LEFT JOIN tenants e ON e.environment_of = t.id";

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

export type KeyAuthenticator = (key: string | null) => AuthContext | null;

/** The authentication hot path: one indexed lookup by hash, prepared once per connection. */
export function keyAuthenticator(db: Db): KeyAuthenticator {
  const stmt = db.$client.query<KeyRow, [string]>(
    `SELECT ${KEY_ROW_COLUMNS}
       FROM ${KEY_ROW_TABLES}
      WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
  );
  return (key) => {
    if (!key) return null;
    const m = KEY_RE.exec(key);
    if (!m) return null;
    const row = stmt.get(sha256Hex(key));
    if (!row || row.env !== m[1]) return null;
    return authContextOf(row);
  };
}

export function hasAnyKey(db: Db): boolean {
  return db.select({ id: apiKeys.id }).from(apiKeys).limit(1).get() !== undefined;
}
