/** The creator's Analytics Dashboard: figures of one user's clips in a window, read through clips(user_id, created_at). */
import { and, count, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { TOP_SOURCES, type DayFigures } from "~/domain/analytics";
import type { Db } from "./client.server";
import { clips } from "./schema";

export interface AnalyticsWindow {
  /** Epoch ms, inclusive; null = since the first clip. */
  from: number | null;
  /** Epoch ms, exclusive. */
  to: number;
}

function inWindow(userId: string, w: AnalyticsWindow): SQL | undefined {
  return and(
    eq(clips.userId, userId),
    w.from === null ? undefined : gte(clips.createdAt, new Date(w.from)),
    lt(clips.createdAt, new Date(w.to)),
  );
}

const credits = sql<number>`coalesce(sum(${clips.cost}), 0)`;

interface Share {
  key: string;
  clips: number;
  credits: number;
}

/** Shares by one key, most clips first (ties by name): the formats and qualities charts. */
function sharesBy(
  mix: { format: string; quality: string; clips: number; credits: number }[],
  key: "format" | "quality",
): Share[] {
  const by = new Map<string, Share>();
  for (const row of mix) {
    const share = by.get(row[key]) ?? { key: row[key], clips: 0, credits: 0 };
    share.clips += row.clips;
    share.credits += row.credits;
    by.set(row[key], share);
  }
  return [...by.values()].sort((a, b) => b.clips - a.clips || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Every figure of the dashboard in one round trip (one D1 batch): three passes over the index, not five. */
export async function creatorAnalytics(db: Db, userId: string, w: AnalyticsWindow) {
  const where = inWindow(userId, w);
  // UTC day number: integer division groups about twice as fast as strftime over 50,000 index entries.
  const day = sql<number>`${clips.createdAt} / 86400000`;
  const [mix, days, sources, first] = await db.batch([
    // Totals, formats and qualities all come from one pass grouped by (format, quality): at most 4 × 6 rows.
    db
      .select({
        format: clips.format,
        quality: clips.quality,
        clips: count(),
        credits,
        seconds: sql<number>`coalesce(sum(${clips.endTimeSeconds} - ${clips.startTimeSeconds}), 0)`,
      })
      .from(clips)
      .where(where)
      .groupBy(clips.format, clips.quality),
    db.select({ day, clips: count(), credits }).from(clips).where(where).groupBy(day).orderBy(day),
    db
      .select({ videoUrl: clips.videoUrl, clips: count(), credits })
      .from(clips)
      .where(where)
      .groupBy(clips.videoUrl)
      .orderBy(desc(count()), desc(credits), clips.videoUrl)
      .limit(TOP_SOURCES),
    db
      .select({ t: sql<number | null>`min(${clips.createdAt})` })
      .from(clips)
      .where(eq(clips.userId, userId)),
  ]);
  const t = mix.reduce(
    (sum, row) => ({
      clips: sum.clips + row.clips,
      credits: sum.credits + row.credits,
      seconds: sum.seconds + row.seconds,
    }),
    { clips: 0, credits: 0, seconds: 0 },
  );
  return {
    totals: { ...t, averageSeconds: t.clips > 0 ? t.seconds / t.clips : 0 },
    days: days as DayFigures[],
    formats: sharesBy(mix, "format"),
    qualities: sharesBy(mix, "quality"),
    sources,
    earliest: first[0]?.t ?? null,
  };
}

/** The user's clips in the window, newest first, in keyset pages (a 50,000-clip export never uses OFFSET). */
export async function* clipsForExport(db: Db, userId: string, w: AnalyticsWindow, chunk = 500) {
  let after: { t: Date; id: string } | null = null;
  for (;;) {
    const rows = await db
      .select()
      .from(clips)
      .where(
        and(
          inWindow(userId, w),
          after
            ? or(lt(clips.createdAt, after.t), and(eq(clips.createdAt, after.t), lt(clips.id, after.id)))
            : undefined,
        ),
      )
      .orderBy(desc(clips.createdAt), desc(clips.id))
      .limit(chunk);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1] as (typeof rows)[number];
    after = { t: last.createdAt, id: last.id };
  }
}
