import { describe, expect, it } from "vitest";
import {
  invoiceGrant,
  pendingUpgradeNotice,
  planChangeIntent,
  unspentRefund,
  upgradeCredits,
  type InvoiceLine,
  type PlanChangeIntent,
  type SubscriptionFacts,
} from "./billing";
import type { Billing, PaidPlanId, PlanId } from "./plans";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// A 30-day calendar month (April 2027), so an hour is exactly 1/720 of it.
const START = Date.UTC(2027, 3, 1);
const END = Date.UTC(2027, 4, 1);

/** Stripe's upgrade invoice at `at`: unused time on the old price credited, remaining time on the new one charged. */
function upgradeLines(
  from: PaidPlanId,
  to: PaidPlanId,
  at: number,
  cents: { from: number; to: number },
): InvoiceLine[] {
  const unused = (END - at) / (END - START);
  return [
    { amount: -Math.round(cents.from * unused), proration: true, plan: from, billing: "monthly", start: at, end: END },
    { amount: Math.round(cents.to * unused), proration: true, plan: to, billing: "monthly", start: at, end: END },
  ];
}

describe("upgrade credits follow what the invoice charged", () => {
  it("an upgrade one hour before renewal grants about 1/720 of the monthly difference, not all of it", () => {
    const lines = upgradeLines("Basic", "Pro", END - HOUR, { from: 1500, to: 6900 });
    expect(lines[1]!.amount + lines[0]!.amount).toBe(8); // what Stripe charged: $0.08
    expect(upgradeCredits(lines)).toBe(Math.round(9500 / 720));
    expect(invoiceGrant({ invoiceId: "in_late", billingReason: "subscription_update", lines })?.delta).toBe(13);
  });

  it("an upgrade halfway through the month grants about half of the difference", () => {
    const lines = upgradeLines("Basic", "Pro", START + 15 * DAY, { from: 1500, to: 6900 });
    expect(upgradeCredits(lines)).toBe(4750);
  });

  it("an upgrade right at the start of the month grants the whole difference", () => {
    expect(upgradeCredits(upgradeLines("Basic", "Advanced", START, { from: 1500, to: 2900 }))).toBe(1500);
  });

  it("within a paid year only the current credit month's share is granted (later months come monthly)", () => {
    const yearEnd = Date.UTC(2028, 0, 1);
    const at = yearEnd - 30 * DAY - 10 * DAY; // 10 days before the end of the year's second-to-last credit month
    const lines: InvoiceLine[] = [
      { amount: -4000, proration: true, plan: "Basic", billing: "yearly", start: at, end: yearEnd },
      { amount: 20000, proration: true, plan: "Pro", billing: "yearly", start: at, end: yearEnd },
    ];
    expect(upgradeCredits(lines)).toBe(Math.round((9500 * 10) / 30));
  });

  it("a switch from monthly to a yearly higher plan grants the new month less the unused part of the old one", () => {
    const at = START + 20 * DAY;
    const newEnd = Date.UTC(2028, 3, 21);
    const lines: InvoiceLine[] = [
      { amount: -500, proration: true, plan: "Basic", billing: "monthly", start: at, end: END },
      { amount: 55200, proration: false, plan: "Pro", billing: "yearly", start: at, end: newEnd },
    ];
    const granted = upgradeCredits(lines);
    expect(granted).toBeGreaterThan(10000 - 500 * (10 / 30) - 1);
    expect(granted).toBeLessThan(10000);
  });

  it("a line that charged nothing grants nothing; lines of prices we do not sell are ignored", () => {
    const lines = upgradeLines("Basic", "Pro", START + 15 * DAY, { from: 0, to: 0 });
    expect(upgradeCredits(lines)).toBe(0);
    expect(invoiceGrant({ invoiceId: "in_free", billingReason: "subscription_update", lines })).toBeNull();
    const foreign: InvoiceLine[] = [
      { amount: 900, proration: true, plan: null, billing: null, start: START, end: END },
    ];
    expect(upgradeCredits(foreign)).toBe(0);
  });

  it("first and renewal invoices grant the month of the plan their own line bills", () => {
    const line: InvoiceLine = {
      amount: 6900,
      proration: false,
      plan: "Pro",
      billing: "monthly",
      start: START,
      end: END,
    };
    expect(invoiceGrant({ invoiceId: "in_1", billingReason: "subscription_create", lines: [line] })).toMatchObject({
      key: "stripe:invoice:in_1",
      delta: 10000,
    });
    expect(invoiceGrant({ invoiceId: "in_2", billingReason: "subscription_cycle", lines: [line] })).toMatchObject({
      key: `renewal:${START}`,
      delta: 10000,
      kind: "renewal",
    });
    expect(invoiceGrant({ invoiceId: "in_3", billingReason: "manual", lines: [line] })).toBeNull();
  });
});

describe("the plan-change rule", () => {
  const NOW = START + 10 * DAY;
  const sub = (over: Partial<SubscriptionFacts> = {}): SubscriptionFacts => ({
    status: "active",
    plan: "Advanced",
    billing: "monthly",
    periodStart: START,
    periodEnd: END,
    cancelAtPeriodEnd: false,
    paidPlan: null,
    paidUntil: null,
    ...over,
  });
  const downgraded = sub({ plan: "Basic", paidPlan: "Advanced", paidUntil: END });
  const cancelling = sub({ cancelAtPeriodEnd: true });

  const rows: [string, PlanId, PlanId | null, SubscriptionFacts | null, PlanId, Billing, PlanChangeIntent][] = [
    [
      "Free buys Basic",
      "Free",
      null,
      null,
      "Basic",
      "monthly",
      { kind: "checkout", plan: "Basic", interval: "monthly" },
    ],
    ["Free picks Free", "Free", null, null, "Free", "monthly", { kind: "none" }],
    ["an admin-given Pro moves down", "Pro", null, null, "Basic", "monthly", { kind: "ledgerOnly", plan: "Basic" }],
    ["an admin-given Pro keeps Pro", "Pro", "Basic", null, "Pro", "monthly", { kind: "ledgerOnly", plan: "Pro" }],
    [
      "an admin-given Basic buys Pro",
      "Basic",
      null,
      null,
      "Pro",
      "yearly",
      { kind: "checkout", plan: "Pro", interval: "yearly" },
    ],
    [
      "a subscription that ended buys again",
      "Basic",
      null,
      sub({ status: "canceled" }),
      "Pro",
      "monthly",
      { kind: "checkout", plan: "Pro", interval: "monthly" },
    ],
    ["upgrade", "Advanced", null, sub(), "Pro", "monthly", { kind: "upgradeNow", plan: "Pro", interval: "monthly" }],
    [
      "upgrade while past due",
      "Advanced",
      null,
      sub({ status: "past_due" }),
      "Pro",
      "yearly",
      { kind: "upgradeNow", plan: "Pro", interval: "yearly" },
    ],
    [
      "downgrade",
      "Advanced",
      null,
      sub(),
      "Basic",
      "monthly",
      { kind: "downgradeAtPeriodEnd", plan: "Basic", interval: "monthly", paidPlan: "Advanced", paidUntil: END },
    ],
    ["the same downgrade again", "Advanced", "Basic", downgraded, "Basic", "monthly", { kind: "none" }],
    ["cancel", "Advanced", null, sub(), "Free", "monthly", { kind: "cancelAtPeriodEnd" }],
    ["cancel again", "Advanced", "Free", cancelling, "Free", "monthly", { kind: "none" }],
    [
      "keep the plan after a downgrade",
      "Advanced",
      "Basic",
      downgraded,
      "Advanced",
      "monthly",
      { kind: "undoPending", plan: "Advanced", interval: "monthly" },
    ],
    [
      "keep the plan after a cancel",
      "Advanced",
      "Free",
      cancelling,
      "Advanced",
      "monthly",
      { kind: "undoPending", plan: "Advanced", interval: "monthly" },
    ],
    ["nothing to change", "Advanced", null, sub(), "Advanced", "monthly", { kind: "none" }],
    [
      "switch to yearly",
      "Advanced",
      null,
      sub(),
      "Advanced",
      "yearly",
      { kind: "switchInterval", plan: "Advanced", interval: "yearly" },
    ],
    [
      "upgrade out of a scheduled downgrade",
      "Advanced",
      "Basic",
      downgraded,
      "Pro",
      "monthly",
      { kind: "upgradeNow", plan: "Pro", interval: "monthly" },
    ],
    [
      "a cancelled subscription past its end",
      "Advanced",
      "Free",
      sub({ cancelAtPeriodEnd: true, periodEnd: NOW - 1 }),
      "Pro",
      "monthly",
      { kind: "checkout", plan: "Pro", interval: "monthly" },
    ],
  ];

  it.each(rows)("%s", (_name, current, pending, subscription, target, interval, expected) => {
    expect(planChangeIntent({ current, pending, subscription, target, interval, now: NOW })).toEqual(expected);
  });
});

describe("the money-back refund returns only unspent value", () => {
  it("a $10 pack of 500 credits with 300 left refunds $6.00, and says 200 were spent", () => {
    expect(unspentRefund({ amountCents: 1000, refundedCents: 0, grantedCredits: 500, available: 300 })).toEqual({
      cents: 600,
      unspentCredits: 300,
      spentCredits: 200,
    });
  });

  it("unspent credits refund in full; all spent refunds nothing; a payment without credits refunds whole", () => {
    expect(unspentRefund({ amountCents: 1500, refundedCents: 0, grantedCredits: 500, available: 900 }).cents).toBe(
      1500,
    );
    expect(unspentRefund({ amountCents: 1500, refundedCents: 0, grantedCredits: 500, available: 0 }).cents).toBe(0);
    expect(unspentRefund({ amountCents: 8, refundedCents: 0, grantedCredits: 0, available: 0 }).cents).toBe(8);
  });

  it("after a partial refund only the rest of the payment's credits count", () => {
    expect(unspentRefund({ amountCents: 1000, refundedCents: 600, grantedCredits: 500, available: 1000 })).toEqual({
      cents: 400,
      unspentCredits: 200,
      spentCredits: 0,
    });
  });
});

describe("a pending upgrade is told as what happened and what to do", () => {
  const pending = { plan: "Pro" as const, amountCents: 5400, invoiceUrl: "https://invoice", expiresAt: 0 };
  it.each([
    ["authentication", "is waiting for your bank", "confirm the payment of $54.00 (3-D Secure)", "Confirm the payment"],
    ["declined", "did not go through", "Your card was declined, so you stay on Basic", "Pay the upgrade invoice"],
  ] as const)(
    "%s: says the plan in force stays, nothing was charged, and the deadline",
    (reason, title, detail, action) => {
      const notice = pendingUpgradeNotice({ ...pending, reason }, "Basic", "Nov 27");
      expect(notice.title).toContain(`Your upgrade to Pro ${title}`);
      expect(notice.detail).toContain(detail);
      expect(notice.detail).toMatch(/stay on Basic/);
      expect(notice.detail).toContain("nothing");
      expect(notice.detail).toContain("Nov 27");
      expect(notice.action).toBe(action);
    },
  );
});
