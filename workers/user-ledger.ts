import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import type { Clip, ClipRequest, Credits } from "~/domain/api";
import { clipRequestSchema } from "~/domain/api";
import { NEW_USER_CREDITS, PLUGIN_CONNECT_CREDITS } from "~/domain/credits";
import { effectivePlan, monthlyCredits, PLAN_PERIOD_MS, planRank, type PlanId } from "~/domain/plans";
import { clientMessageSchema, REALTIME_VERSION, type ServerMessage, type SettingsData } from "~/domain/realtime";
import { getDb, type Db } from "../app/db/client.server";
import {
  applyDelta,
  captureHold,
  chargeClip,
  clipCount,
  expireHolds,
  fail,
  readCredits,
  releaseHold,
  reserveHold,
  type LedgerResult,
} from "../app/db/ledger.server";
import { users } from "../app/db/schema";
import { writePresence } from "../app/db/user-access.server";
import type { AppEnv } from "../app/load-context";
import { publishAdminEvent } from "./admin-feed";

type SocketKind = "page" | "extension";
type Broadcast =
  | { type: "credits"; data: Credits }
  | { type: "clip"; data: { clip: Clip } }
  | { type: "plan"; data: { plan: string; pendingPlan: PlanId | null } }
  | { type: "settings"; data: SettingsData };
interface SocketAttachment {
  kind: SocketKind;
}

/** The socket may have closed while we awaited: a send then is moot, not an error. */
function safeSend(ws: WebSocket, message: ServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // closed meanwhile
  }
}

const parseStoredRequest = (json: string): ClipRequest | null => {
  const parsed = clipRequestSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
};

/**
 * One per user (named by the user id): the only path for any change of that user's balance. Operations run one at
 * a time through `serial`, so each reads the balance and commits its D1 batch with no other change in between.
 * It also holds the user's realtime sockets (hibernatable) and pushes every change to them.
 */
export class UserLedger extends DurableObject<AppEnv> {
  private queue: Promise<unknown> = Promise.resolve();
  private seq = 0;
  private userId: string | null = null;

  constructor(ctx: DurableObjectState, env: AppEnv) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.seq = (await ctx.storage.get<number>("seq")) ?? 0;
      this.userId = (await ctx.storage.get<string>("userId")) ?? null;
    });
  }

  private get db(): Db {
    return getDb(this.env.DB);
  }

  /** Runs operations strictly one after another (D1 calls are I/O, so plain awaits would interleave). */
  private serial<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async bind(userId: string): Promise<void> {
    if (this.userId === userId) return;
    if (this.userId !== null) throw new Error("UserLedger called for another user");
    this.userId = userId;
    await this.ctx.storage.put("userId", userId);
  }

  // ── Credit operations (RPC) ──────────────────────────────────────────────

  charge(input: {
    userId: string;
    key: string;
    request: ClipRequest;
    source: "api" | "admin";
    actorId?: string | null;
  }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      const result = await chargeClip(this.db, input);
      if (result.ok && !result.replayed) {
        this.broadcast({ type: "credits", data: result.value.credits });
        this.broadcast({ type: "clip", data: { clip: result.value.clip } });
        this.notifyAdmins("clips");
      }
      return result;
    });
  }

  reserve(input: { userId: string; key: string; request: ClipRequest }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      const result = await reserveHold(this.db, input);
      if (result.ok && !result.replayed) {
        this.broadcast({ type: "credits", data: result.value.credits });
        await this.scheduleAlarm(Date.parse(result.value.hold.expiresAt));
      }
      return result;
    });
  }

  capture(input: { userId: string; holdId: string }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      const result = await captureHold(this.db, { ...input, parseRequest: parseStoredRequest });
      if (result.ok && !result.replayed) {
        this.broadcast({ type: "credits", data: result.value.credits });
        this.broadcast({ type: "clip", data: { clip: result.value.clip } });
        this.notifyAdmins("clips");
      }
      return result;
    });
  }

  release(input: { userId: string; holdId: string }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      const result = await releaseHold(this.db, input);
      if (result.ok && !result.replayed) this.broadcast({ type: "credits", data: result.value.credits });
      return result;
    });
  }

  /** Admin edit of a balance to an exact value, with the admin and a reason on the ledger row. */
  adjust(input: { userId: string; key: string; newBalance: number; actorId: string; reason: string }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      const credits = await readCredits(this.db, input.userId);
      if (!credits) return fail(404, "not_found", "User not found.");
      if (!Number.isInteger(input.newBalance) || input.newBalance < 0) {
        return fail(422, "invalid_input", "Credits must be a whole number of at least 0.");
      }
      return this.afterDelta(
        await applyDelta(this.db, {
          userId: input.userId,
          key: input.key,
          delta: input.newBalance - credits.balance,
          kind: "adjust",
          description: `Adjusted by an admin: ${input.reason}`,
          actorId: input.actorId,
        }),
      );
    });
  }

  /** Gives back a clip's cost, once per clip. */
  refund(input: { userId: string; clipId: string; amount: number; reason: string; actorId?: string | null }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      return this.afterDelta(
        await applyDelta(this.db, {
          userId: input.userId,
          key: `refund:${input.clipId}`,
          delta: input.amount,
          kind: "refund",
          description: `Refund: ${input.reason}`,
          clipId: input.clipId,
          actorId: input.actorId,
        }),
      );
    });
  }

  /** "Connect and get 1 free credit": once per user ever; the plan becomes Plugin (counted as Free) if it was Free. */
  pluginConnect(input: { userId: string }) {
    return this.serial(async (): Promise<LedgerResult<{ credits: Credits; alreadyConnected: boolean }>> => {
      await this.bind(input.userId);
      const user = await this.loadUser(input.userId);
      if (!user) return fail(404, "not_found", "User profile not found.");
      const credits = await readCredits(this.db, input.userId);
      if (user.plan === "Plugin" && credits)
        return { ok: true, value: { credits, alreadyConnected: true }, replayed: true };
      const becomesPlugin = effectivePlan(user.plan) === "Free";
      const result = await applyDelta(this.db, {
        userId: input.userId,
        key: "plugin-connect",
        delta: PLUGIN_CONNECT_CREDITS,
        kind: "plugin_connect",
        description: "Plugin connection bonus",
        alongside: becomesPlugin
          ? [this.db.update(users).set({ plan: "Plugin", updatedAt: new Date() }).where(eq(users.id, input.userId))]
          : [],
      });
      if (!result.ok) return result;
      if (!result.replayed) {
        this.broadcast({ type: "credits", data: result.value.credits });
        if (becomesPlugin) await this.broadcastPlan(input.userId);
      }
      return {
        ok: true,
        value: { credits: result.value.credits, alreadyConnected: result.replayed },
        replayed: result.replayed,
      };
    });
  }

  /** The spec's rule: a Free user with 0 credits and no clips gets 100 back — once, ever. */
  starterReset(input: { userId: string }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      const user = await this.loadUser(input.userId);
      if (!user || effectivePlan(user.plan) !== "Free" || user.credits !== 0) return null;
      if ((await clipCount(this.db, input.userId)) > 0) return null;
      return this.afterDelta(
        await applyDelta(this.db, {
          userId: input.userId,
          key: "starter-reset",
          delta: NEW_USER_CREDITS,
          kind: "starter_reset",
          description: "Starter credits restored",
        }),
      );
    });
  }

  /**
   * Upgrades apply at once: new limits, a new period and a top-up of the difference in monthly credits.
   * Downgrades wait for the end of the period. The grant's key derives from (user, period, plans).
   */
  changePlan(input: { userId: string; plan: PlanId; now?: number }) {
    return this.serial(
      async (): Promise<
        LedgerResult<{ plan: string; pendingPlan: PlanId | null; effective: "now" | "period_end" }>
      > => {
        await this.bind(input.userId);
        const now = input.now ?? Date.now();
        const user = await this.loadUser(input.userId);
        if (!user) return fail(404, "not_found", "User profile not found.");
        if (user.status === "Banned") return fail(403, "forbidden", "This account has been banned.");
        const current = effectivePlan(user.plan);
        const target = input.plan;
        if (target === current) {
          if (user.pendingPlan) {
            await this.db
              .update(users)
              .set({ pendingPlan: null, updatedAt: new Date(now) })
              .where(eq(users.id, input.userId));
            await this.broadcastPlan(input.userId);
          }
          return { ok: true, value: { plan: user.plan, pendingPlan: null, effective: "now" }, replayed: true };
        }
        if (planRank(target) < planRank(current) && user.planPeriodEnd && user.planPeriodEnd.getTime() > now) {
          await this.db
            .update(users)
            .set({ pendingPlan: target, updatedAt: new Date(now) })
            .where(eq(users.id, input.userId));
          await this.broadcastPlan(input.userId);
          await this.scheduleAlarm(user.planPeriodEnd.getTime());
          return {
            ok: true,
            value: { plan: user.plan, pendingPlan: target, effective: "period_end" },
            replayed: false,
          };
        }
        const topUp = Math.max(0, monthlyCredits(target) - monthlyCredits(current));
        const periodEnd = target === "Free" ? null : new Date(now + PLAN_PERIOD_MS);
        const planUpdate = this.db
          .update(users)
          .set({
            plan: target,
            pendingPlan: null,
            planPeriodStart: target === "Free" ? null : new Date(now),
            planPeriodEnd: periodEnd,
            updatedAt: new Date(now),
          })
          .where(eq(users.id, input.userId));
        if (topUp > 0) {
          const result = await applyDelta(this.db, {
            userId: input.userId,
            // Derived from (user, new period, kind): the period this upgrade starts is unique to it. A retried request
            // cannot grant twice either — it runs after this one and finds the plan already changed.
            key: `plan-grant:${target}:${now}`,
            delta: topUp,
            kind: "plan_grant",
            description: `${target} plan credits`,
            alongside: [planUpdate],
          });
          if (!result.ok) return result;
          this.broadcast({ type: "credits", data: result.value.credits });
        } else {
          await planUpdate;
        }
        await this.broadcastPlan(input.userId);
        if (periodEnd) await this.scheduleAlarm(periodEnd.getTime());
        this.notifyAdmins("users");
        return { ok: true, value: { plan: target, pendingPlan: null, effective: "now" }, replayed: false };
      },
    );
  }

  /** End of a paid period: apply a pending downgrade, start the next period and grant its credits (once). */
  renew(input: { userId: string; now?: number }) {
    return this.serial(async () => {
      await this.bind(input.userId);
      return this.renewDue(input.userId, input.now ?? Date.now());
    });
  }

  private async renewDue(userId: string, now: number): Promise<number | null> {
    for (let guard = 0; guard < 24; guard++) {
      const user = await this.loadUser(userId);
      if (!user?.planPeriodEnd || user.planPeriodEnd.getTime() > now) return user?.planPeriodEnd?.getTime() ?? null;
      const next: PlanId = user.pendingPlan ?? effectivePlan(user.plan);
      const start = user.planPeriodEnd.getTime();
      if (next === "Free") {
        await this.db
          .update(users)
          .set({
            plan: "Free",
            pendingPlan: null,
            planPeriodStart: null,
            planPeriodEnd: null,
            updatedAt: new Date(now),
          })
          .where(eq(users.id, userId));
        await this.broadcastPlan(userId);
        return null;
      }
      const result = await applyDelta(this.db, {
        userId,
        key: `renewal:${start}`,
        delta: monthlyCredits(next),
        kind: "renewal",
        description: `${next} plan credits`,
        alongside: [
          this.db
            .update(users)
            .set({
              plan: next,
              pendingPlan: null,
              planPeriodStart: new Date(start),
              planPeriodEnd: new Date(start + PLAN_PERIOD_MS),
              updatedAt: new Date(now),
            })
            .where(eq(users.id, userId)),
        ],
      });
      if (!result.ok) throw new Error(`renewal failed: ${result.message}`);
      this.broadcast({ type: "credits", data: result.value.credits });
      await this.broadcastPlan(userId);
    }
    return null;
  }

  /** Holds that were never captured are released when they expire; periods that ended are renewed. */
  async alarm(): Promise<void> {
    await this.sweep();
  }

  /** The alarm's work, also run by the scheduled safety net. */
  async sweep(input?: { userId: string }): Promise<void> {
    if (input) await this.bind(input.userId);
    const userId = this.userId;
    if (!userId) return;
    await this.serial(async () => {
      const now = Date.now();
      const { expired, next } = await expireHolds(this.db, userId, now);
      if (expired > 0) {
        const credits = await readCredits(this.db, userId, now);
        if (credits) this.broadcast({ type: "credits", data: credits });
      }
      const periodEnd = await this.renewDue(userId, now);
      const wake = [next, periodEnd].filter((t): t is number => t !== null).sort((a, b) => a - b)[0];
      if (wake !== undefined) await this.ctx.storage.setAlarm(wake);
    });
  }

  private async scheduleAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  private afterDelta<T extends { credits: Credits }>(result: LedgerResult<T>): LedgerResult<T> {
    if (result.ok && !result.replayed) this.broadcast({ type: "credits", data: result.value.credits });
    return result;
  }

  private loadUser(userId: string) {
    return this.db.select().from(users).where(eq(users.id, userId)).get();
  }

  // ── Realtime ─────────────────────────────────────────────────────────────

  /** An admin changed a setting every page uses: pass it to this user's open pages. Returns how many got it. */
  pushSettings(data: SettingsData): number {
    const sockets = this.ctx.getWebSockets().length;
    if (sockets > 0) this.broadcast({ type: "settings", data });
    return sockets;
  }

  /** WebSocket upgrade, forwarded by the Worker after it authenticated the user (X-ClipCut-User). */
  async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get("X-ClipCut-User");
    const kind = request.headers.get("X-ClipCut-Socket") === "extension" ? "extension" : "page";
    if (!userId || request.headers.get("Upgrade") !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    await this.bind(userId);
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], [kind]);
    pair[1].serializeAttachment({ kind } satisfies SocketAttachment);
    const protocol = request.headers.get("X-ClipCut-Protocol");
    await this.setPresence(userId, true);
    return new Response(null, {
      status: 101,
      webSocket: pair[0],
      headers: protocol ? { "Sec-WebSocket-Protocol": protocol } : {},
    });
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
    if (!parsed.success || !userId) {
      safeSend(ws, { v: REALTIME_VERSION, type: "error", message: "Unrecognised message." });
      return;
    }
    if (parsed.data.type === "ping") {
      await this.touchLastSeen(userId);
      safeSend(ws, { v: REALTIME_VERSION, type: "pong", seq: this.seq });
      return;
    }
    // hello: always answer with a snapshot; it is cheap and makes any missed sequence moot.
    safeSend(ws, await this.snapshot(userId));
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
    if (this.userId && this.ctx.getWebSockets().filter((s) => s !== ws).length === 0)
      await this.setPresence(this.userId, false);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    await this.webSocketClose(ws, 1011);
  }

  private async snapshot(userId: string): Promise<ServerMessage> {
    const [credits, user, count] = await Promise.all([
      readCredits(this.db, userId),
      this.loadUser(userId),
      clipCount(this.db, userId),
    ]);
    return {
      v: REALTIME_VERSION,
      type: "snapshot",
      seq: this.seq,
      data: {
        credits: credits ?? { balance: 0, held: 0, available: 0 },
        plan: { plan: user?.plan ?? "Free", pendingPlan: user?.pendingPlan ?? null },
        clipCount: count,
      },
    };
  }

  private broadcast(message: Broadcast): void {
    this.seq += 1;
    void this.ctx.storage.put("seq", this.seq);
    const text = JSON.stringify({ v: REALTIME_VERSION, seq: this.seq, ...message });
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // a closing socket: its close handler cleans up
      }
    }
  }

  private async broadcastPlan(userId: string): Promise<void> {
    const user = await this.loadUser(userId);
    if (user) this.broadcast({ type: "plan", data: { plan: user.plan, pendingPlan: user.pendingPlan } });
    this.notifyAdmins("users");
  }

  /** Conditional in one statement: a ban written meanwhile is never overwritten by presence. */
  private async setPresence(userId: string, online: boolean): Promise<void> {
    if (await writePresence(this.db, userId, online)) this.notifyAdmins("users");
  }

  /** Closes every socket of the user (ban, sign-out everywhere): pages and the extension must reconnect and re-auth. */
  async disconnect(reason = "signed out"): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    for (const ws of sockets) {
      try {
        ws.close(4001, reason);
      } catch {
        // already closed
      }
    }
    if (this.userId) await this.setPresence(this.userId, false);
    return sockets.length;
  }

  private async touchLastSeen(userId: string): Promise<void> {
    await this.db.update(users).set({ lastSeen: new Date() }).where(eq(users.id, userId));
  }

  private notifyAdmins(topic: "users" | "clips"): void {
    this.ctx.waitUntil(publishAdminEvent(this.env, topic));
  }
}
