/**
 * Fixed-window counters in D1, so every Worker instance sees the same count. One upsert statement each: atomic
 * without a read-modify-write race.
 */

/** Counts one hit in the window that starts at `windowStart` (a new window starts over at 1); the count after it. */
export async function countHit(db: D1Database, key: string, windowStart: number): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
         window_start = excluded.window_start
       RETURNING count`,
    )
    .bind(key, windowStart)
    .first<{ count: number }>();
  return row?.count ?? 0;
}

/** Gives back one hit, if the window is still the current one. */
export async function uncountHit(db: D1Database, key: string, windowStart: number): Promise<void> {
  await db
    .prepare("UPDATE rate_limits SET count = count - 1 WHERE key = ?1 AND window_start = ?2 AND count > 0")
    .bind(key, windowStart)
    .run();
}
