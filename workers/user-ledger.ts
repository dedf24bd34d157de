import {
  BUSY_MESSAGE,
  cloneState,
  creditsOf,
  fail,
  LEDGER_OPS,
  payerViewOf,
  SAVE_FAILED_MESSAGE,
  standingOf,
  starterResetDue,
  type AdminTopic,
  type Decision,
  type LedgerInput,
  type LedgerOpName,
  type LedgerOutcome,
  type LedgerResult,
  type LedgerState,
  type Payer,
  type PayerView,
  type Standing,
} from "~/domain/ledger";
import type { StoredPlan } from "~/domain/plans";
import { CLOSE_CODES } from "~/domain/realtime";
import { loadFacts, loadLedgerState, requestHash, toStatements } from "../app/db/ledger.server";
import type { AppEnv } from "../app/load-context";
import { ledger } from "../app/services/ledger.server";
import { forwardToPayer } from "./payer-forwarding";
import { publishAdminEvent } from "./admin-feed";
import { runEffects, type EffectPorts } from "./ledger-effects";
import { LedgerSockets, type SnapshotData } from "./ledger-sockets";

interface Waiting {
  name: LedgerOpName | "reload";
  input: unknown;
  answer: (result: LedgerResult<unknown>) => void;
  /** The team member whose own ledger forwarded this operation (it tells the member's sockets itself). */
  forwardedBy?: string;
  /** The decision context's time for this operation, when a test clock set it (the local adapter only). */
  at?: number;
}

/** Operations per D1 batch stay well under D1's limits: a charge is three statements. */
const MAX_GROUP = 64;

const NOTHING: Decision<null> = { result: { ok: true, value: null, replayed: false }, writes: [], effects: [] };

/**
 * One per user (named by the user id): the only writer of that user's plan, period, credits, holds and ban. It is
 * the queue, the commit and the effect runner (its sockets: `ledger-sockets.ts`). Every operation is a pure decision
 * from `app/domain/ledger`: operations that arrive while a batch is in flight are decided in memory, in arrival
 * order, and committed together in the next D1 batch (group commit, docs/decisions/005-group-commit.md); each caller
 * is answered after its batch committed, and each change is published once.
 */
/**
 * What the object tells people beyond its sockets (e-mail, audit), handed in by the Worker that composes it
 * (workers/app.ts): the object imports no mail service.
 */
export interface LedgerNotices {
  /** The owner's team works again or is suspended: its members are told (after the commit that changed it). */
  teamStatus(ownerId: string, plan: StoredPlan, active: boolean): Promise<void>;
}

export class UserLedger extends LedgerSockets {
  /** Beyond `maxWaiting` queued operations the object answers "busy" rather than queueing without bound. */
  readonly limits = { maxWaiting: 256 };
  /** Committed state: what D1 holds. Null until loaded. */
  private state: LedgerState | null = null;
  private waiting: Waiting[] = [];
  private committing = false;

  constructor(
    ctx: DurableObjectState,
    env: AppEnv,
    private readonly notices: LedgerNotices,
  ) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      await this.restore();
      if (this.userId) this.state = await loadLedgerState(this.db, this.userId);
      this.standingRules();
    });
  }

  /** The state, loaded once (first call of a new object), with nothing else running meanwhile. */
  private async ready(userId: string): Promise<LedgerState | null> {
    await this.bind(userId);
    if (!this.state) {
      await this.ctx.blockConcurrencyWhile(async () => {
        this.state ??= await loadLedgerState(this.db, userId);
      });
      this.standingRules();
    }
    return this.state;
  }

  /**
   * Rules that follow from the state itself, applied when it loads and when a page says hello, never by a GET:
   * the starter reset (a Free account left with 0 credits and no clips starts over, once — the op is idempotent).
   */
  private standingRules(): void {
    if (this.state && this.userId && starterResetDue(this.state) && !this.state.keys.has("starter-reset"))
      void this.enqueue(this.userId, "starterReset", {});
  }

  // ── The one door (RPC) ───────────────────────────────────────────────────

  /** Runs one ledger operation; the answer comes once its batch committed. Called through `ledger(env, userId)`. */
  async apply<K extends LedgerOpName>(
    userId: string,
    name: K,
    input: LedgerInput<K>,
    forwardedBy?: string,
  ): Promise<LedgerResult<LedgerOutcome<K>>> {
    if (!(name in LEDGER_OPS)) return fail("unknown_operation", "Unknown ledger operation.");
    return this.enqueue(userId, name, input, forwardedBy) as Promise<LedgerResult<LedgerOutcome<K>>>;
  }

  /**
   * An API request's token check and its operation in one call (one RPC per charge, not two): the token is
   * checked from memory (decision 010), then the operation is queued here — or, for a member of a working team,
   * forwarded to the payer's ledger (decided from this state, no D1 read). Null: the token is not accepted.
   */
  async applyWithToken<K extends LedgerOpName>(
    userId: string,
    tokenHash: string,
    name: K,
    input: LedgerInput<K>,
  ): Promise<LedgerResult<LedgerOutcome<K>> | null> {
    if (!(await this.tokenAccepted(userId, tokenHash))) return null;
    const viaPayer = await forwardToPayer(
      {
        state: () => this.state!,
        payerLedger: (payerId) => ledger(this.env, payerId),
        publish: (event) => this.enqueue(userId, "relay", event),
        stale: (from, payer) => void this.enqueue(userId, "payerChanged", { from, payer }),
      },
      userId,
      name,
      input,
    );
    if (viaPayer) return viaPayer as LedgerResult<LedgerOutcome<K>>;
    return this.apply(userId, name, input);
  }

  /**
   * The local adapter's clock port: the operation is decided at `at` (never before real time), so a Stripe test
   * clock's months are granted when the stand-in's clock reaches them. Nothing in production calls it.
   */
  protected decideAt<K extends LedgerOpName>(
    userId: string,
    name: K,
    input: LedgerInput<K>,
    at: number,
  ): Promise<LedgerResult<LedgerOutcome<K>>> {
    return this.enqueue(userId, name, input, undefined, Math.max(Date.now(), at)) as Promise<
      LedgerResult<LedgerOutcome<K>>
    >;
  }

  private async enqueue(
    userId: string,
    name: Waiting["name"],
    input: unknown,
    forwardedBy?: string,
    at?: number,
  ): Promise<LedgerResult<unknown>> {
    if (!(await this.ready(userId))) return fail("user_not_found", "User not found.");
    if (this.waiting.length >= this.limits.maxWaiting) return fail("busy", BUSY_MESSAGE);
    return new Promise<LedgerResult<unknown>>((answer) => {
      this.waiting.push({ name, input, answer, forwardedBy, at });
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

  /** Reads what the operation needs, then decides it (pure) against the draft state. */
  private async decideOne(w: Waiting, draft: LedgerState, now: number, thorough: boolean): Promise<Decision<unknown>> {
    const userId = this.userId!;
    if (w.name === "reload") {
      // Replaces the state with what D1 holds, in its place in the queue.
      const fresh = await loadLedgerState(this.db, userId);
      // The holds this person opened on a payer's ledger are kept (captured ones answer a capture's replay).
      if (fresh) {
        for (const [holdId, payerId] of fresh.payerHolds) draft.payerHolds.set(holdId, payerId);
        Object.assign(draft, fresh, { lastClipAt: draft.lastClipAt, payerHolds: draft.payerHolds });
      }
      return NOTHING;
    }
    // Each entry of LEDGER_OPS is typed on its own input; the queue holds them all.
    const spec = LEDGER_OPS[w.name] as unknown as (typeof LEDGER_OPS)["charge"];
    const input = w.input as Parameters<typeof spec.decide>[1];
    const hash = await requestHash(spec.fingerprint(input));
    const facts = await loadFacts(this.db, draft, userId, spec.needs(input), hash, thorough);
    return spec.decide(draft, input, facts, { now: w.at ?? now, newId: () => crypto.randomUUID() });
  }

  /** Decide each operation in memory, in arrival order, then commit them all in one D1 batch. */
  private async commitGroup(group: Waiting[]): Promise<void> {
    const base = this.state;
    if (!base) return group.forEach((w) => w.answer(fail("user_not_found", "User not found.")));
    const draft = cloneState(base);
    const now = Date.now();
    const decided: (Decision<unknown> | null)[] = [];
    for (const w of group) decided.push(await this.decideOne(w, draft, now, false).catch(() => null));
    const writes = decided.flatMap((d) => d?.writes ?? []);
    if (decided.includes(null) || writes.length > 0) {
      try {
        if (decided.includes(null)) throw new Error("an operation failed to decide");
        await this.env.DB.batch(toStatements(this.env.DB, base.user.id, writes, now));
      } catch (error) {
        // One bad operation must not fail its neighbours: start again from what D1 holds, one at a time.
        console.warn(
          JSON.stringify({ level: "warn", msg: "ledger batch failed", size: group.length, error: String(error) }),
        );
        // D1 saying the user is gone (a row deleted behind the ledger's back) ends the state: every operation then
        // answers "User not found." instead of failing to save; a failed read keeps the state it had.
        const fresh = await loadLedgerState(this.db, base.user.id).then(
          (state) => ({ state }),
          () => null,
        );
        this.state = fresh ? fresh.state : base;
        for (const w of group) await this.commitOne(w);
        return;
      }
    }
    this.state = draft;
    // Admin pages hear of the group once per topic, not once per operation (one hop to AdminFeed, not 64).
    const topics = new Set<AdminTopic>();
    for (const [i, w] of group.entries()) await this.finish(w, decided[i] as Decision<unknown>, topics);
    this.publishAdmin(topics);
  }

  /** The slow path after a failed batch: decide with D1 consulted for unknown keys, commit alone. */
  private async commitOne(w: Waiting): Promise<void> {
    const base = this.state;
    if (!base) return w.answer(fail("user_not_found", "User not found."));
    const draft = cloneState(base);
    const now = Date.now();
    let decision: Decision<unknown>;
    try {
      decision = await this.decideOne(w, draft, now, true);
      if (decision.writes.length > 0)
        await this.env.DB.batch(toStatements(this.env.DB, base.user.id, decision.writes, now));
    } catch (error) {
      // The batch is a transaction: nothing of it was written, and the state stays as it was.
      console.error(JSON.stringify({ level: "error", msg: "ledger operation failed", error: String(error) }));
      return w.answer(fail("save_failed", SAVE_FAILED_MESSAGE));
    }
    this.state = draft;
    const topics = new Set<AdminTopic>();
    await this.finish(w, decision, topics);
    this.publishAdmin(topics);
  }

  /** After commit: run the decision's effects (one runner, `ledger-effects.ts`), then answer. */
  private async finish(w: Waiting, decision: Decision<unknown>, topics: Set<AdminTopic>): Promise<void> {
    await runEffects(decision.effects, this.ports(topics, w.forwardedBy));
    w.answer(decision.result);
  }

  /**
   * The object's side of every effect. `forwardedBy`: the member whose ledger forwarded the operation hears its
   * clip and the team balance from that ledger (with the answer), so nothing is relayed to them from here.
   */
  private ports(topics: Set<AdminTopic>, forwardedBy?: string): EffectPorts {
    const userId = this.userId!;
    const background = (msg: string, work: Promise<unknown>) =>
      this.ctx.waitUntil(
        work.catch((error: unknown) =>
          console.error(JSON.stringify({ level: "error", msg, userId, error: String(error) })),
        ),
      );
    return {
      publish: (event) => this.publish(event),
      relay: (event) => void this.publishIfWatched(event),
      toMember: (memberId, event) => {
        if (memberId !== forwardedBy) background("member relay failed", ledger(this.env, memberId).relay(event));
      },
      // The members are in memory: no D1 read per commit, and an owner without members relays nothing.
      teamCredits: (credits, memberIds) => {
        for (const memberId of memberIds)
          if (memberId !== forwardedBy)
            background("team relay failed", ledger(this.env, memberId).relay({ type: "teamCredits", data: credits }));
      },
      teamStatus: async (active, plan, memberIds) => {
        await Promise.all(memberIds.map((memberId) => this.tellPayer(memberId, { ownerId: userId, active })));
        background("team notice failed", this.notices.teamStatus(userId, plan, active));
      },
      payer: (memberId, payer) => this.tellPayer(memberId, payer),
      adminTopic: (topic) => topics.add(topic),
      wake: (at) => this.scheduleAlarm(at),
      endAccess: (reason) => this.closeAll(CLOSE_CODES.accessEnded, reason),
      forgetTokens: () => this.tokens.forget(),
    };
  }

  /** A member's ledger learns its payer from this (the owner's) one; failing that, it learns it when it reloads. */
  private async tellPayer(memberId: string, payer: Payer | null): Promise<void> {
    const told = await ledger(this.env, memberId).payerChanged({ from: this.userId!, payer });
    if (!told.ok)
      console.error(JSON.stringify({ level: "error", msg: "payer not told", memberId, error: told.message }));
  }

  private publishAdmin(topics: Set<AdminTopic>): void {
    for (const topic of topics) this.ctx.waitUntil(publishAdminEvent(this.env, topic));
  }

  private async scheduleAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
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
      this.enqueue(userId, "reload", null),
      this.enqueue(userId, "expire", {}),
      this.enqueue(userId, "renew", {}),
    ]);
  }

  // ── Extension tokens (decision 010) ──────────────────────────────────────

  private async tokenAccepted(userId: string, tokenHash: string): Promise<boolean> {
    const state = await this.ready(userId);
    if (!state || state.user.banned) return false;
    return this.tokens.accepted(userId, tokenHash, Date.now());
  }

  /**
   * Who this user is now, from memory: plan, balance, the plan that applies, team (`Standing`). Null for a banned
   * or unknown user, and for a token (when given) that is not accepted. A member's team side comes from the owner's
   * ledger (the authority on its plan, ban and balance); if it disagrees with this state, this state learns it.
   */
  async authenticate(input: { userId: string; tokenHash?: string }): Promise<Standing | null> {
    if (input.tokenHash !== undefined) {
      if (!(await this.tokenAccepted(input.userId, input.tokenHash))) return null;
    } else {
      const state = await this.ready(input.userId);
      if (!state || state.user.banned) return null;
    }
    const payer = this.state!.payer;
    const asked = payer ? await ledger(this.env, payer.ownerId).payerView() : null;
    const view = asked && !("ok" in asked) ? asked : null;
    const standing = standingOf(this.state!, Date.now(), view);
    if (payer && view && standing.team?.active !== payer.active)
      void this.enqueue(input.userId, "payerChanged", {
        from: payer.ownerId,
        payer: { ownerId: payer.ownerId, active: standing.team!.active },
      });
    return standing;
  }

  /** This (a team owner's) ledger's side of the team, for a member's `authenticate`. Null: no such user. */
  async payerView(input: { userId: string }): Promise<PayerView | null> {
    const state = await this.ready(input.userId);
    return state ? payerViewOf(state, Date.now()) : null;
  }

  // ── Realtime (the sockets themselves: ledger-sockets.ts) ───────────────

  /** From memory: the clip count is kept in the state, so a snapshot costs no D1 read once the object is loaded. */
  protected async snapshotData(userId: string): Promise<SnapshotData> {
    const state = await this.ready(userId);
    this.standingRules();
    return {
      credits: state ? creditsOf(state, Date.now()) : { balance: 0, held: 0, available: 0 },
      plan: { plan: state?.user.plan ?? "Free", pendingPlan: state?.user.pendingPlan ?? null },
      clipCount: state?.clipCount ?? 0,
    };
  }
}
