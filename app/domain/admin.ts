import { z } from "zod";
import { listFields, listQuery } from "./list-query";
import { PLAN_IDS } from "./plans";

/** Admin back-office rules: page sizes, list queries, ranges, calendar. */
export const ADMIN_PAGE_SIZE = 10;
export const RECENT_SIGNUPS = 5;
export const RECENT_TRANSACTIONS = 10;
export const AREA_CHART_ABOVE_BUCKETS = 30;
export const AUTO_CLOSE_MS = 2000;
export const COPY_CONFIRM_MS = 2000;

export const ADMIN_MESSAGES = {
  deleteClipConfirm: "Are you sure you want to delete this clip? This action cannot be undone.",
  deleteClipFailed: "Failed to delete clip.",
  banConfirm: (name: string) => `Are you sure you want to ban ${name}? This will mark their account as 'Banned'.`,
  clipCreated: (name: string, cost: number) => `Clip "${name}" created successfully! ${cost} credits were deducted.`,
  clipError: "An error occurred while processing your clip. Please try again.",
  /** The Create Clip modal's answer when the admin's session ended while it was open (spec K10). */
  clipSignedOut: "You must be logged in to create a clip.",
  banFailed: (message: string) => `Failed to ban the user: ${message}`,
  /** Shown under a failed ban (spec K9): what usually causes one, and what to check. */
  banFailedCauses: [
    "The list was out of date: the user may be banned already, deleted, or an admin. Reload the list and try again.",
    "Your admin rights do not cover this user: only an owner may ban another admin, and nobody can ban themselves.",
  ],
  usersLoadFailed: "Failed to load user data. Please ensure the database functions are set up correctly.",
  extensionSaved: "Extension ID saved successfully. The app will now use this ID for new user sessions.",
  extensionSaveFailed: (message: string) =>
    `Failed to save extension ID: ${message}. Ensure your 'settings' table has appropriate RLS policies configured for admins.`,
  extensionLoadFailed: "Failed to load extension ID.",
} as const;

const optionalInt = z.coerce.number().int().min(0).max(1_000_000_000).optional().catch(undefined);

export const USER_SORTS = ["full_name", "email", "credits"] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** The Users list as it lives in the URL. Unknown or bad values fall back to defaults (a shared link never 400s). */
export const userList = listQuery({
  q: listFields.q,
  status: z.enum(["online", "offline", "Banned"]).optional().catch(undefined),
  plan: z.enum(PLAN_IDS).optional().catch(undefined),
  role: z.enum(["user", "admin"]).optional().catch(undefined),
  min: optionalInt,
  max: optionalInt,
  sort: z.enum(USER_SORTS).catch("full_name"),
  dir: listFields.dir,
  page: listFields.page,
});
export type UserListQuery = ReturnType<typeof userList.parse>;

/** Clip Management: a search and a page. */
export const clipList = listQuery({ q: listFields.q, page: listFields.page });
/** The display-only screens: a search only. */
export const searchOnly = listQuery({ q: listFields.q });

/** Up to 3 page numbers around the current one, clamped to 1..pages. */
export function pageWindow(page: number, pages: number): number[] {
  if (pages <= 0) return [];
  const start = Math.max(1, Math.min(page - 1, pages - 2));
  const end = Math.min(pages, start + 2);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/** "Showing X to Y of Z results". */
export function showingText(page: number, pageSize: number, total: number): string {
  if (total === 0) return "Showing 0 to 0 of 0 results";
  const from = (page - 1) * pageSize + 1;
  return `Showing ${from} to ${Math.min(total, page * pageSize)} of ${total} results`;
}

export const GROWTH_RANGES = ["Day", "Week", "Month", "Year"] as const;
export type GrowthRange = (typeof GROWTH_RANGES)[number];

export interface Bucket {
  /** Inclusive start, exclusive end, epoch ms (UTC). */
  start: number;
  end: number;
  label: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The spec's ranges, in UTC: Day = the last 24 hours by hour, Week = the last 7 days, Month = the last 12 months,
 * Year = every year from the earliest row's year to now.
 */
export function growthBuckets(range: GrowthRange, now: number, earliest: number | null = null): Bucket[] {
  const d = new Date(now);
  if (range === "Day") {
    const top = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()) + HOUR;
    return Array.from({ length: 24 }, (_, i) => {
      const start = top - (24 - i) * HOUR;
      return { start, end: start + HOUR, label: `${String(new Date(start).getUTCHours()).padStart(2, "0")}:00` };
    });
  }
  if (range === "Week") {
    const top = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + DAY;
    return Array.from({ length: 7 }, (_, i) => {
      const start = top - (7 - i) * DAY;
      const s = new Date(start);
      return { start, end: start + DAY, label: `${MONTHS[s.getUTCMonth()]} ${s.getUTCDate()}` };
    });
  }
  if (range === "Month") {
    return Array.from({ length: 12 }, (_, i) => {
      const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11 + i, 1);
      const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 10 + i, 1);
      const s = new Date(start);
      return { start, end, label: `${MONTHS[s.getUTCMonth()]} ${String(s.getUTCFullYear()).slice(2)}` };
    });
  }
  const first = new Date(earliest ?? now).getUTCFullYear();
  const last = d.getUTCFullYear();
  return Array.from({ length: Math.max(1, last - first + 1) }, (_, i) => ({
    start: Date.UTC(first + i, 0, 1),
    end: Date.UTC(first + i + 1, 0, 1),
    label: String(first + i),
  }));
}

export const monthAbbreviation = (month: number) => MONTHS[month] ?? "";
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A yyyy-mm-dd date (UTC day). */
export const isoDaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The 42 cells (6 weeks, Monday first) of the month containing `day`, as yyyy-mm-dd strings. */
export function calendarCells(year: number, month: number): { day: string; inMonth: boolean }[] {
  const first = Date.UTC(year, month, 1);
  const weekday = (new Date(first).getUTCDay() + 6) % 7; // Monday = 0
  const start = first - weekday * DAY;
  return Array.from({ length: 42 }, (_, i) => {
    const ms = start + i * DAY;
    return { day: isoDay(ms), inMonth: new Date(ms).getUTCMonth() === month };
  });
}

/** A placeholder table's filter: case-insensitive contains, the page reset to 1 by the caller. */
export const containsIgnoreCase = (haystack: string, needle: string) =>
  haystack.toLowerCase().includes(needle.trim().toLowerCase());

/** What the admin Create Clip resource route answers (the modal reads the body whatever the status). */
export type CreateClipResult =
  { ok: true; message: string; cost: number } | { ok: false; error: string; upgrade?: boolean; signIn?: boolean };
