import type { SubscriptionFacts } from "~/domain/billing";
import type { PaidPlanId, PlanId } from "~/domain/plans";
import type { AppEnv } from "~/load-context";
import { ledgerCall, ledgerFor } from "./ledger.server";

/**
 * The payment webhook's only door to the ledger: each call is one operation of the user's UserLedger, mapped to
 * "busy" when the object cannot be reached (the webhook then answers 503 and Stripe delivers again).
 */
export const billingLedger = (env: AppEnv, userId: string) => {
  const object = () => ledgerFor(env, userId);
  return {
    applySubscription: (facts: SubscriptionFacts) => ledgerCall(() => object().applySubscription({ userId, facts })),
    grantPurchase: (input: {
      invoiceId: string;
      billingReason: string | null;
      plan: PaidPlanId;
      previousPlan: PlanId | null;
      periodStart: number;
    }) => ledgerCall(() => object().grantPurchase({ userId, ...input })),
    grantPack: (input: { paymentIntentId: string; credits: number; name: string }) =>
      ledgerCall(() => object().grantPack({ userId, ...input })),
    takeBackRefund: (input: {
      refundId: string;
      refundCents: number;
      paymentCents: number;
      grantedCredits: number;
      reason: string;
      actorId?: string | null;
    }) => ledgerCall(() => object().takeBackRefund({ userId, ...input })),
  };
};
