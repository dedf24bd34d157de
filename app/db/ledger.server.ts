/**
 * The ledger's statements. Decisions (app/domain/ledger) say what changes as plain data; this module turns them
 * into D1 statements, reads the state a UserLedger starts from, and the few facts a decision may need from D1.
 * Only workers/user-ledger.ts calls it. Every balance change is a ledger row and a balance update in the same
 * batch, so `users.credits == sum(ledger.delta)` holds after every batch; a CHECK (credits >= 0) backs the floor.
 *
 * The statements are constant SQL prepared once per D1 binding: drizzle building SQL per batch showed in the
 * charge path's profile, and these are the hottest writes of the product.
 */
import { and, asc, desc, eq, ne, or, sql } from "drizzle-orm";
import type { Clip } from "~/domain/api";
import type { Facts, Hold, HoldEnd, KeyMemo, LedgerState, LedgerUser, Needs, Write } from "~/domain/ledger";
import { MAX_PAYER_HOLDS, RECENT_KEYS } from "~/domain/ledger";
import { teamWorks } from "~/domain/effective-plan";
import type { PlanId, StoredPlan } from "~/domain/plans";
import { sha256Hex } from "~/utils/crypto";
import { subscriptionPaidUntil, toPaidLine } from "./billing.server";
import type { Db } from "./client.server";
import { toApiClip } from "./clips.server";
import { clips, creditHolds, creditLedger, creditLines, sessions, teamInvitations, teamMembers, users } from "./schema";

// ── Reading the state ────────────────────────────────────────────────────────

type UserRow = typeof users.$inferSelect;
type HoldRow = typeof creditHolds.$inferSelect;

/** Lines older than this are settled for good (no refund or dispute reaches them): not loaded. */
const LINE_MEMORY_MS = 400 * 24 * 60 * 60 * 1000;

export function toLedgerUser(row: UserRow): LedgerUser {
  return {
    id: row.id,
    plan: row.plan as StoredPlan,
    pendingPlan: (row.pendingPlan as PlanId | null) ?? null,
    periodStart: row.planPeriodStart?.getTime() ?? null,
    periodEnd: row.planPeriodEnd?.getTime() ?? null,
    credits: row.credits,
    banned: row.status === "Banned",
    planSetBy: row.planSetBy ?? null,
  };
}

function toHold(row: HoldRow): Hold {
  let name = "";
  try {
    name = String((JSON.parse(row.request) as { name?: unknown }).name ?? "");
  } catch {
    // an unreadable request is refused at capture
  }
  return {
    id: row.id,
    amount: row.amount,
    request: row.request,
    name,
    key: row.idempotencyKey,
    hash: row.requestHash,
    creatorId: row.creatorId ?? null,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  };
}

/**
 * One read at start (and after a failed batch): the user, their active holds, their most recent keys, their team
 * (an owner's members, a member's payer) and the holds they opened on a payer's ledger.
 */
export async function loadLedgerState(db: Db, userId: string): Promise<LedgerState | null> {
  const [userRows, holdRows, recent, counted, teamRows, payerHolds, lineRows] = await db.batch([
    db.select().from(users).where(eq(users.id, userId)),
    db
      .select()
      .from(creditHolds)
      .where(and(eq(creditHolds.userId, userId), eq(creditHolds.status, "held"))),
    db
      .select({ key: creditLedger.idempotencyKey, hash: creditLedger.requestHash, clip: clips })
      .from(creditLedger)
      .leftJoin(clips, eq(clips.id, creditLedger.clipId))
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.createdAt))
      .limit(RECENT_KEYS),
    // Once per load, never per snapshot: the count is kept in memory from here on.
    db
      .select({ n: sql<number>`count(*)` })
      .from(clips)
      .where(eq(clips.userId, userId)),
    // Who is in this person's team: read once here, then kept by the owner's ledger (ADR 012).
    db
      .select({
        memberId: teamMembers.memberId,
        ownerId: teamMembers.ownerId,
        role: teamMembers.role,
        ownerPlan: users.plan,
        ownerStatus: users.status,
      })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.ownerId))
      .where(or(eq(teamMembers.ownerId, userId), eq(teamMembers.memberId, userId)))
      .orderBy(asc(teamMembers.joinedAt)),
    // The latest holds opened on a payer's ledger, settled or not, as memory keeps them: a capture replayed after
    // this object restarts still finds the ledger that holds its answer.
    db
      .select({ id: creditHolds.id, payerId: creditHolds.userId })
      .from(creditHolds)
      .where(and(eq(creditHolds.creatorId, userId), ne(creditHolds.userId, userId)))
      .orderBy(desc(creditHolds.createdAt))
      .limit(MAX_PAYER_HOLDS),
    db
      .select()
      .from(creditLines)
      .where(and(eq(creditLines.userId, userId), sql`${creditLines.endAt} > ${Date.now() - LINE_MEMORY_MS}`)),
  ]);
  const user = userRows[0];
  if (!user) return null;
  const keys = new Map<string, KeyMemo>();
  for (const row of recent.reverse())
    keys.set(row.key, { hash: row.hash, clip: row.clip ? toApiClip(row.clip) : null });
  return {
    user: toLedgerUser(user),
    holds: new Map(holdRows.map((h) => [h.id, toHold(h)])),
    keys,
    lastClipAt: 0,
    clipCount: counted[0]?.n ?? 0,
    members: teamRows.filter((r) => r.ownerId === userId && r.role === "member").map((r) => r.memberId),
    payer: payerOf(teamRows, userId),
    ownsTeam: teamRows.some((r) => r.memberId === userId && r.role === "owner"),
    payerHolds: new Map(payerHolds.reverse().map((h) => [h.id, h.payerId])),
    lines: new Map(lineRows.map((row) => [row.id, toPaidLine(row)])),
  };
}

function payerOf(
  rows: { memberId: string; ownerId: string; role: string; ownerPlan: string; ownerStatus: string }[],
  userId: string,
): LedgerState["payer"] {
  const row = rows.find((r) => r.memberId === userId && r.role === "member");
  if (!row) return null;
  return {
    ownerId: row.ownerId,
    active: teamWorks({ ownerPlan: row.ownerPlan, ownerBanned: row.ownerStatus === "Banned" }),
  };
}

/** A stable fingerprint of what a key was used for (a string fingerprint is the hash itself). */
export function requestHash(fingerprint: unknown): Promise<string> {
  return typeof fingerprint === "string" ? Promise.resolve(fingerprint) : sha256Hex(JSON.stringify(fingerprint));
}

/**
 * Reads what a decision needs and memory cannot answer. Idempotency keys that memory does not know are looked up
 * when the operation always needs it, or after a failed batch (`thorough`: an older key, a restart).
 */
export async function loadFacts(
  db: Db,
  state: LedgerState,
  userId: string,
  needs: Needs,
  hash: string,
  thorough: boolean,
): Promise<Facts & { holdByKey?: Hold | null }> {
  const facts: Facts & { holdByKey?: Hold | null } = { hash };
  const reads: Promise<unknown>[] = [];
  const { key } = needs;
  if (key && !state.keys.has(key.key) && (key.always || thorough))
    reads.push(
      db
        .select({ hash: creditLedger.requestHash, clip: clips })
        .from(creditLedger)
        .leftJoin(clips, eq(clips.id, creditLedger.clipId))
        .where(and(eq(creditLedger.userId, userId), eq(creditLedger.idempotencyKey, key.key)))
        .get()
        .then((row) => {
          // Only into the draft's memory: a refused decision leaves the committed state as it was.
          if (row) state.keys.set(key.key, { hash: row.hash, clip: row.clip ? toApiClip(row.clip) : null });
        }),
    );
  if (needs.holdId && !state.holds.has(needs.holdId))
    reads.push(
      db
        .select({ status: creditHolds.status, hash: creditHolds.requestHash })
        .from(creditHolds)
        .where(and(eq(creditHolds.id, needs.holdId), eq(creditHolds.userId, userId)))
        .get()
        .then((row) => {
          facts.storedHold = row ?? null;
          // A captured hold's replay needs its clip key.
          if (row?.status === "captured" && !state.keys.has(`hold:${needs.holdId}`))
            return db
              .select({ hash: creditLedger.requestHash, clip: clips })
              .from(creditLedger)
              .leftJoin(clips, eq(clips.id, creditLedger.clipId))
              .where(and(eq(creditLedger.userId, userId), eq(creditLedger.idempotencyKey, `hold:${needs.holdId}`)))
              .get()
              .then((memo) => {
                if (memo)
                  state.keys.set(`hold:${needs.holdId}`, {
                    hash: memo.hash,
                    clip: memo.clip ? toApiClip(memo.clip) : null,
                  });
              });
        }),
    );
  if (needs.holdKey && thorough && ![...state.holds.values()].some((h) => h.key === needs.holdKey))
    reads.push(
      db
        .select()
        .from(creditHolds)
        .where(and(eq(creditHolds.userId, userId), eq(creditHolds.idempotencyKey, needs.holdKey)))
        .get()
        .then((row) => {
          facts.holdByKey = row ? toHold(row) : null;
        }),
    );
  if (needs.clipId)
    reads.push(
      db
        .select({ cost: clips.cost, creatorId: clips.userId })
        .from(clips)
        .where(and(eq(clips.id, needs.clipId), eq(clips.payerId, userId)))
        .get()
        .then((row) => {
          facts.clip = row ?? null;
        }),
    );
  if (needs.stepUp) {
    const { sessionId, adminId } = needs.stepUp;
    reads.push(
      db
        .select({ at: sessions.stepUpAt })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, adminId)))
        .get()
        .then((row) => {
          facts.stepUpAt = row?.at?.getTime() ?? null;
        }),
    );
  }
  if (needs.subscription)
    reads.push(
      subscriptionPaidUntil(db, userId).then((paidUntil) => {
        facts.subscriptionPaidUntil = paidUntil;
      }),
    );
  if (needs.invitationId)
    reads.push(
      db
        .select({
          email: teamInvitations.email,
          expiresAt: teamInvitations.expiresAt,
          acceptedAt: teamInvitations.acceptedAt,
          revokedAt: teamInvitations.revokedAt,
        })
        .from(teamInvitations)
        .where(and(eq(teamInvitations.id, needs.invitationId), eq(teamInvitations.ownerId, userId)))
        .get()
        .then((row) => {
          facts.invitation = row
            ? {
                email: row.email,
                expiresAt: row.expiresAt.getTime(),
                acceptedAt: row.acceptedAt?.getTime() ?? null,
                revokedAt: row.revokedAt?.getTime() ?? null,
              }
            : null;
        }),
    );
  if (needs.joiner)
    reads.push(
      db
        .select({ ownerId: teamMembers.ownerId })
        .from(teamMembers)
        .where(eq(teamMembers.memberId, needs.joiner))
        .get()
        .then((row) => {
          facts.joinerTeam = row?.ownerId ?? null;
        }),
    );
  await Promise.all(reads);
  return facts;
}

// ── Writing decisions ────────────────────────────────────────────────────────

const SQL = {
  row: `INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, idempotency_key, request_hash, clip_id, hold_id, actor_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  balance: `UPDATE users SET credits = credits + ?, updated_at = ? WHERE id = ?`,
  clip: `INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, format, quality, cost, status, source, created_at, aspect, crop_position, captions_track, captions_mode, captions_srt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  // A ledger deletes only clips it paid for (a team member's clip is the member's row, paid by the owner's ledger).
  deleteClip: `DELETE FROM clips WHERE id = ? AND payer_id = ?`,
  hold: `INSERT INTO credit_holds (id, user_id, amount, status, request, idempotency_key, request_hash, creator_id, created_at, expires_at) VALUES (?, ?, ?, 'held', ?, ?, ?, ?, ?, ?)`,
  settle: `UPDATE credit_holds SET status = ?, clip_id = ?, settled_at = ? WHERE id = ? AND user_id = ? AND status = 'held'`,
  // An admin is banned only while another active admin remains (the same rule as a demotion, in one statement).
  ban: `UPDATE users SET status = 'Banned', updated_at = ?1 WHERE id = ?2 AND status != 'Banned' AND (role != 'admin' OR EXISTS (SELECT 1 FROM users o WHERE o.role = 'admin' AND o.status != 'Banned' AND o.id != ?2))`,
  unban: `UPDATE users SET status = 'offline', updated_at = ? WHERE id = ? AND status = 'Banned'`,
  // Teams: the owner's ledger decided the seat count; these only record it.
  teamOwner: `INSERT OR IGNORE INTO team_members (member_id, owner_id, role, joined_at) VALUES (?1, ?1, 'owner', ?2)`,
  teamJoin: `INSERT INTO team_members (member_id, owner_id, role, invitation_id, joined_at) VALUES (?, ?, 'member', ?, ?)`,
  invitationAccepted: `UPDATE team_invitations SET accepted_at = ? WHERE id = ? AND owner_id = ?`,
  teamLeave: `DELETE FROM team_members WHERE owner_id = ? AND member_id = ? AND role = 'member'`,
  teamClose: `DELETE FROM team_members WHERE member_id = ?1 AND owner_id = ?1 AND role = 'owner'`,
  invitationsRevoked: `UPDATE team_invitations SET revoked_at = ? WHERE owner_id = ? AND accepted_at IS NULL AND revoked_at IS NULL`,
  line: `INSERT INTO credit_lines (id, user_id, payment_id, subscription_id, label, plan, billing, start_at, end_at, charged_cents, months, returned, granted, stop_at, moves) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) ON CONFLICT (id) DO UPDATE SET returned = ?12, granted = ?13, stop_at = ?14, moves = ?15 WHERE user_id = ?2`,
  // A deleted account (`erase`): its own clips go (a member's clips paid by this account are the member's), the holds
  // it opened here or on a payer's ledger forget what they asked for once settled, and its rows lose the words.
  eraseClips: `DELETE FROM clips WHERE user_id = ?`,
  eraseHolds: `UPDATE credit_holds SET request = '{}' WHERE (user_id = ?1 OR creator_id = ?1) AND status != 'held'`,
  eraseWord: `UPDATE credit_ledger SET description = replace(description, ?2, '[deleted]') WHERE user_id = ?1 AND instr(description, ?2) > 0`,
} as const;
type SqlName = keyof typeof SQL;

const prepared = new WeakMap<D1Database, Map<SqlName, D1PreparedStatement>>();
function statement(d1: D1Database, name: SqlName): D1PreparedStatement {
  let cache = prepared.get(d1);
  if (!cache) prepared.set(d1, (cache = new Map()));
  let stmt = cache.get(name);
  if (!stmt) cache.set(name, (stmt = d1.prepare(SQL[name])));
  return stmt;
}

const PLAN_COLUMNS = {
  plan: "plan",
  pendingPlan: "pending_plan",
  periodStart: "plan_period_start",
  periodEnd: "plan_period_end",
  planSetBy: "plan_set_by",
} as const;

/** The statements that make a group of decisions true, in order; committed as one D1 batch. */
export function toStatements(d1: D1Database, userId: string, writes: Write[], now: number): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  for (const w of writes) {
    switch (w.type) {
      case "row":
        out.push(
          statement(d1, "row").bind(
            w.id,
            userId,
            w.delta,
            w.balanceAfter,
            w.kind,
            w.description,
            w.key,
            w.hash,
            w.clipId,
            w.holdId,
            w.actorId,
          ),
        );
        break;
      case "balance":
        out.push(statement(d1, "balance").bind(w.delta, now, userId));
        break;
      case "clip":
        out.push(clipInsert(d1, w.creatorId ?? userId, userId, w.clip, w.source));
        break;
      case "deleteClip":
        out.push(statement(d1, "deleteClip").bind(w.clipId, userId));
        break;
      case "hold":
        out.push(
          statement(d1, "hold").bind(
            w.hold.id,
            userId,
            w.hold.amount,
            w.hold.request,
            w.hold.key,
            w.hold.hash,
            w.hold.creatorId,
            w.hold.createdAt,
            w.hold.expiresAt,
          ),
        );
        break;
      case "settleHolds":
        for (const id of w.ids) out.push(settle(d1, userId, id, w.status, w.clipId, now));
        break;
      case "teamJoin":
        out.push(statement(d1, "teamOwner").bind(userId, w.joinedAt));
        out.push(statement(d1, "teamJoin").bind(w.memberId, userId, w.invitationId, w.joinedAt));
        out.push(statement(d1, "invitationAccepted").bind(w.joinedAt, w.invitationId, userId));
        break;
      case "teamLeave":
        out.push(statement(d1, "teamLeave").bind(userId, w.memberId));
        break;
      case "line": {
        const l = w.line;
        out.push(
          statement(d1, "line").bind(
            l.id,
            userId,
            l.paymentId,
            l.subscriptionId,
            l.label,
            l.plan,
            l.billing,
            l.start,
            l.end,
            l.chargedCents,
            JSON.stringify(l.months),
            JSON.stringify(l.returned),
            l.granted,
            l.stopAt,
            l.moves,
          ),
        );
        break;
      }
      case "erase":
        out.push(statement(d1, "eraseClips").bind(userId), statement(d1, "eraseHolds").bind(userId));
        for (const word of w.words) out.push(statement(d1, "eraseWord").bind(userId, word));
        break;
      case "teamClose":
        out.push(statement(d1, "teamClose").bind(userId));
        out.push(statement(d1, "invitationsRevoked").bind(now, userId));
        break;
      case "user": {
        const { banned, ...plan } = w.patch;
        if (banned !== undefined) out.push(statement(d1, banned ? "ban" : "unban").bind(now, userId));
        const columns = Object.entries(plan) as [keyof typeof PLAN_COLUMNS, string | number | null][];
        if (columns.length > 0)
          out.push(
            d1
              .prepare(
                `UPDATE users SET ${columns.map(([c]) => `${PLAN_COLUMNS[c]} = ?`).join(", ")}, updated_at = ? WHERE id = ?`,
              )
              .bind(...columns.map(([, v]) => v), now, userId),
          );
        break;
      }
    }
  }
  return out;
}

function clipInsert(d1: D1Database, userId: string, payerId: string, clip: Clip, source: string) {
  return statement(d1, "clip").bind(
    clip.id,
    userId,
    payerId,
    clip.name,
    clip.videoUrl,
    clip.startSeconds,
    clip.endSeconds,
    clip.format,
    clip.quality,
    clip.cost,
    clip.status,
    source,
    Date.parse(clip.createdAt),
    clip.aspect,
    clip.cropPosition,
    clip.captions?.track ?? null,
    clip.captions?.mode ?? null,
    clip.captions?.srt ? 1 : 0,
  );
}

function settle(d1: D1Database, userId: string, id: string, status: HoldEnd, clipId: string | null, now: number) {
  return statement(d1, "settle").bind(status, clipId, now, id, userId);
}

// ── The invariant ────────────────────────────────────────────────────────────

/** The invariant, for every user: credits == sum(ledger deltas) and credits >= 0. Returns the users that break it. */
export async function reconcile(db: Db) {
  const ledgerSum = sql<number>`coalesce((select sum(l.delta) from credit_ledger l where l.user_id = "users"."id"), 0)`;
  return db
    .select({ userId: users.id, email: users.email, credits: users.credits, ledgerSum })
    .from(users)
    .where(sql`"users"."credits" < 0 or "users"."credits" != ${ledgerSum}`);
}
