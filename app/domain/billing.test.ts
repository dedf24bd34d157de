import { describe, expect, it } from "vitest";
import { pendingUpgradeNotice, planChangeIntent, type PlanChangeIntent, type SubscriptionFacts } from "./billing";
import type { Billing, PlanId } from "./plans";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// A 30-day calendar month (April 2027).
const START = Date.UTC(2027, 3, 1);
const END = Date.UTC(2027, 4, 1);

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
  const scheduledDown = sub({ scheduled: { plan: "Basic", billing: "yearly" } });

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
      {
        kind: "downgradeAtPeriodEnd",
        plan: "Basic",
        interval: "monthly",
        paidPlan: "Advanced",
        paidUntil: END,
        schedule: false,
      },
    ],
    [
      "downgrade to another interval: a schedule changes the price at the period end",
      "Advanced",
      null,
      sub(),
      "Basic",
      "yearly",
      {
        kind: "downgradeAtPeriodEnd",
        plan: "Basic",
        interval: "yearly",
        paidPlan: "Advanced",
        paidUntil: END,
        schedule: true,
      },
    ],
    ["the same scheduled downgrade again", "Advanced", "Basic", scheduledDown, "Basic", "yearly", { kind: "none" }],
    [
      "a scheduled downgrade changed to the same interval",
      "Advanced",
      "Basic",
      scheduledDown,
      "Basic",
      "monthly",
      {
        kind: "downgradeAtPeriodEnd",
        plan: "Basic",
        interval: "monthly",
        paidPlan: "Advanced",
        paidUntil: END,
        schedule: false,
      },
    ],
    [
      "keep the plan after a scheduled downgrade",
      "Advanced",
      "Basic",
      scheduledDown,
      "Advanced",
      "monthly",
      { kind: "undoPending", plan: "Advanced", interval: "monthly" },
    ],
    [
      "cancel out of a scheduled downgrade",
      "Advanced",
      "Basic",
      scheduledDown,
      "Free",
      "monthly",
      { kind: "cancelAtPeriodEnd" },
    ],
    [
      "upgrade out of a scheduled downgrade to another interval",
      "Advanced",
      "Basic",
      scheduledDown,
      "Pro",
      "monthly",
      { kind: "upgradeNow", plan: "Pro", interval: "monthly" },
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
