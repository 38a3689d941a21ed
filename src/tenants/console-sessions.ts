/**
 * Web console sessions. The console signs in once with an API key and a learner; the browser then
 * holds a random token (in an HttpOnly cookie) instead of the key. Only the token's SHA-256 is
 * stored, like keys; a session lasts SESSION_HOURS and ends earlier with sign-out, with its key's
 * revocation (checked on every request, not copied), or with its learner.
 */
import type { Clock } from "../clock.ts";
import { type Sql, sql } from "../db/sql.ts";
import { unauthorized } from "../errors.ts";
import { sha256Hex } from "../util.ts";
import {
  type AuthContext,
  authContextOf,
  KEY_ROW_COLUMNS,
  KEY_ROW_TABLES,
  type KeyAuthenticator,
  type KeyRow,
} from "./keys.ts";
import { resolveUser, type User } from "./users.ts";

export const SESSION_HOURS = 12;

export interface ConsoleSession {
  auth: AuthContext;
  userId: string;
  expiresAt: string;
}

function newToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/**
 * Checks the key and the learner and opens a session. An unknown external id is registered, as a
 * first write would; an unknown user_id is 404. A wrong key is 401 without saying which part failed.
 * `authenticate` is the caller's keyAuthenticator (it may also count the sign-in against a limit).
 */
export async function openSession(
  { db, clock }: { db: Sql; clock: Clock },
  authenticate: KeyAuthenticator,
  input: { apiKey: string; externalUserId?: string; userId?: string },
): Promise<{ token: string; session: ConsoleSession; user: User }> {
  const auth = await authenticate(input.apiKey);
  if (!auth) throw unauthorized("The API key is not valid");
  const user = await resolveUser(
    db,
    auth.tenantId,
    { externalId: input.externalUserId ?? null, userId: input.userId ?? null },
    { create: true },
  );
  const token = newToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString();
  await db.run(sql`DELETE FROM console_sessions WHERE expires_at <= ${now.toISOString()}`);
  await db.run(
    sql`INSERT INTO console_sessions (token_hash, tenant_id, key_id, user_id, created_at, expires_at)
        VALUES (${sha256Hex(token)}, ${auth.tenantId}, ${auth.keyId}, ${user.id}, ${now.toISOString()}, ${expiresAt})`,
  );
  return { token, session: { auth, userId: user.id, expiresAt }, user };
}

/** The live session of a token, or null (unknown, expired, signed out, or its key revoked). */
export function sessionAuthenticator(db: Sql, clock: Clock): (token: string) => Promise<ConsoleSession | null> {
  return async (token) => {
    const row = await db.get<KeyRow & { user_id: string; expires_at: string }>(
      sql`SELECT ${KEY_ROW_COLUMNS}, s.user_id, s.expires_at
            FROM ${KEY_ROW_TABLES} JOIN console_sessions s ON s.key_id = k.id
           WHERE s.token_hash = ${sha256Hex(token)} AND s.expires_at > ${clock.now().toISOString()}
             AND k.revoked_at IS NULL`,
    );
    const auth = row && authContextOf(row);
    return row && auth ? { auth, userId: row.user_id, expiresAt: row.expires_at } : null;
  };
}

export async function endSession(db: Sql, token: string): Promise<void> {
  await db.run(sql`DELETE FROM console_sessions WHERE token_hash = ${sha256Hex(token)}`);
}
