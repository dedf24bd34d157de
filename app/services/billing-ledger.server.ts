import type { AppEnv } from "~/load-context";
import { ledger } from "./ledger.server";

/**
 * The payment webhook's door to the ledger: each call is one operation of the user's UserLedger (the one client,
 * which maps an unreachable object to "busy"; the webhook then answers 503 and Stripe delivers again).
 */
export const billingLedger = (env: AppEnv, userId: string) => {
  const client = ledger(env, userId);
  return {
    applySubscription: (facts: Parameters<typeof client.applySubscription>[0]["facts"]) =>
      client.applySubscription({ facts }),
    grantPurchase: client.grantPurchase,
    grantPack: client.grantPack,
    takeBackRefund: client.takeBackRefund,
  };
};
