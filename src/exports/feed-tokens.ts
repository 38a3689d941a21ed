/**
 * Revocable podcast feeds. A feed's token is its id followed by an HMAC of the id under the
 * server's own feed secret (DATA_DIR/secrets/podcast-feed.key): the same URL can be handed out
 * again, nothing secret is stored, and a revoked or unknown id is refused. The token opens the
 * feed and its audio and nothing else: API routes read X-API-Key, never this.
 */
import { timingSafeEqual } from "node:crypto";
import { type Sql, sql } from "../db/sql.ts";
import type { Signer } from "../media/signer.ts";
import { newId, nowIso } from "../util.ts";

export interface Feed {
  id: string;
  course_id: string;
  created_at: string;
}

const macOf = (signer: Signer, id: string) => signer.mac(`podcast-feed\n${id}`, "base64url");

/** `signer` holds the feed secret (built once by the composition root). */
export const feedToken = (signer: Signer, feed: Feed) => `${feed.id.replaceAll("-", "")}${macOf(signer, feed.id)}`;

const TOKEN_RE = /^([0-9a-f]{32})([A-Za-z0-9_-]{43})$/;

const liveFeedOf = (courseId: string) =>
  sql`SELECT id, course_id, created_at FROM podcast_feeds WHERE course_id = ${courseId} AND revoked_at IS NULL`;

/** The live feed a token opens, or null (malformed, forged, unknown or revoked). */
export async function feedOfToken(db: Sql, signer: Signer, token: string): Promise<Feed | null> {
  const m = TOKEN_RE.exec(token);
  if (!m) return null;
  const hex = m[1]!;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  if (!timingSafeEqual(Buffer.from(macOf(signer, id)), Buffer.from(m[2]!))) return null;
  return db.get<Feed>(sql`SELECT id, course_id, created_at FROM podcast_feeds WHERE id = ${id} AND revoked_at IS NULL`);
}

/** The course's live feed, created when it has none; `created` says which. */
export async function openFeed(db: Sql, courseId: string): Promise<{ feed: Feed; created: boolean }> {
  const existing = await db.get<Feed>(liveFeedOf(courseId));
  if (existing) return { feed: existing, created: false };
  // The partial unique index keeps one live feed per course, also under concurrent requests and nodes.
  const changes = await db.run(
    sql`INSERT INTO podcast_feeds (id, course_id, created_at) VALUES (${newId()}, ${courseId}, ${nowIso()})
        ON CONFLICT DO NOTHING`,
  );
  return { feed: (await db.get<Feed>(liveFeedOf(courseId)))!, created: changes === 1 };
}

/** Revokes the course's live feed; false when it had none. */
export async function revokeFeed(db: Sql, courseId: string): Promise<boolean> {
  const changes = await db.run(
    sql`UPDATE podcast_feeds SET revoked_at = ${nowIso()} WHERE course_id = ${courseId} AND revoked_at IS NULL`,
  );
  return changes > 0;
}
