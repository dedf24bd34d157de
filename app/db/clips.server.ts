/** Clips: the rows the ledger inserts with a charge, and the reads of the signed-in pages and API v1. */
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Clip } from "~/domain/api";
import type { Format, Quality } from "~/domain/media";
import type { Db } from "./client.server";
import { clips } from "./schema";

type ClipRow = typeof clips.$inferSelect;

export function toApiClip(row: ClipRow): Clip {
  return {
    id: row.id,
    name: row.name,
    videoUrl: row.videoUrl,
    startSeconds: row.startTimeSeconds,
    endSeconds: row.endTimeSeconds,
    format: row.format as Format,
    quality: row.quality as Quality,
    cost: row.cost,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function recentClips(db: Db, userId: string, limit = 5): Promise<Clip[]> {
  let query = recentClipQueries.get(db);
  if (!query) {
    query = prepareRecentClips(db);
    recentClipQueries.set(db, query);
  }
  return (await query.all({ userId, limit })).map(toApiClip);
}

// Every dashboard view runs it: built once per database handle, not per request.
const recentClipQueries = new WeakMap<Db, ReturnType<typeof prepareRecentClips>>();

function prepareRecentClips(db: Db) {
  return db
    .select()
    .from(clips)
    .where(eq(clips.userId, sql.placeholder("userId")))
    .orderBy(desc(clips.createdAt))
    .limit(sql.placeholder("limit"))
    .prepare();
}

/** A page of the user's clips, newest first, older than `before`; one extra row tells whether more follow. */
export async function clipPage(db: Db, userId: string, page: { limit: number; before?: string }) {
  const rows = await db
    .select()
    .from(clips)
    .where(
      page.before
        ? and(eq(clips.userId, userId), lt(clips.createdAt, new Date(page.before)))
        : eq(clips.userId, userId),
    )
    .orderBy(desc(clips.createdAt))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map(toApiClip);
  return { clips: items, nextBefore: rows.length > page.limit ? (items.at(-1)?.createdAt ?? null) : null };
}

/** The user's own clip; another user's clip is indistinguishable from a missing one. */
export async function clipOfUser(db: Db, userId: string, clipId: string): Promise<Clip | null> {
  const row = await db
    .select()
    .from(clips)
    .where(and(eq(clips.id, clipId), eq(clips.userId, userId)))
    .get();
  return row ? toApiClip(row) : null;
}

export async function clipCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(clips)
    .where(eq(clips.userId, userId))
    .get();
  return row?.n ?? 0;
}
