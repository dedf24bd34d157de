import { z } from "zod";
import { isoDay, isoDaySchema } from "./admin";
import { listFields, listQuery } from "./list-query";
import { FORMATS } from "./media";

/** The signed-in "All clips" page (/clips) and its CSV export: one query shape, one page size, one rule for dates. */
export const CLIPS_PAGE_SIZE = 20;

const DAY = 86_400_000;

/** A real calendar day as yyyy-mm-dd ("2025-02-30" is not one). */
const calendarDay = isoDaySchema.refine((day) => {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && isoDay(ms) === day;
});

/**
 * The list as it lives in the URL. Like the admin lists, a value it cannot read falls back to its default (a shared
 * or hand-edited link never fails, it only loses that filter).
 */
export const clipsList = listQuery({
  q: listFields.q,
  format: z.enum(FORMATS).optional().catch(undefined),
  from: calendarDay.optional().catch(undefined),
  to: calendarDay.optional().catch(undefined),
  page: listFields.page,
});
export type ClipsListQuery = ReturnType<typeof clipsList.parse>;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at `ms`, in ms. */
function zoneOffset(ms: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    if (offsetFormats.size < 500) offsetFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant `day` begins in `timeZone` (epoch ms): the list shows dates in the creator's zone, so "from" and "to"
 * mean the creator's days, not UTC's. An unknown zone counts as UTC.
 */
export function dayStartIn(day: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  try {
    // Twice: the offset at the first guess can differ from the offset at the answer across a DST change.
    const guess = midnightUtc - zoneOffset(midnightUtc, timeZone);
    return midnightUtc - zoneOffset(guess, timeZone);
  } catch {
    return midnightUtc;
  }
}

/** The query's dates as a window of creation times: `from` inclusive, `to` exclusive (the end of the "to" day). */
export function clipsWindow(
  query: Pick<ClipsListQuery, "from" | "to">,
  timeZone: string,
): { from: number | null; to: number | null } {
  return {
    from: query.from ? dayStartIn(query.from, timeZone) : null,
    to: query.to ? dayStartIn(isoDay(Date.parse(`${query.to}T00:00:00Z`) + DAY), timeZone) : null,
  };
}

/** The export's file name says what it holds. */
export function clipsCsvName(query: Pick<ClipsListQuery, "from" | "to">): string {
  if (!query.from && !query.to) return "clipcut-clips.csv";
  return `clipcut-clips_${query.from ?? "start"}_to_${query.to ?? "today"}.csv`;
}

export const CLIPS_CSV_HEADER = [
  "Created",
  "Name",
  "Video",
  "Start (s)",
  "End (s)",
  "Length (s)",
  "Format",
  "Quality",
  "Credits",
  "Status",
  "Made by",
  // The short-video options, last so that older spreadsheets' columns keep their places.
  "Aspect",
  "Crop position",
  "Captions",
] as const;
