/**
 * Payment operations (Stripe webhooks, docs/decisions/011-payments.md): a subscription's plan fields, and the one
 * operation that makes credits follow the money (`followMoney`). The rules are the pure functions of
 * `app/domain/billing.ts`; these turn them into ledger decisions, idempotent by the state itself (a line is created
 * once; money going back is set, never added), so a redelivered or reordered event changes nothing more.
 */
import type { Credits } from "../api";
import {
  newPaidLine,
  settleLine,
  spreadReturn,
  subscriptionPlanFields,
  type MoneyReturned,
  type PaidLine,
  type PaidLineInput,
  type PlanFields,
  type SubscriptionFacts,
} from "../billing";
import { effectivePlan, type PlanId } from "../plans";
import { applyDelta, creditsOf, decide, patchUser, success, type Draft } from "./core";
import type { DecideContext, Decision, Facts, LedgerKind, LedgerState, Write } from "./types";

export interface PlanView {
  plan: string;
  pendingPlan: PlanId | null;
}

/**
 * A subscription as Stripe has it now (re-read by the webhook): plan, pending plan and credit month follow it.
 * No credits move here (paid lines grant them). Applying the same subscription twice changes nothing.
 */
export function applySubscription(
  state: LedgerState,
  input: { facts: SubscriptionFacts },
  ctx: DecideContext,
): Decision<PlanView> {
  return decide(state, ctx, (): Draft<PlanView> => {
    const user = state.user;
    const current: PlanFields = {
      plan: effectivePlan(user.plan),
      pendingPlan: user.pendingPlan,
      planPeriodStart: user.periodStart,
      planPeriodEnd: user.periodEnd,
    };
    const next = subscriptionPlanFields(input.facts, current, ctx.now);
    const unchanged =
      !next ||
      (next.plan === current.plan &&
        next.pendingPlan === current.pendingPlan &&
        next.planPeriodStart === current.planPeriodStart &&
        next.planPeriodEnd === current.planPeriodEnd &&
        // A stored "Plugin" that becomes Free stays as it is; a paid plan is always written as itself.
        (next.plan === "Free" || user.plan === next.plan));
    if (unchanged) return { result: success({ plan: user.plan, pendingPlan: user.pendingPlan }, true) };
    const plan = next.plan === "Free" && user.plan === "Plugin" ? "Plugin" : next.plan;
    const write = patchUser(state, {
      plan,
      pendingPlan: next.pendingPlan,
      periodStart: next.planPeriodStart,
      periodEnd: next.planPeriodEnd,
      // A paid subscription's plan is the customer's, no longer an admin's.
      planSetBy: null,
    });
    return {
      result: success({ plan, pendingPlan: next.pendingPlan }),
      writes: [write],
      wakeAt: next.planPeriodEnd,
      adminUsers: true,
    };
  });
}

export interface FollowMoneyInput {
  /** Positive lines of a paid invoice, or a paid pack: created once, by id. */
  paid?: PaidLineInput[];
  /** Money going back (a refund, a dispute, a proration credit), set to its current amount (0: it came back). */
  returned?: MoneyReturned[];
  /** A subscription ended: its lines grant no month that begins later. */
  ended?: { subscriptionId: string; at: number };
  /** Why credits are taken back, for the ledger row ("refund", "dispute", "switch to yearly"). */
  reason?: string;
  actorId?: string | null;
}

export interface MoneyOutcome {
  credits: Credits;
  granted: number;
  takenBack: number;
  /** Credits the money that went back paid for and that were already spent (the admin sees them). */
  owed: number;
}

/** The next time a line's month begins (the object wakes then to grant it), or null. */
export function nextLineMonth(state: LedgerState, now: number): number | null {
  let next: number | null = null;
  for (const line of state.lines.values())
    for (const m of line.months)
      if (m.start > now && (line.stopAt === null || m.start < line.stopAt) && (next === null || m.start < next))
        next = m.start;
  return next;
}

/**
 * Every line moved to what its money backs now: grants first (a switch's new line pays for the old one's
 * take-back), then take-backs as far as unspent. Used by `followMoney` and by the renewal alarm (months begin).
 */
export function settleLines(
  state: LedgerState,
  ctx: DecideContext,
  hash: string,
  reason: string,
  actorId: string | null,
): { writes: Write[]; granted: number; takenBack: number; owed: number } | { failed: Draft<never>["result"] } {
  const writes: Write[] = [];
  let granted = 0;
  let takenBack = 0;
  let owed = 0;
  const lines = [...state.lines.values()];
  const ordered = [
    ...lines.filter((l) => settleLine(l, ctx.now, Infinity).delta > 0),
    ...lines.filter((l) => settleLine(l, ctx.now, Infinity).delta < 0),
  ];
  for (const line of ordered) {
    const { delta, owed: lineOwed } = settleLine(line, ctx.now, creditsOf(state, ctx.now).available);
    owed += lineOwed;
    if (delta === 0) continue;
    const kind: LedgerKind =
      delta < 0 ? "payment_refund" : line.plan === null ? "pack" : line.moves === 0 ? "purchase" : "renewal";
    const description =
      delta > 0
        ? `${line.label} credits (${line.paymentId})`
        : `${reason}: ${-delta} credits taken back (${line.label}, ${line.paymentId})` +
          (lineOwed > 0 ? `, ${lineOwed} already spent` : "");
    const moved: PaidLine = { ...line, granted: line.granted + delta, moves: line.moves + 1 };
    const draft = applyDelta(state, ctx, {
      key: `line:${line.id}:${line.moves}`,
      hash,
      delta,
      kind,
      description,
      actorId,
      also: [{ type: "line", line: moved }],
    });
    if (!draft.result.ok) return { failed: draft.result };
    state.lines.set(line.id, moved);
    writes.push(...(draft.writes ?? []));
    if (delta > 0) granted += delta;
    else takenBack -= delta;
  }
  return { writes, granted, takenBack, owed };
}

/**
 * The one door for money: new paid lines, money going back, a subscription's end — then every line settled to what
 * its money backs. Nothing here mints a credit that no kept money pays for, and nothing takes back below zero: what
 * was spent stays owed on its line.
 */
export function followMoney(
  state: LedgerState,
  input: FollowMoneyInput,
  facts: Facts,
  ctx: DecideContext,
): Decision<MoneyOutcome> {
  return decide(state, ctx, (): Draft<MoneyOutcome> => {
    const changed: Write[] = [];
    const put = (line: PaidLine) => {
      state.lines.set(line.id, line);
      changed.push({ type: "line", line });
    };
    for (const paid of input.paid ?? []) if (!state.lines.has(paid.id)) put(newPaidLine(paid));
    for (const ret of input.returned ?? []) {
      for (const [lineId, cents] of spreadReturn([...state.lines.values()], ret)) {
        const line = state.lines.get(lineId)!;
        if ((line.returned[ret.id] ?? 0) === cents) continue;
        const returned = { ...line.returned };
        if (cents > 0) returned[ret.id] = cents;
        else delete returned[ret.id];
        put({ ...line, returned });
      }
    }
    const ended = input.ended;
    if (ended)
      for (const line of state.lines.values())
        if (line.subscriptionId === ended.subscriptionId && line.stopAt === null) put({ ...line, stopAt: ended.at });
    const settled = settleLines(state, ctx, facts.hash, input.reason ?? "Payment returned", input.actorId ?? null);
    if ("failed" in settled) return { result: settled.failed };
    // A line settled after it changed is written once more, as it stands at the end (the last write wins).
    const writes = [...changed, ...settled.writes];
    const credits = creditsOf(state, ctx.now);
    const { granted, takenBack, owed } = settled;
    return {
      result: success({ credits, granted, takenBack, owed }, writes.length === 0),
      writes,
      wakeAt: nextLineMonth(state, ctx.now),
      adminUsers: writes.length > 0,
    };
  });
}
