/**
 * Admin read models: every aggregate is one SQL statement over indexed columns, so a page costs what it shows,
 * not what the tables hold. Writes that move credits are not here: they go through the user's UserLedger.
 */
import { and, asc, desc, eq, gte, like, lt, or, sql, type SQL } from "drizzle-orm";
import {
  ADMIN_PAGE_SIZE,
  growthBuckets,
  RECENT_SIGNUPS,
  RECENT_TRANSACTIONS,
  type Bucket,
  type GrowthRange,
  type UserListQuery,
} from "~/domain/admin";
import type { Db } from "./client.server";
import { contains } from "./text-match.server";
import { auditLog, billingPayments, clips, creditHolds, creditLedger, settings, users } from "./schema";

const DAY = 86_400_000;

/** The currency of every ClipCut price (docs/payments.md). */
const PRICE_CURRENCY = "usd";

// ── Overviews / Analytics / Reports cards ────────────────────────────────

/** Revenue in cents: what paid invoices and packs brought in, less refunds (docs/payments.md). */
const revenueSum = sql<number>`coalesce(sum(${billingPayments.amountCents} - ${billingPayments.refundedCents}), 0)`;
// Revenue is summed in the prices' currency only: cents of two currencies never add up (other currencies, if
// Stripe ever charges one, are listed apart: revenueInOtherCurrencies).
const paidPayment = sql`${billingPayments.status} in ('paid', 'refunded', 'partially_refunded') and ${billingPayments.currency} = ${PRICE_CURRENCY}`;

/** Paid less refunded, per currency other than the prices' one (empty when every payment is in dollars). */
export async function revenueInOtherCurrencies(db: Db): Promise<{ currency: string; cents: number }[]> {
  return db
    .select({ currency: billingPayments.currency, cents: revenueSum })
    .from(billingPayments)
    .where(
      sql`${billingPayments.status} in ('paid', 'refunded', 'partially_refunded') and ${billingPayments.currency} != ${PRICE_CURRENCY}`,
    )
    .groupBy(billingPayments.currency);
}

export async function overviewTotals(db: Db) {
  const [u, c, online, money] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(users),
    db.select({ n: sql<number>`count(*)`, used: sql<number>`coalesce(sum(${clips.cost}), 0)` }).from(clips),
    db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(eq(users.status, "online")),
    db.select({ cents: revenueSum }).from(billingPayments).where(paidPayment),
  ]);
  return {
    totalUsers: u[0]?.n ?? 0,
    totalClips: c[0]?.n ?? 0,
    creditsUsed: c[0]?.used ?? 0,
    activeUsers: online[0]?.n ?? 0,
    revenueCents: money[0]?.cents ?? 0,
  };
}

/** Plugin and a missing plan count as Free. */
export async function planDistribution(db: Db) {
  const rows = await db
    .select({ plan: users.plan, n: sql<number>`count(*)` })
    .from(users)
    .groupBy(users.plan);
  const counts: Record<string, number> = { Free: 0, Basic: 0, Advanced: 0, Pro: 0 };
  for (const r of rows) {
    const plan = r.plan === "Plugin" || !(r.plan in counts) ? "Free" : r.plan;
    counts[plan] = (counts[plan] ?? 0) + r.n;
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return Object.entries(counts).map(([plan, n]) => ({
    plan,
    count: n,
    percent: total === 0 ? 0 : Math.round((n / total) * 1000) / 10,
  }));
}

export function recentSignups(db: Db, limit = RECENT_SIGNUPS) {
  return db
    .select({
      id: users.id,
      fullName: users.fullName,
      email: users.email,
      plan: users.plan,
      status: users.status,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(desc(users.createdAt))
    .limit(limit);
}

/**
 * Counts (and clip credits) per bucket: one range statement per bucket, all in one batch. Each reads only its slice
 * of the created_at indexes (clips: the covering (created_at, cost) index), so no row is touched and no function
 * runs per row.
 */
async function perBucket(db: Db, buckets: Bucket[]) {
  const userStatements = buckets.map((b) =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(and(gte(users.createdAt, new Date(b.start)), lt(users.createdAt, new Date(b.end)))),
  );
  const clipStatements = buckets.map((b) =>
    db
      .select({ n: sql<number>`count(*)`, used: sql<number>`coalesce(sum(${clips.cost}), 0)` })
      .from(clips)
      .where(and(gte(clips.createdAt, new Date(b.start)), lt(clips.createdAt, new Date(b.end)))),
  );
  const [first, ...rest] = [...userStatements, ...clipStatements];
  if (!first) return [];
  const results = await db.batch([first, ...rest]);
  return buckets.map((b, i) => {
    const u = results[i] as { n: number }[];
    const c = results[buckets.length + i] as { n: number; used: number }[];
    return { label: b.label, users: u[0]?.n ?? 0, clips: c[0]?.n ?? 0, used: c[0]?.used ?? 0 };
  });
}

/** New users and clips per bucket of the range (UTC). */
export async function growthSeries(db: Db, range: GrowthRange, now = Date.now()) {
  let earliest: number | null = null;
  if (range === "Year") {
    const [fu, fc] = await db.batch([
      db.select({ t: sql<number | null>`min(${users.createdAt})` }).from(users),
      db.select({ t: sql<number | null>`min(${clips.createdAt})` }).from(clips),
    ]);
    const candidates = [fu[0]?.t, fc[0]?.t].filter((t): t is number => typeof t === "number");
    earliest = candidates.length ? Math.min(...candidates) : null;
  }
  const rows = await perBucket(db, growthBuckets(range, now, earliest));
  return rows.map((r) => ({ label: r.label, "New Users": r.users, "Clips Created": r.clips }));
}

/** Credits used (clip costs) per month of the last 12 months, for the Reports line chart. */
export async function creditUsageByMonth(db: Db, now = Date.now()) {
  const rows = await perBucket(db, growthBuckets("Month", now));
  return rows.map((r) => ({ month: r.label.slice(0, 3), "Credits Used": r.used }));
}

export function recentTransactions(db: Db, limit = RECENT_TRANSACTIONS) {
  return db
    .select({
      id: clips.id,
      name: clips.name,
      cost: clips.cost,
      createdAt: clips.createdAt,
      status: clips.status,
      fullName: users.fullName,
    })
    .from(clips)
    .leftJoin(users, eq(users.id, clips.userId))
    .orderBy(desc(clips.createdAt))
    .limit(limit);
}

// ── Users ────────────────────────────────────────────────────────────────

function userFilters(query: Omit<UserListQuery, "page" | "sort" | "dir">): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (query.q) parts.push(or(contains(users.fullName, query.q), contains(users.email, query.q)));
  if (query.status) parts.push(eq(users.status, query.status));
  if (query.plan) {
    parts.push(query.plan === "Free" ? sql`${users.plan} in ('Free', 'Plugin')` : eq(users.plan, query.plan));
  }
  if (query.role) parts.push(eq(users.role, query.role));
  if (query.min !== undefined) parts.push(gte(users.credits, query.min));
  if (query.max !== undefined) parts.push(sql`${users.credits} <= ${query.max}`);
  return parts.length ? and(...parts) : undefined;
}

const userRow = {
  id: users.id,
  fullName: users.fullName,
  email: users.email,
  role: users.role,
  plan: users.plan,
  credits: users.credits,
  status: users.status,
  createdAt: users.createdAt,
};

function userOrder(query: Pick<UserListQuery, "sort" | "dir">) {
  const column = query.sort === "email" ? users.email : query.sort === "credits" ? users.credits : users.fullName;
  const direction = query.dir === "desc" ? desc : asc;
  // The id breaks ties, so pages never overlap or skip a row.
  return [direction(column), direction(users.id)];
}

export async function listUsers(db: Db, query: UserListQuery, pageSize = ADMIN_PAGE_SIZE) {
  const where = userFilters(query);
  const [countRows, firstPage] = await db.batch([
    db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(where),
    db
      .select(userRow)
      .from(users)
      .where(where)
      .orderBy(...userOrder(query))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
  ]);
  const total = countRows[0]?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (query.page > pages && total > 0) {
    // A stale link past the end: show the last page rather than an empty one.
    return listUsers(db, { ...query, page: pages }, pageSize);
  }
  return { rows: firstPage, total, page: query.page, pages };
}

/** Every matching user in list order, fetched in chunks (keyset on the sort key would be faster; offset is fine
 *  for an export an admin runs by hand). */
export async function* usersForExport(db: Db, query: UserListQuery, chunk = 500) {
  const where = userFilters(query);
  for (let offset = 0; ; offset += chunk) {
    const rows = await db
      .select(userRow)
      .from(users)
      .where(where)
      .orderBy(...userOrder(query))
      .limit(chunk)
      .offset(offset);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunk) return;
  }
}

export function findUser(db: Db, id: string) {
  return db.select(userRow).from(users).where(eq(users.id, id)).get();
}

/** Profile fields only: plan, credits and status are the ledger's, the role is the moderation service's. */
export async function updateUserProfile(db: Db, id: string, fields: { fullName: string }) {
  await db
    .update(users)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(users.id, id));
}

// ── Clips ────────────────────────────────────────────────────────────────

const clipRow = {
  id: clips.id,
  name: clips.name,
  videoUrl: clips.videoUrl,
  cost: clips.cost,
  quality: clips.quality,
  format: clips.format,
  status: clips.status,
  createdAt: clips.createdAt,
  userId: clips.userId,
  payerId: clips.payerId,
  aspect: clips.aspect,
  cropPosition: clips.cropPosition,
  captionsTrack: clips.captionsTrack,
  captionsMode: clips.captionsMode,
  captionsSrt: clips.captionsSrt,
  fullName: users.fullName,
  email: users.email,
};

export async function listClips(db: Db, q: string | undefined, page: number, pageSize = ADMIN_PAGE_SIZE) {
  const where = q ? or(contains(clips.name, q), contains(users.fullName, q), contains(users.email, q)) : undefined;
  const [countRows, rows] = await db.batch([
    q
      ? db
          .select({ n: sql<number>`count(*)` })
          .from(clips)
          .leftJoin(users, eq(users.id, clips.userId))
          .where(where)
      : db.select({ n: sql<number>`count(*)` }).from(clips),
    db
      .select(clipRow)
      .from(clips)
      .leftJoin(users, eq(users.id, clips.userId))
      .where(where)
      .orderBy(desc(clips.createdAt), desc(clips.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  const total = countRows[0]?.n ?? 0;
  return { rows, total, page, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

export function findClip(db: Db, id: string) {
  return db.select(clipRow).from(clips).leftJoin(users, eq(users.id, clips.userId)).where(eq(clips.id, id)).get();
}

/** Removes the clip only: its ledger rows stay (they are history, and the balance is their sum). */
/** Has this clip's cost already been refunded? (refund rows carry the clip id) */
export async function clipRefunded(db: Db, clipId: string): Promise<boolean> {
  const row = await db
    .select({ id: creditLedger.id })
    .from(creditLedger)
    .where(and(eq(creditLedger.clipId, clipId), eq(creditLedger.kind, "refund")))
    .get();
  return Boolean(row);
}

// ── Calendars ────────────────────────────────────────────────────────────

/** New users and clips per UTC day of one month (one index range count per day). */
export async function monthActivity(db: Db, year: number, month: number) {
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const buckets = Array.from({ length: days }, (_, i) => {
    const start = Date.UTC(year, month, i + 1);
    return { start, end: start + DAY, label: new Date(start).toISOString().slice(0, 10) };
  });
  const rows = await perBucket(db, buckets);
  return {
    users: new Map(rows.map((r) => [r.label, r.users])),
    clips: new Map(rows.map((r) => [r.label, r.clips])),
  };
}

/** One UTC day: clips and credits, and users seen that day (last_seen, as the spec's "active users"). */
export async function dayStats(db: Db, dayStart: number) {
  const from = new Date(dayStart);
  const to = new Date(dayStart + DAY);
  const [c, money, a] = await db.batch([
    db
      .select({ n: sql<number>`count(*)`, used: sql<number>`coalesce(sum(${clips.cost}), 0)` })
      .from(clips)
      .where(and(gte(clips.createdAt, from), lt(clips.createdAt, to))),
    db
      .select({ cents: revenueSum })
      .from(billingPayments)
      .where(and(paidPayment, gte(billingPayments.paidAt, from), lt(billingPayments.paidAt, to))),
    db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(and(gte(users.lastSeen, from), lt(users.lastSeen, to))),
  ]);
  return {
    clips: c[0]?.n ?? 0,
    creditsUsed: c[0]?.used ?? 0,
    activeUsers: a[0]?.n ?? 0,
    revenueCents: money[0]?.cents ?? 0,
  };
}

export function clipsOnDay(db: Db, dayStart: number, limit = 100) {
  return db
    .select(clipRow)
    .from(clips)
    .leftJoin(users, eq(users.id, clips.userId))
    .where(and(gte(clips.createdAt, new Date(dayStart)), lt(clips.createdAt, new Date(dayStart + DAY))))
    .orderBy(desc(clips.createdAt))
    .limit(limit);
}

// ── Ledger health, audit, search ─────────────────────────────────────────

export async function ledgerHealth(db: Db, now = Date.now()) {
  const ledgerSum = sql<number>`coalesce((select sum(l.delta) from credit_ledger l where l.user_id = "users"."id"), 0)`;
  const [mismatched, staleHolds] = await db.batch([
    db
      .select({ id: users.id, email: users.email, fullName: users.fullName, credits: users.credits, ledgerSum })
      .from(users)
      .where(sql`"users"."credits" < 0 or "users"."credits" != ${ledgerSum}`)
      .limit(200),
    db
      .select({
        id: creditHolds.id,
        userId: creditHolds.userId,
        email: users.email,
        amount: creditHolds.amount,
        expiresAt: creditHolds.expiresAt,
      })
      .from(creditHolds)
      .leftJoin(users, eq(users.id, creditHolds.userId))
      .where(and(eq(creditHolds.status, "held"), lt(creditHolds.expiresAt, new Date(now))))
      .limit(200),
  ]);
  return { mismatched, staleHolds };
}

export interface AuditQuery {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  page: number;
}

function auditFilters(q: Omit<AuditQuery, "page">): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (q.actor) parts.push(or(eq(auditLog.actorId, q.actor), contains(sql`coalesce(${users.email}, '')`, q.actor)));
  if (q.action) parts.push(like(auditLog.action, `${q.action.replace(/[\\%_]/g, "")}%`));
  if (q.from) parts.push(gte(auditLog.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) parts.push(lt(auditLog.createdAt, new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY)));
  return parts.length ? and(...parts) : undefined;
}

const auditRow = {
  id: auditLog.id,
  action: auditLog.action,
  actorId: auditLog.actorId,
  actorEmail: users.email,
  subjectId: auditLog.subjectId,
  details: auditLog.details,
  ip: auditLog.ip,
  createdAt: auditLog.createdAt,
};

export async function listAudit(db: Db, q: AuditQuery, pageSize = 25) {
  const where = auditFilters(q);
  const [countRows, rows] = await db.batch([
    db
      .select({ n: sql<number>`count(*)` })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where),
    db
      .select(auditRow)
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt))
      .limit(pageSize)
      .offset((q.page - 1) * pageSize),
  ]);
  const total = countRows[0]?.n ?? 0;
  return { rows, total, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

export async function* auditForExport(db: Db, q: Omit<AuditQuery, "page">, chunk = 500) {
  const where = auditFilters(q);
  for (let offset = 0; ; offset += chunk) {
    const rows = await db
      .select(auditRow)
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(chunk)
      .offset(offset);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunk) return;
  }
}

export function latestAudit(db: Db, limit = 8) {
  return db
    .select(auditRow)
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .orderBy(desc(auditLog.createdAt))
    .limit(limit);
}

/** Sidebar search: users by name or e-mail, clips by name. */
export async function searchAdmin(db: Db, q: string, limit = 5) {
  const [u, c] = await db.batch([
    db
      .select({ id: users.id, fullName: users.fullName, email: users.email })
      .from(users)
      .where(or(contains(users.fullName, q), contains(users.email, q)))
      .orderBy(asc(users.fullName))
      .limit(limit),
    db
      .select({ id: clips.id, name: clips.name })
      .from(clips)
      .where(contains(clips.name, q))
      .orderBy(desc(clips.createdAt))
      .limit(limit),
  ]);
  return { users: u, clips: c };
}

// ── Settings ─────────────────────────────────────────────────────────────

export async function readSettings(db: Db, keys: string[]): Promise<Map<string, string>> {
  const rows = await db.select().from(settings);
  return new Map(rows.filter((r) => keys.includes(r.key)).map((r) => [r.key, r.value]));
}

export async function upsertSetting(db: Db, key: string, value: string) {
  const now = new Date();
  await db
    .insert(settings)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
}

/** "no such table" from D1: the settings table has not been created (the "Database Setup Required" case). */
export function isMissingTable(error: unknown): boolean {
  const text = String(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : error);
  return /no such table|does not exist/i.test(text);
}

/** Users with an open page (presence says online): the ones a live settings push can reach. */
export async function onlineUserIds(db: Db, limit = 10_000): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.status, "online")).limit(limit);
  return rows.map((r) => r.id);
}
