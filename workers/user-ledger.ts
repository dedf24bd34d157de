import type { ClipRequest, Credits } from "~/domain/api";
import type { PlanId } from "~/domain/plans";
import {
  clientMessageSchema,
  CLOSE_CODES,
  REALTIME_VERSION,
  type ServerMessage,
  type SettingsData,
} from "~/domain/realtime";
import { tokenAccepted, tokenStanding, type TokenStanding } from "../app/db/api-tokens.server";
import { getDb, type Db } from "../app/db/client.server";
import { clipCount } from "../app/db/clips.server";
import * as ops from "../app/db/ledger.server";
import {
  BUSY_MESSAGE,
  cloneState,
  creditsOf,
  fail,
  loadLedgerState,
  SAVE_FAILED_MESSAGE,
  type Decision,
  type LedgerEvent,
  type LedgerResult,
  type LedgerState,
  type OpContext,
} from "../app/db/ledger.server";
import { writePresence } from "../app/db/user-access.server";
import { touchLastSeen } from "../app/db/users.server";
import type { AppEnv } from "../app/load-context";
import { publishAdminEvent } from "./admin-feed";
import { LAST_SEEN_EVERY_MS } from "./socket-budget";
import { credentialStillValid, socketCredential, type SocketCredential } from "./socket-credential";
import { sessionTag, SocketHub, tokenTag } from "./socket-hub";

type SocketKind = "page" | "extension";
interface SocketAttachment {
  kind: SocketKind;
  /** The session (pages) or token (extension) the socket was opened with; re-checked on every hello. */
  credential?: SocketCredential;
}
type Operation<T> = (db: Db, state: LedgerState, ctx: OpContext) => Promise<Decision<T>>;
interface Waiting {
  operation: Operation<unknown>;
  answer: (result: LedgerResult<unknown>) => void;
}

/** An operation that replaces the state with what D1 holds, in its place in the queue. */
const reloadState: Operation<null> = async (db, state) => {
  const fresh = await loadLedgerState(db, state.userId);
  if (fresh) Object.assign(state, fresh, { lastClipAt: state.lastClipAt });
  return { result: { ok: true, value: null, replayed: false }, writes: [], events: [], adminTopics: [], wakeAt: null };
};

/** Seq numbers reserved per storage write (decision 004). */
const SEQ_BLOCK = 1000;
/** Statements per D1 batch stay well under D1's limits: a charge is three. */
const MAX_GROUP = 64;
/** A remembered token check is re-read from D1 after this long, whatever else happens (decision 010). */
export const TOKEN_RECHECK_MS = 60_000;
const MAX_TOKENS = 64;

/**
 * One per user (named by the user id), the only writer of that user's balance. It is a thin shell: every operation
 * is an `app/db/ledger.server.ts` function; this object serialises them, commits them (group commit: operations
 * that arrive while a batch is in flight are decided in memory, in arrival order, and committed together in the
 * next batch), answers each caller after its batch committed, and publishes the operation's events once.
 * It also holds the user's realtime sockets (hibernatable). See docs/decisions/005-group-commit.md.
 */
export class UserLedger extends SocketHub<SocketAttachment> {
  /** Beyond `maxWaiting` queued operations the object answers "busy" rather than queueing without bound. */
  readonly limits = { maxWaiting: 256 };
  private seq = 0;
  /** Every seq up to this bound may have been used; storage holds it. */
  private seqReserved = 0;
  private userId: string | null = null;
  /** Committed state: what D1 holds. Null until loaded. */
  private state: LedgerState | null = null;
  private waiting: Waiting[] = [];
  private committing = false;
  /** Extension token checks by token hash, so an API request costs no D1 read (decision 010). */
  private tokens = new Map<string, { standing: TokenStanding | null; checkedAt: number }>();
  /** Bumped by forgetTokens: a D1 read that started before it is not remembered. */
  private tokenEpoch = 0;
  /** When `users.last_seen` was last written by this object (at most once a minute). */
  private lastSeenAt = 0;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      // Continue after the stored bound: no seq used before a restart is ever used again (clients see a gap: resync).
      this.seq = (await ctx.storage.get<number>("seq")) ?? 0;
      this.seqReserved = this.seq;
      this.userId = (await ctx.storage.get<string>("userId")) ?? null;
      if (this.userId) this.state = await loadLedgerState(this.db, this.userId);
    });
  }

  private get db(): Db {
    return getDb(this.env.DB);
  }

  private async bind(userId: string): Promise<void> {
    if (this.userId === userId) return;
    if (this.userId !== null) throw new Error("UserLedger called for another user");
    this.userId = userId;
    await this.ctx.storage.put("userId", userId);
  }

  /** The state, loaded once (first call of a new object), with nothing else running meanwhile. */
  private async ready(userId: string): Promise<LedgerState | null> {
    await this.bind(userId);
    if (!this.state)
      await this.ctx.blockConcurrencyWhile(async () => {
        this.state ??= await loadLedgerState(this.db, userId);
      });
    return this.state;
  }

  /** serialise → operation → publish: queue the operation; the answer comes once its batch committed. */
  private async run<T>(userId: string, operation: Operation<T>): Promise<LedgerResult<T>> {
    if (!(await this.ready(userId))) return fail(404, "not_found", "User not found.");
    if (this.waiting.length >= this.limits.maxWaiting) return fail(503, "busy", BUSY_MESSAGE);
    return new Promise<LedgerResult<T>>((answer) => {
      this.waiting.push({ operation, answer } as Waiting);
      if (!this.committing) void this.commitLoop();
    });
  }

  private async commitLoop(): Promise<void> {
    this.committing = true;
    try {
      while (this.waiting.length > 0) await this.commitGroup(this.waiting.splice(0, MAX_GROUP));
    } finally {
      this.committing = false;
    }
  }

  /** Decide each operation in memory, in arrival order, then commit them all in one D1 batch. */
  private async commitGroup(group: Waiting[]): Promise<void> {
    const base = this.state;
    if (!base) return group.forEach((w) => w.answer(fail(404, "not_found", "User not found.")));
    const draft = cloneState(base);
    const ctx = { now: Date.now(), thorough: false };
    const decided: (Decision<unknown> | null)[] = [];
    for (const w of group) decided.push(await w.operation(this.db, draft, ctx).catch(() => null));
    const writes = decided.flatMap((d) => d?.writes ?? []);
    if (decided.includes(null) || writes.length > 0) {
      try {
        if (decided.includes(null)) throw new Error("an operation failed to decide");
        await this.db.batch(writes as [ops.Statement, ...ops.Statement[]]);
      } catch (error) {
        // One bad operation must not fail its neighbours: start again from what D1 holds, one at a time.
        console.warn(
          JSON.stringify({ level: "warn", msg: "ledger batch failed", size: group.length, error: String(error) }),
        );
        this.state = (await loadLedgerState(this.db, base.userId).catch(() => null)) ?? base;
        for (const w of group) await this.commitOne(w);
        return;
      }
    }
    this.state = draft;
    // Admin pages hear of the group once per topic, not once per operation (one hop to AdminFeed, not 64).
    const topics = new Set(decided.flatMap((d) => d?.adminTopics ?? []));
    for (const [i, w] of group.entries()) await this.finish(w, decided[i] as Decision<unknown>, false);
    for (const topic of topics) this.ctx.waitUntil(publishAdminEvent(this.env, topic));
  }

  /** The slow path after a failed batch: decide with D1 consulted for unknown keys, commit alone. */
  private async commitOne(w: Waiting): Promise<void> {
    const base = this.state;
    if (!base) return w.answer(fail(404, "not_found", "User not found."));
    const draft = cloneState(base);
    let decision: Decision<unknown>;
    try {
      decision = await w.operation(this.db, draft, { now: Date.now(), thorough: true });
      if (decision.writes.length > 0) await this.db.batch(decision.writes as [ops.Statement, ...ops.Statement[]]);
    } catch (error) {
      // The batch is a transaction: nothing of it was written, and the state stays as it was.
      console.error(JSON.stringify({ level: "error", msg: "ledger operation failed", error: String(error) }));
      return w.answer(fail(500, "internal", SAVE_FAILED_MESSAGE));
    }
    this.state = draft;
    await this.finish(w, decision);
  }

  /** After commit: publish the events (each once, in order), wake later if asked, then answer — always. */
  private async finish(w: Waiting, decision: Decision<unknown>, publishAdmin = true): Promise<void> {
    try {
      for (const event of decision.events) this.publish(event);
      if (publishAdmin)
        for (const topic of new Set(decision.adminTopics)) this.ctx.waitUntil(publishAdminEvent(this.env, topic));
      if (decision.wakeAt !== null) await this.scheduleAlarm(decision.wakeAt);
    } catch (error) {
      // Committed already: the caller gets its answer; the scheduled safety net covers a missed alarm.
      console.error(JSON.stringify({ level: "error", msg: "ledger publish failed", error: String(error) }));
    }
    w.answer(decision.result);
  }

  /** Every change message goes out here: the next seq, one serialisation, every socket. */
  private publish(event: LedgerEvent | { type: "settings"; data: SettingsData }): void {
    this.seq += 1;
    if (this.seq > this.seqReserved) {
      // Storage holds a bound, not each seq: a write per message made every answer wait for it (the output gate).
      this.seqReserved = this.seq + SEQ_BLOCK;
      void this.ctx.storage.put("seq", this.seqReserved);
    }
    this.sendAll({ v: REALTIME_VERSION, seq: this.seq, ...event } satisfies ServerMessage);
  }

  private async scheduleAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  // ── Operations (RPC); names as the callers know them ────────────────────

  charge(input: {
    userId: string;
    key: string;
    request: ClipRequest;
    source: "api" | "admin";
    actorId?: string | null;
  }) {
    return this.run(input.userId, (db, state, ctx) => ops.charge(db, state, input, ctx));
  }

  reserve(input: { userId: string; key: string; request: ClipRequest }) {
    return this.run(input.userId, (db, state, ctx) => ops.reserve(db, state, input, ctx));
  }

  capture(input: { userId: string; holdId: string }) {
    return this.run(input.userId, (db, state, ctx) => ops.capture(db, state, input, ctx));
  }

  release(input: { userId: string; holdId: string }) {
    return this.run(input.userId, (db, state, ctx) => ops.release(db, state, input, ctx));
  }

  /** Admin edit of a balance to an exact value, with the admin and a reason on the ledger row. */
  adjust(input: { userId: string; key: string; newBalance: number; actorId: string; reason: string }) {
    return this.run(input.userId, (db, state, ctx) => ops.adjust(db, state, input, ctx));
  }

  /** Gives back a clip's cost, once per clip; `deleteClip` removes the clip in the same batch. */
  refund(input: {
    userId: string;
    clipId: string;
    reason: string;
    actorId?: string | null;
    amount?: number;
    deleteClip?: boolean;
  }) {
    return this.run(input.userId, (db, state, ctx) => ops.refund(db, state, input, ctx));
  }

  pluginConnect(input: { userId: string }) {
    return this.run(input.userId, (db, state, ctx) => ops.pluginConnect(db, state, ctx));
  }

  starterReset(input: { userId: string }) {
    return this.run(input.userId, (db, state, ctx) => ops.starterReset(db, state, ctx));
  }

  changePlan(input: { userId: string; plan: PlanId; now?: number }) {
    return this.run(input.userId, (db, state, ctx) =>
      ops.changePlan(db, state, input, { ...ctx, now: input.now ?? ctx.now }),
    );
  }

  /** End of a paid period (the alarm, the scheduled safety net, tests with a chosen `now`). */
  renew(input: { userId: string; now?: number }) {
    return this.run(input.userId, (db, state, ctx) =>
      ops.renewPeriod(db, state, { ...ctx, now: input.now ?? ctx.now }),
    );
  }

  /**
   * The user row changed outside the ledger (a ban, an admin edit of the plan): read the state again. Balance,
   * holds and keys are only ever written here, so this is about the row's other columns.
   */
  async reload(input: { userId: string }): Promise<void> {
    await this.run(input.userId, reloadState);
  }

  /** Holds that were never captured are released when they expire; periods that ended are renewed. */
  async alarm(): Promise<void> {
    await this.sweep();
  }

  /** The alarm's work, also run by the scheduled safety net. */
  async sweep(input?: { userId: string }): Promise<void> {
    const userId = input?.userId ?? this.userId;
    if (!userId) return;
    // Queued in this order: the sweep starts from what D1 holds (it also heals any drift), then expires and renews.
    await Promise.all([
      this.run(userId, reloadState),
      this.run(userId, (db, state, ctx) => ops.expire(db, state, ctx)),
      this.run(userId, (db, state, ctx) => ops.renewPeriod(db, state, ctx)),
    ]);
  }

  // ── Extension tokens ─────────────────────────────────────────────────────

  /** Is this token of this user accepted now? Answers the credits too, so `/api/v1/me` needs no D1 read for them. */
  async authenticate(input: { userId: string; tokenHash: string }): Promise<{ credits: Credits } | null> {
    const state = await this.ready(input.userId);
    if (!state) return null;
    const now = Date.now();
    let entry = this.tokens.get(input.tokenHash);
    while (!entry || now - entry.checkedAt > TOKEN_RECHECK_MS) {
      const epoch = this.tokenEpoch;
      const standing = await tokenStanding(this.db, input.tokenHash);
      if (epoch !== this.tokenEpoch) continue; // revoked meanwhile: read again
      if (this.tokens.size >= MAX_TOKENS) this.tokens.clear();
      entry = { standing, checkedAt: now };
      this.tokens.set(input.tokenHash, entry);
    }
    return tokenAccepted(entry.standing, input.userId, now) ? { credits: creditsOf(this.state ?? state, now) } : null;
  }

  /** Tokens were revoked or the user banned in D1: every token is read again on its next use. */
  forgetTokens(): void {
    this.tokens.clear();
    this.tokenEpoch += 1;
  }

  // ── Realtime ─────────────────────────────────────────────────────────────

  /** An admin changed a setting every page uses: pass it to this user's open pages. Returns how many got it. */
  pushSettings(data: SettingsData): number {
    const sockets = this.ctx.getWebSockets().length;
    if (sockets > 0) {
      this.publish({ type: "settings", data });
    }
    return sockets;
  }

  /** WebSocket upgrade, forwarded by the Worker after it authenticated the user (X-ClipCut-User). */
  async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get("X-ClipCut-User");
    const kind: SocketKind = request.headers.get("X-ClipCut-Socket") === "extension" ? "extension" : "page";
    if (!userId || request.headers.get("Upgrade") !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    await this.bind(userId);
    const full = this.socketCapReached();
    if (full) return full;
    const credential = socketCredential(request.headers);
    const tags = [
      kind,
      ...(credential ? [credential.type === "session" ? sessionTag(credential.id) : tokenTag(credential.id)] : []),
    ];
    const response = this.acceptSocket({ kind, credential }, tags, request.headers.get("X-ClipCut-Protocol"));
    await this.setPresence(userId, true);
    return response;
  }

  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const userId = this.userId;
    let json: unknown = null;
    try {
      json = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      // handled below as invalid
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!this.spendFrame(ws, parsed.success ? parsed.data.type : "other")) return;
    if (!parsed.success || !userId) {
      this.send(ws, { v: REALTIME_VERSION, type: "error", message: "Unrecognised message." } satisfies ServerMessage);
      return;
    }
    if (parsed.data.type === "ping") {
      const now = Date.now();
      if (now - this.lastSeenAt >= LAST_SEEN_EVERY_MS) {
        this.lastSeenAt = now;
        await touchLastSeen(this.db, userId, new Date(now));
      }
      this.send(ws, { v: REALTIME_VERSION, type: "pong", seq: this.seq } satisfies ServerMessage);
      return;
    }
    // hello: the session or token the socket was opened with must still be valid (it may have ended meanwhile).
    const { credential } = this.attachment(ws);
    if (!credential || !(await credentialStillValid(this.db, userId, credential))) {
      ws.close(CLOSE_CODES.accessEnded, "access ended");
      return;
    }
    // Always answer with a snapshot; it is cheap and makes any missed sequence moot.
    this.send(ws, await this.snapshot(userId));
  }

  protected async onSocketClosed(_ws: WebSocket, remaining: WebSocket[]): Promise<void> {
    if (this.userId && remaining.length === 0) await this.setPresence(this.userId, false);
  }

  private async snapshot(userId: string): Promise<ServerMessage> {
    const [state, count] = await Promise.all([this.ready(userId), clipCount(this.db, userId)]);
    return {
      v: REALTIME_VERSION,
      type: "snapshot",
      seq: this.seq,
      data: {
        credits: state ? creditsOf(state, Date.now()) : { balance: 0, held: 0, available: 0 },
        plan: { plan: state?.user.plan ?? "Free", pendingPlan: state?.user.pendingPlan ?? null },
        clipCount: count,
      },
    };
  }

  /** Conditional in one statement (user-access.server.ts): a ban written meanwhile is never overwritten by presence. */
  private async setPresence(userId: string, online: boolean): Promise<void> {
    if (await writePresence(this.db, userId, online)) this.ctx.waitUntil(publishAdminEvent(this.env, "users"));
  }

  /**
   * Some sessions or tokens of this user ended (sign-out, a session ended on /account, a password change): their
   * sockets close with "do not reconnect", and every token is read again on its next use. Returns how many closed.
   */
  closeRevoked(input: { sessionIds: string[]; tokenHashes: string[]; reason: string }): number {
    this.forgetTokens();
    return this.closeTagged(
      [...input.sessionIds.map(sessionTag), ...input.tokenHashes.map(tokenTag)],
      CLOSE_CODES.accessEnded,
      input.reason,
    );
  }

  /**
   * Access ended (ban, sign-out everywhere): closes every socket of the user with a code that says "do not
   * reconnect", and re-reads the user row, whose status changed outside the ledger.
   */
  async disconnect(reason = "signed out"): Promise<number> {
    const closed = this.closeAll(CLOSE_CODES.accessEnded, reason);
    this.forgetTokens();
    if (this.userId) {
      await this.setPresence(this.userId, false);
      if (this.state) await this.run(this.userId, reloadState);
    }
    return closed;
  }
}
