/**
 * Payment operations (Stripe webhooks, docs/decisions/011-payments.md): a subscription's plan fields, an invoice's
 * or a pack's credits, a refund's take-back. The payment rules themselves are the pure functions of
 * `app/domain/billing.ts`; these turn them into ledger decisions, each idempotent on the Stripe object.
 */
import type { Credits } from "../api";
import {
  invoiceGrant,
  packGrant,
  type InvoiceLine,
  refundTakeBack,
  subscriptionPlanFields,
  type PlanFields,
  type SubscriptionFacts,
} from "../billing";
import { effectivePlan, type PlanId } from "../plans";
import { applyDelta, creditsOf, decide, fail, patchUser, success, type Draft } from "./core";
import type { DecideContext, Decision, Facts, LedgerState } from "./types";

export interface PlanView {
  plan: string;
  pendingPlan: PlanId | null;
}

/**
 * A subscription as Stripe has it now (re-read by the webhook): plan, pending plan and credit month follow it.
 * No credits move here (invoices grant them). Applying the same subscription twice changes nothing.
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

export interface PurchaseInput {
  invoiceId: string;
  billingReason: string | null;
  /** The invoice's own lines: what it charged, for which price and period (invoiceGrant reads only these). */
  lines: InvoiceLine[];
}

/**
 * The idempotency fingerprint of an invoice's grant. A renewal invoice is keyed like the renewal alarm's own grant
 * (`renewal:<period start>`) and fingerprinted the same way, so whichever arrives second is a replay.
 */
export function purchaseFingerprint(input: PurchaseInput): unknown {
  return invoiceGrant(input)?.kind === "renewal" ? "renewal" : ["purchase", { invoiceId: input.invoiceId }];
}

/** A paid subscription invoice's credits, at most once (see invoiceGrant for the keys). */
export function grantPurchase(
  state: LedgerState,
  input: PurchaseInput,
  facts: Facts,
  ctx: DecideContext,
): Decision<{ credits: Credits; granted: number }> {
  return decide(state, ctx, (): Draft<{ credits: Credits; granted: number }> => {
    const grant = invoiceGrant(input);
    if (!grant) return { result: success({ credits: creditsOf(state, ctx.now), granted: 0 }, true) };
    const draft = applyDelta(state, ctx, { ...grant, hash: facts.hash });
    const r = draft.result;
    return {
      ...draft,
      result: r.ok ? success({ credits: r.value.credits, granted: r.replayed ? 0 : grant.delta }, r.replayed) : r,
    };
  });
}

/** A paid credit pack, at most once per payment (key `stripe:pack:<payment intent>`). */
export function grantPack(
  state: LedgerState,
  input: { paymentIntentId: string; credits: number; name: string },
  facts: Facts,
  ctx: DecideContext,
): Decision<{ credits: Credits }> {
  return decide(state, ctx, () => {
    if (!Number.isInteger(input.credits) || input.credits <= 0)
      return { result: fail(422, "invalid_input", "A credit pack grants a positive whole number of credits.") };
    return applyDelta(state, ctx, { ...packGrant(input), hash: facts.hash });
  });
}

export interface RefundInput {
  refundId: string;
  refundCents: number;
  paymentCents: number;
  grantedCredits: number;
  reason: string;
  actorId?: string | null;
}

/**
 * A refund takes back the refunded share of the credits its payment granted, only as far as they are unspent
 * (never below zero), as one ledger row with the reason — once per refund (key `stripe:refund:<id>`).
 */
export function takeBackRefund(
  state: LedgerState,
  input: RefundInput,
  facts: Facts,
  ctx: DecideContext,
): Decision<{ credits: Credits; takenBack: number }> {
  return decide(state, ctx, (): Draft<{ credits: Credits; takenBack: number }> => {
    const decision = refundTakeBack({ ...input, available: creditsOf(state, ctx.now).available });
    const draft = applyDelta(state, ctx, {
      key: decision.key,
      hash: facts.hash,
      delta: decision.delta,
      kind: "payment_refund",
      description: decision.description,
      actorId: input.actorId,
    });
    const r = draft.result;
    return {
      ...draft,
      result: r.ok ? success({ credits: r.value.credits, takenBack: r.replayed ? 0 : -decision.delta }, r.replayed) : r,
    };
  });
}
