/**
 * Local only: the lines of a subscription's invoices — a whole period's price, and the prorations of a price change
 * under billing mode flexible (a credit gives back the unused share of what the paid line covering that time was
 * paid, and names it in `credited_items`) or classic (the current price's share).
 */
import type Stripe from "stripe";
import { allLines, type Line } from "./stripe-invoices";
import { idOf, priceById, type StandInStore } from "./stripe-store";

/** The line for a whole period of `price` from `start` (a new period, not a proration). */
export const wholePeriod = (
  itemId: string,
  price: Stripe.Price,
  start: number,
  item: { current_period_end: number },
) => ({
  amount: price.unit_amount ?? 0,
  description: `1 × ${String(price.lookup_key)}`,
  price,
  period: { start, end: item.current_period_end },
  proration: false,
  subscriptionItem: itemId,
});

/**
 * The paid line that pays for the item's time at `t`: the latest positive line of a paid invoice of the
 * subscription for this item whose period runs to the item's period end (a flexible credit gives back from it).
 */
function paidDebit(store: StandInStore, sub: Stripe.Subscription, item: Stripe.SubscriptionItem, t: number) {
  let found: Stripe.InvoiceLineItem | null = null;
  for (const invoice of store.ofType<Stripe.Invoice>("invoice")) {
    if (invoice.status !== "paid" || idOf(invoice.parent?.subscription_details?.subscription) !== sub.id) continue;
    for (const line of allLines(store, invoice)) {
      const details = line.parent?.subscription_item_details;
      if (line.amount > 0 && details?.subscription_item === item.id && line.period.end === item.current_period_end)
        if (line.period.start <= t) found = line;
    }
  }
  return found;
}

/**
 * The lines of a price change at `t`. The credit for the unused time: under flexible billing, that share of what the
 * paid line covering it was paid, naming that line (`credited_items`); under classic billing, the current price's
 * share. The charge: the remaining time on the new price, or, when the interval changes, the whole new period from
 * `t` (not a proration: the cycle restarts).
 */
export function prorationLines(
  store: StandInStore,
  sub: Stripe.Subscription,
  newItem: Stripe.SubscriptionItem,
  t: number,
  intervalChanged: boolean,
  credit: boolean,
): Line[] {
  const item = sub.items.data[0]!;
  const { current_period_start: start, current_period_end: end } = item;
  const when = new Date(t * 1000).toISOString().slice(0, 10);
  const lines: Line[] = [];
  const debit = sub.billing_mode.type === "flexible" ? paidDebit(store, sub, item, t) : null;
  if (credit && end > t) {
    const debitPrice = debit ? priceById(idOf(debit.pricing?.price_details?.price) ?? "") : null;
    const price = debitPrice ?? item.price;
    const share = debit
      ? (debit.amount * (end - t)) / (end - debit.period.start)
      : ((item.price.unit_amount ?? 0) * (end - t)) / (end - start);
    lines.push({
      amount: -Math.round(share),
      description: `Unused time on ${String(price.lookup_key)} after ${when}`,
      price,
      period: { start: t, end },
      proration: true,
      subscriptionItem: item.id,
      creditedItems: debit ? { invoice: String(debit.invoice), invoice_line_items: [debit.id] } : null,
    });
  }
  const price = newItem.price;
  lines.push(
    intervalChanged
      ? wholePeriod(item.id, price, t, newItem)
      : {
          amount: Math.round(((price.unit_amount ?? 0) * (end - t)) / (end - start)),
          description: `Remaining time on ${String(price.lookup_key)} after ${when}`,
          price,
          period: { start: t, end },
          proration: true,
          subscriptionItem: item.id,
        },
  );
  return lines;
}
