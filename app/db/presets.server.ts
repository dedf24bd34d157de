/** Custom presets of an account (Advanced and Pro; the routes check the plan). */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Preset, PresetRequest } from "~/domain/api";
import type { Format, Quality } from "~/domain/media";
import { MAX_PRESETS } from "~/domain/presets";
import { clipOptionsRecord } from "~/domain/clip-request";
import { optionsOfRow } from "./clips.server";
import type { Db } from "./client.server";
import { presets } from "./schema";

type PresetRow = typeof presets.$inferSelect;

const toPreset = (row: PresetRow): Preset => ({
  id: row.id,
  name: row.name,
  format: row.format as Format,
  quality: row.quality as Quality,
  clipSeconds: row.clipSeconds,
  ...optionsOfRow(row),
  createdAt: row.createdAt.toISOString(),
});

export async function listPresets(db: Db, userId: string): Promise<Preset[]> {
  const rows = await db
    .select()
    .from(presets)
    .where(eq(presets.userId, userId))
    .orderBy(asc(presets.createdAt), asc(presets.id));
  return rows.map(toPreset);
}

export type CreatePresetResult = { ok: true; preset: Preset } | { ok: false; reason: "full" | "name_taken" };

/**
 * Saves a preset unless the account already holds MAX_PRESETS: the count and the insert are one statement, so two
 * saves at once cannot both slip under the limit.
 */
export async function createPreset(db: Db, userId: string, input: PresetRequest): Promise<CreatePresetResult> {
  const row: PresetRow = {
    id: crypto.randomUUID(),
    userId,
    name: input.name,
    format: input.format,
    quality: input.quality,
    clipSeconds: input.clipSeconds ?? null,
    createdAt: new Date(),
    ...optionsColumns(clipOptionsRecord(input)),
  };
  const nameTaken = async () =>
    !!(await db
      .select({ id: presets.id })
      .from(presets)
      .where(and(eq(presets.userId, userId), eq(presets.name, row.name)))
      .get());
  if (await nameTaken()) return { ok: false, reason: "name_taken" };
  const inserted = await db.run(sql`
    INSERT INTO presets (id, user_id, name, format, quality, clip_seconds, created_at, aspect, crop_position, captions_track, captions_mode, captions_srt)
    SELECT ${row.id}, ${userId}, ${row.name}, ${row.format}, ${row.quality}, ${row.clipSeconds}, ${row.createdAt.getTime()},
      ${row.aspect}, ${row.cropPosition}, ${row.captionsTrack}, ${row.captionsMode}, ${row.captionsSrt ? 1 : 0}
    WHERE (SELECT count(*) FROM presets WHERE user_id = ${userId}) < ${MAX_PRESETS}
    ON CONFLICT DO NOTHING`);
  if (inserted.meta.changes === 1) return { ok: true, preset: toPreset(row) };
  // Nothing inserted: the account is full, or a save of the same name won a race.
  return { ok: false, reason: (await nameTaken()) ? "name_taken" : "full" };
}

/** The columns of a record's options. */
function optionsColumns(o: ReturnType<typeof clipOptionsRecord>) {
  return {
    aspect: o.aspect,
    cropPosition: o.cropPosition,
    captionsTrack: o.captions?.track ?? null,
    captionsMode: o.captions?.mode ?? null,
    captionsSrt: o.captions?.srt ?? false,
  };
}

/** Deletes the user's own preset; another user's preset is indistinguishable from a missing one. */
export async function deletePreset(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.delete(presets).where(and(eq(presets.id, id), eq(presets.userId, userId)));
  return result.meta.changes > 0;
}
