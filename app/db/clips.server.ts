/** Clips: the rows the ledger inserts with a charge, and the reads of the signed-in pages and API v1. */
import { and, count, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import type { Clip } from "~/domain/api";
import type { CaptionMode, ClipOptionsRecord } from "~/domain/clip-request";
import type { Aspect } from "~/domain/crop";
import type { Format, Quality } from "~/domain/media";
import type { Db } from "./client.server";
import { clips, users } from "./schema";
import { contains } from "./text-match.server";

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
    ...optionsOfRow(row),
  };
}

/** The short-video options of a clip or preset row (Original without captions for rows from before them). */
export function optionsOfRow(row: {
  aspect: Aspect;
  cropPosition: number | null;
  captionsTrack: string | null;
  captionsMode: CaptionMode | null;
  captionsSrt: boolean;
}): ClipOptionsRecord {
  const captions =
    row.captionsTrack && row.captionsMode
      ? { track: row.captionsTrack, mode: row.captionsMode, ...(row.captionsSrt ? { srt: true } : {}) }
      : null;
  return { aspect: row.aspect, cropPosition: row.aspect === "original" ? null : row.cropPosition, captions };
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

/**
 * Whose clips a person sees: their own and, for a team owner, every clip their balance paid for (their members' clips
 * made on the team). A member sees only their own.
 */
export interface ClipViewer {
  userId: string;
  teamOwner: boolean;
}

function visibleTo(viewer: ClipViewer): SQL {
  const own = eq(clips.userId, viewer.userId);
  return viewer.teamOwner ? (or(own, eq(clips.payerId, viewer.userId)) ?? own) : own;
}

/** The clip when `viewer` may see it (see ClipViewer); any other clip is indistinguishable from a missing one. */
export async function clipForViewer(db: Db, viewer: ClipViewer, clipId: string) {
  const row = await db
    .select({ clip: clips, madeBy: users.fullName })
    .from(clips)
    .leftJoin(users, eq(users.id, clips.userId))
    .where(and(eq(clips.id, clipId), visibleTo(viewer)))
    .get();
  return row ? { ...toApiClip(row.clip), userId: row.clip.userId, madeBy: row.madeBy } : null;
}

/** The filters of the clips list: free text over name and source, one format, creation times [from, to) in ms. */
export interface ClipFilter {
  q?: string;
  format?: Format;
  from: number | null;
  to: number | null;
}

function filtered(viewer: ClipViewer, f: ClipFilter): SQL | undefined {
  return and(
    visibleTo(viewer),
    f.q ? or(contains(clips.name, f.q), contains(clips.videoUrl, f.q)) : undefined,
    f.format ? eq(clips.format, f.format) : undefined,
    f.from === null ? undefined : gte(clips.createdAt, new Date(f.from)),
    f.to === null ? undefined : lt(clips.createdAt, new Date(f.to)),
  );
}

const listed = { clip: clips, madeBy: users.fullName };
type ListedRow = { clip: ClipRow; madeBy: string | null };
const toListed = (row: ListedRow) => ({
  ...toApiClip(row.clip),
  userId: row.clip.userId,
  madeBy: row.madeBy,
});

/** One page of the clips list, newest first (ties by id, so pages never overlap), and the count of all that match. */
export async function listClipsFor(db: Db, viewer: ClipViewer, f: ClipFilter, page: number, pageSize: number) {
  const where = filtered(viewer, f);
  const [totals, rows] = await db.batch([
    db.select({ n: count() }).from(clips).where(where),
    db
      .select(listed)
      .from(clips)
      .leftJoin(users, eq(users.id, clips.userId))
      .where(where)
      .orderBy(desc(clips.createdAt), desc(clips.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  const total = totals[0]?.n ?? 0;
  return { rows: rows.map(toListed), total, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** Every clip the list's filters match, in list order, in keyset chunks (a long export never uses OFFSET). */
export async function* clipsForViewerExport(db: Db, viewer: ClipViewer, f: ClipFilter, chunk = 500) {
  const where = filtered(viewer, f);
  let after: { t: Date; id: string } | null = null;
  for (;;) {
    const rows: ListedRow[] = await db
      .select(listed)
      .from(clips)
      .leftJoin(users, eq(users.id, clips.userId))
      .where(
        and(
          where,
          after
            ? or(lt(clips.createdAt, after.t), and(eq(clips.createdAt, after.t), lt(clips.id, after.id)))
            : undefined,
        ),
      )
      .orderBy(desc(clips.createdAt), desc(clips.id))
      .limit(chunk);
    if (rows.length === 0) return;
    yield rows.map(toListed);
    if (rows.length < chunk) return;
    const last: ClipRow = rows[rows.length - 1]!.clip;
    after = { t: last.createdAt, id: last.id };
  }
}

export async function clipCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(clips)
    .where(eq(clips.userId, userId))
    .get();
  return row?.n ?? 0;
}
