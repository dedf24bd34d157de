import { z } from "zod";
import { AREA_CHART_ABOVE_BUCKETS, type Bucket } from "./admin";

/** The creator's Analytics Dashboard: who sees it, its ranges and how a range splits into buckets. */
export const ANALYTICS_RANGES = ["7d", "30d", "12m", "all"] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const DEFAULT_ANALYTICS_RANGE: AnalyticsRange = "30d";
export const ANALYTICS_RANGE_LABELS: Record<AnalyticsRange, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "12m": "Last 12 months",
  all: "All time",
};
/** A bad or missing ?range= falls back to the default (a shared link never 400s). */
export const analyticsRangeSchema = z.enum(ANALYTICS_RANGES).catch(DEFAULT_ANALYTICS_RANGE);
export const TOP_SOURCES = 10;

export const ANALYTICS_UPSELL = "Analytics Dashboard is part of the Advanced plan";

const DAY = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const dayLabel = (ms: number) => `${MONTHS[new Date(ms).getUTCMonth()]} ${new Date(ms).getUTCDate()}`;
/** "Nov 2026": a two-digit year ("Nov 26") reads like a day. */
const monthLabel = (ms: number) => `${MONTHS[new Date(ms).getUTCMonth()]} ${new Date(ms).getUTCFullYear()}`;

function dayBuckets(days: number, now: number): Bucket[] {
  const d = new Date(now);
  const top = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + DAY;
  return Array.from({ length: days }, (_, i) => {
    const start = top - (days - i) * DAY;
    return { start, end: start + DAY, label: dayLabel(start) };
  });
}

function monthBuckets(from: number, now: number): Bucket[] {
  const f = new Date(from);
  const d = new Date(now);
  const count = (d.getUTCFullYear() - f.getUTCFullYear()) * 12 + d.getUTCMonth() - f.getUTCMonth() + 1;
  return Array.from({ length: Math.max(1, count) }, (_, i) => {
    const start = Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + i, 1);
    const end = Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + i + 1, 1);
    return { start, end, label: monthLabel(start) };
  });
}

/**
 * UTC buckets of a range: 7 or 30 days by day, 12 months by month, all time by month from the first clip's month
 * (by year when that is more than 36 months). `earliest` is the creator's first clip, only read for "all".
 */
export function analyticsBuckets(range: AnalyticsRange, now: number, earliest: number | null): Bucket[] {
  if (range === "7d") return dayBuckets(7, now);
  if (range === "30d") return dayBuckets(30, now);
  const d = new Date(now);
  if (range === "12m") return monthBuckets(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1), now);
  const months = monthBuckets(earliest ?? now, now);
  if (months.length <= 36) return months;
  const first = new Date(earliest ?? now).getUTCFullYear();
  return Array.from({ length: d.getUTCFullYear() - first + 1 }, (_, i) => ({
    start: Date.UTC(first + i, 0, 1),
    end: Date.UTC(first + i + 1, 0, 1),
    label: String(first + i),
  }));
}

/** The window the cards, breakdowns and CSV cover: [from, to) in epoch ms; from is null for all time. */
export function analyticsWindow(range: AnalyticsRange, now: number): { from: number | null; to: number } {
  if (range === "all") return { from: null, to: now + 1 };
  const buckets = analyticsBuckets(range, now, null);
  return { from: buckets[0]?.start ?? 0, to: buckets.at(-1)?.end ?? now + 1 };
}

export interface DayFigures {
  /** UTC day number: epoch ms / 86,400,000, rounded down. */
  day: number;
  clips: number;
  credits: number;
}

/** Sums per-day rows into the range's buckets (days outside every bucket are dropped). */
export function fillBuckets(buckets: Bucket[], days: readonly DayFigures[]) {
  const out = buckets.map((b) => ({ label: b.label, clips: 0, credits: 0 }));
  for (const row of days) {
    const t = row.day * DAY;
    const i = buckets.findIndex((b) => t >= b.start && t < b.end);
    const slot = out[i];
    if (!slot) continue;
    slot.clips += row.clips;
    slot.credits += row.credits;
  }
  return out;
}

/** Spec §9: above 30 buckets the clips series is drawn as an area; other series stay as they are. */
export const clipsSeriesAsArea = (buckets: number) => buckets > AREA_CHART_ABOVE_BUCKETS;

/** The series of a chart drawn as areas: the clips series alone, above 30 buckets; none in stacked bars (calendars). */
export const areaSeries = (clipsSeries: string, buckets: number, stacked = false): string[] =>
  !stacked && clipsSeriesAsArea(buckets) ? [clipsSeries] : [];

/** "m:ss" for an average clip length, "h:mm:ss" above an hour. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** Filename of the CSV export: clipcut-clips-30d.csv. */
export const analyticsCsvName = (range: AnalyticsRange) => `clipcut-clips-${range}.csv`;
