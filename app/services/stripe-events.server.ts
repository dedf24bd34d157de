/**
 * What every Stripe event handler shares: the context, the two ways an event can fail (retry later, or not ours),
 * and who a Stripe customer is.
 */
import type { LedgerResult } from "~/domain/ledger";
import { userIdOfCustomer } from "~/db/billing.server";
import type { Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { idOf, type BillingStripe, type Stripe } from "./stripe.server";

/** The ledger could not take the change now: answer 503 so that Stripe delivers the event again. */
export class RetryLater extends Error {}
/**
 * The event names something that is not ours or that we cannot act on (a customer with no ClipCut user, an object
 * this account does not have, a price we do not sell): retrying cannot help, so it is recorded for an admin and
 * answered 200.
 */
export class NotOurs extends Error {}

export interface Ctx {
  env: AppEnv;
  db: Db;
  client: BillingStripe;
  /** Our site's origin (the webhook is posted to it), for links in e-mails. */
  origin: string;
}

export function must<T>(result: LedgerResult<T>): T {
  if (result.ok) return result.value;
  if (result.reason === "user_not_found") throw new NotOurs(`No ClipCut user for this payment: ${result.message}`);
  throw new RetryLater(result.message);
}

export async function userOf(ctx: Ctx, customer: string | { id: string } | null, metadata?: Stripe.Metadata | null) {
  const customerId = idOf(customer);
  const userId = (customerId ? await userIdOfCustomer(ctx.db, customerId) : null) ?? metadata?.user_id ?? null;
  if (!userId) throw new NotOurs(`Stripe customer ${customerId ?? "(none)"} is no ClipCut user's.`);
  return userId;
}

export const invoicePaymentIntent = (invoice: Stripe.Invoice) =>
  idOf(invoice.payments?.data.find((p) => p.status === "paid")?.payment.payment_intent ?? null);
