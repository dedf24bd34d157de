import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { addIntervals } from "../../workers/local/stripe-objects";
import { invoiceLine, openInvoice } from "../../workers/local/stripe-objects";
import { standIn } from "./stand-in";
import { advance, stripe, subscriber, switchTo } from "./stand-in-sdk";

// The stand-in as Stripe at API 2026-10-28: subscriptions made by Checkout are billing mode `flexible`, whose credit
// prorations give back what was paid for the unused time and name the paid lines they credit.

const details = (line: Stripe.InvoiceLineItem) => line.parent?.subscription_item_details;
const linesOf = async (invoice: Stripe.Invoice) =>
  stripe.invoices.listLineItems(invoice.id, { limit: 100 }).autoPagingToArray({ limit: 1000 });

describe("subscriptions made by Checkout", () => {
  it("are billing mode flexible, on the customer's test clock, with livemode false everywhere", async () => {
    const { customer, subscription, session, clock } = await subscriber("flexible@example.com", "basic_monthly");
    expect(subscription.billing_mode).toMatchObject({ type: "flexible" });
    expect(customer.test_clock).toMatch(/^clock_/);
    expect(subscription.test_clock).toBe(clock);
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(invoice).toMatchObject({ test_clock: clock, status: "paid", livemode: false });
    // Times come from the clock, not the machine: it is frozen where it was made.
    const { frozen_time } = await stripe.testHelpers.testClocks.retrieve(clock);
    expect(subscription.created).toBe(frozen_time);
    expect(subscription.items.data[0]?.current_period_end).toBe(addIntervals(frozen_time, "monthly", 1));
    for (const obj of [customer, subscription, session, invoice, ...invoice.lines.data])
      expect(obj.livemode).toBe(false);
    const events = await stripe.events.list({ limit: 100 });
    expect(events.data.length).toBeGreaterThan(3);
    for (const event of events.data) {
      expect(event.livemode).toBe(false);
      const object = event.data.object as { livemode?: boolean };
      if ("livemode" in object) expect(object.livemode).toBe(false);
    }
  });

  it("an upgrade's credit gives back the paid line's unused share and names it", async () => {
    const { subscription, clock } = await subscriber("credit@example.com", "basic_monthly");
    const first = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    const [paid] = first.lines.data;
    const { current_period_start: start, current_period_end: end } = subscription.items.data[0]!;
    const mid = await advance(clock, Math.floor((end - start) / 2));
    const { subscription: pro, invoice } = await switchTo(subscription, "pro_monthly", "always_invoice");
    expect(pro.items.data[0]?.price.lookup_key).toBe("pro_monthly");
    expect(invoice.status).toBe("paid");
    const [credit, charge] = await linesOf(invoice);
    expect(credit).toMatchObject({
      amount: -Math.round((1500 * (end - mid)) / (end - start)),
      period: { start: mid, end },
    });
    expect(details(credit!)).toMatchObject({
      proration: true,
      proration_details: { credited_items: { invoice: first.id, invoice_line_items: [paid!.id] } },
    });
    expect(credit!.id).toMatch(/^il_/);
    expect(charge).toMatchObject({
      amount: Math.round((6900 * (end - mid)) / (end - start)),
      period: { start: mid, end },
    });
    expect(details(charge!)).toMatchObject({ proration: true, proration_details: { credited_items: null } });
  });

  it("a credit follows what was paid, not the price now: a downgrade without proration and back nets zero", async () => {
    const { subscription, clock } = await subscriber("paid-not-price@example.com", "pro_monthly");
    const first = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    const { current_period_start: start, current_period_end: end } = subscription.items.data[0]!;
    await advance(clock, Math.floor((end - start) / 4));
    const down = await switchTo(subscription, "basic_monthly", "none");
    expect(down.subscription.items.data[0]?.price.lookup_key).toBe("basic_monthly");
    expect(down.invoice.id).toBe(first.id);
    const half = await advance(clock, Math.floor((end - start) / 4));
    const { invoice } = await switchTo(down.subscription, "pro_monthly", "always_invoice");
    const [credit, charge] = await linesOf(invoice);
    // The time left was paid at Pro's price (the first invoice): that is what comes back, not Basic's price.
    expect(credit).toMatchObject({ amount: -Math.round((6900 * (end - half)) / (end - start)) });
    expect(details(credit!)?.proration_details?.credited_items).toEqual({
      invoice: first.id,
      invoice_line_items: [first.lines.data[0]!.id],
    });
    expect(Math.abs(credit!.amount + charge!.amount)).toBeLessThanOrEqual(1);
    expect(invoice.amount_due).toBeLessThanOrEqual(1);
  });

  it("interval switches restart the cycle and invoice at once; a round trip is paid by the credit it leaves", async () => {
    const { customer, subscription, clock } = await subscriber("round-trip@example.com", "basic_monthly");
    const { current_period_start: start, current_period_end: end } = subscription.items.data[0]!;
    const mid = await advance(clock, Math.floor((end - start) / 2));
    const up = await switchTo(subscription, "pro_monthly", "always_invoice");
    const proLine = (await linesOf(up.invoice))[1]!;
    const t = await advance(clock, Math.floor((end - mid) / 2));

    const yearly = await switchTo(up.subscription, "pro_yearly", "always_invoice");
    const yearItem = yearly.subscription.items.data[0]!;
    expect(yearly.subscription.billing_cycle_anchor).toBe(t);
    expect(yearItem).toMatchObject({ current_period_start: t, current_period_end: addIntervals(t, "yearly", 1) });
    expect(yearly.invoice).toMatchObject({ billing_reason: "subscription_update", status: "paid" });
    const [credit, year] = await linesOf(yearly.invoice);
    expect(credit).toMatchObject({ amount: -Math.round((proLine.amount * (end - t)) / (end - mid)) });
    expect(details(credit!)?.proration_details?.credited_items).toEqual({
      invoice: up.invoice.id,
      invoice_line_items: [proLine.id],
    });
    // The new period's line is the price of the period, not a proration.
    expect(year).toMatchObject({ amount: 55200, period: { start: t, end: yearItem.current_period_end } });
    expect(details(year!)).toMatchObject({ proration: false, proration_details: { credited_items: null } });

    // Back to monthly at once: the whole year is credited; the credit left over stays on the customer's balance.
    const back = await switchTo(yearly.subscription, "pro_monthly", "always_invoice");
    const [yearCredit, month] = await linesOf(back.invoice);
    expect(yearCredit).toMatchObject({ amount: -55200 });
    expect(details(yearCredit!)?.proration_details?.credited_items).toEqual({
      invoice: yearly.invoice.id,
      invoice_line_items: [year!.id],
    });
    expect(month).toMatchObject({ amount: 6900, period: { start: t, end: addIntervals(t, "monthly", 1) } });
    expect(back.invoice).toMatchObject({ total: -48300, amount_due: 0, status: "paid", ending_balance: -48300 });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ balance: -48300 });

    // And yearly again: that credit pays the switch, so the round trip costs nothing.
    const again = await switchTo(back.subscription, "pro_yearly", "always_invoice");
    expect(again.invoice).toMatchObject({ total: 48300, starting_balance: -48300, amount_due: 0, status: "paid" });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ balance: 0 });
  });
});

describe("invoice lines", () => {
  it("an invoice embeds ten lines; the rest are paged at /v1/invoices/:id/lines", async () => {
    const lines = Array.from({ length: 12 }, (_, i) =>
      invoiceLine({
        id: `il_paged_${String(i).padStart(2, "0")}`,
        invoice: "in_paged",
        subscription: "sub_paged",
        subscriptionItem: "si_paged",
        amount: 100 + i,
        description: `line ${i}`,
        price: "price_basic_monthly",
        product: "prod_basic",
        period: { start: 1_795_000_000, end: 1_797_678_400 },
        proration: true,
        invoiceItem: `ii_paged_${i}`,
      }),
    );
    const invoice = openInvoice({
      id: "in_paged",
      number: "PAGED-1",
      customer: "cus_paged",
      created: 1_795_000_000,
      billingReason: "subscription_update",
      subscription: "sub_paged",
      subscriptionMetadata: {},
      lines,
    });
    expect(invoice.lines).toMatchObject({ has_more: true });
    expect(invoice.lines.data).toHaveLength(10);
    // Seeded with every line in `lines.data`: the stand-in keeps ten embedded and pages them all.
    await standIn().put(JSON.stringify([{ ...invoice, lines: { ...invoice.lines, data: lines } }]));
    const read = await stripe.invoices.retrieve("in_paged");
    expect(read.lines).toMatchObject({ has_more: true, url: "/v1/invoices/in_paged/lines" });
    expect(read.lines.data.map((l) => l.id)).toEqual(lines.slice(0, 10).map((l) => l.id));
    const page = await stripe.invoices.listLineItems("in_paged", { limit: 5, starting_after: lines[4]!.id });
    expect(page.data.map((l) => l.id)).toEqual(lines.slice(5, 10).map((l) => l.id));
    expect(page.has_more).toBe(true);
    const all = await stripe.invoices.listLineItems("in_paged", { limit: 5 }).autoPagingToArray({ limit: 100 });
    expect(all.map((l) => l.id)).toEqual(lines.map((l) => l.id));
    await expect(stripe.invoices.listLineItems("in_nothing")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("a finalized invoice keeps its hosted page and PDF once paid", async () => {
    const { subscription } = await subscriber("hosted@example.com", "basic_yearly");
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(invoice.status).toBe("paid");
    expect(invoice.hosted_invoice_url).toMatch(new RegExp(`/dev/stripe/invoice/${invoice.id}$`));
    expect(invoice.invoice_pdf).toMatch(new RegExp(`/dev/stripe/invoice/${invoice.id}/pdf$`));
  });
});
