/**
 * The credit rule as a table of stories: each row pays, refunds, disputes, switches and lets time pass through the
 * ledger's own decisions (`followMoney`, and `renew` as the alarm runs it), then checks the balance. Every credit in
 * the balance must be backed by money Stripe kept; nothing may go below zero.
 */
import { describe, expect, it } from "vitest";
import { moneyBack, type MoneyReturned, type PaidLineInput } from "../billing";
import { monthlyCredits, PLAN_PERIOD_MS, type Billing, type PaidPlanId } from "../plans";
import { LEDGER_OPS, type FollowMoneyInput, type LedgerState } from "./index";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2027, 0, 10);
const PRO = monthlyCredits("Pro");
const BASIC = monthlyCredits("Basic");
const PRICE = { Basic: { monthly: 1500, yearly: 12000 }, Pro: { monthly: 6900, yearly: 55200 } } as const;

function periodEnd(start: number, billing: Billing): number {
  const d = new Date(start);
  if (billing === "yearly") d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d.getTime();
}

/** A creator's ledger, with the clock the story moves. */
class Story {
  now = T0;
  state: LedgerState = {
    user: {
      id: "u1",
      plan: "Free",
      pendingPlan: null,
      periodStart: null,
      periodEnd: null,
      credits: 0,
      banned: false,
      planSetBy: null,
    },
    holds: new Map(),
    keys: new Map(),
    lastClipAt: 0,
    clipCount: 0,
    members: [],
    payer: null,
    payerHolds: new Map(),
    ownsTeam: false,
    lines: new Map(),
  };
  private ids = 0;

  get balance() {
    return this.state.user.credits;
  }

  money(input: FollowMoneyInput) {
    const d = LEDGER_OPS.followMoney.decide(this.state, input, { hash: "money" }, this.ctx());
    if (!d.result.ok) throw new Error(d.result.message);
    return d;
  }

  /** A paid line of a plan's price for [start, end]. */
  line(plan: PaidPlanId, billing: Billing, invoice: string, start = this.now, end = periodEnd(start, billing)) {
    const cents = Math.round(
      (PRICE[plan as "Basic" | "Pro"][billing] * (end - start)) / (periodEnd(start, billing) - start),
    );
    const input: PaidLineInput = {
      id: `il_${++this.ids}`,
      paymentId: invoice,
      subscriptionId: "sub_1",
      chargedCents: cents,
      start,
      end,
      item: { plan, billing },
    };
    return input;
  }

  /** Stripe's credit for the unused time of `line` from now (what it actually charged for that time). */
  unused(line: PaidLineInput): MoneyReturned {
    const share = Math.max(0, line.end - this.now) / (line.end - line.start);
    return { id: `il_${++this.ids}`, cents: Math.round(line.chargedCents * share), from: { lines: [line.id] } };
  }

  /** Clips made: credits spent. */
  spend(credits: number) {
    this.state.user = { ...this.state.user, credits: this.state.user.credits - credits };
  }

  /** Time passes; the alarm runs at each line month on the way. */
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      const next = [...this.state.lines.values()]
        .flatMap((l) => l.months.map((m) => m.start))
        .filter((t) => t > this.now && t <= until)
        .sort((a, b) => a - b)[0];
      this.now = next ?? until;
      const d = LEDGER_OPS.renew.decide(this.state, {}, { hash: "renewal", subscriptionPaidUntil: until }, this.ctx());
      if (!d.result.ok) throw new Error(d.result.message);
      if (next === undefined) break;
    }
  }

  private ctx() {
    return { now: this.now, newId: () => `row-${++this.ids}` };
  }
}

describe("every credit is backed by money Stripe kept", () => {
  it("a monthly plan grants its month when paid, and the next month only when the next invoice is paid", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "monthly", "in_1")] });
    expect(s.balance).toBe(PRO);
    s.advance(40 * DAY);
    expect(s.balance).toBe(PRO); // no invoice paid for the second month: nothing granted
    s.money({ paid: [s.line("Pro", "monthly", "in_2")] });
    expect(s.balance).toBe(2 * PRO);
  });

  it("a yearly plan grants 12 months from its one invoice, one as each begins, and never a 13th", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "yearly", "in_y")] });
    expect(s.balance).toBe(PRO);
    s.advance(40 * DAY); // past the first (longer) credit month
    expect(s.balance).toBe(2 * PRO);
    s.advance(400 * DAY);
    expect(s.balance).toBe(12 * PRO);
    const line = [...s.state.lines.values()][0]!;
    expect(line.months).toHaveLength(12);
    expect(line.granted).toBe(12 * PRO);
  });

  it("the same payment delivered twice (or with its refunds re-read) grants once", () => {
    const s = new Story();
    const paid = s.line("Pro", "monthly", "in_1");
    s.money({ paid: [paid] });
    const again = s.money({ paid: [paid] });
    expect(again.writes).toHaveLength(0);
    expect(again.result.ok && again.result.replayed).toBe(true);
    const refund: MoneyReturned = { id: "re_1", cents: 3450, from: { payment: "in_1" } };
    s.money({ returned: [refund] });
    s.money({ returned: [refund] });
    expect(s.balance).toBe(PRO / 2);
  });

  it("an upgrade halfway through a month grants half of the difference (Basic → Pro)", () => {
    const s = new Story();
    const basic = s.line("Basic", "monthly", "in_1");
    s.money({ paid: [basic] });
    s.advance(basic.end - s.now - (basic.end - basic.start) / 2);
    const pro = s.line("Pro", "monthly", "in_2", s.now, basic.end);
    s.money({ paid: [pro], returned: [s.unused(basic)] });
    expect(s.balance).toBe(BASIC + Math.round((PRO - BASIC) / 2));
  });

  it("an upgrade within a paid year moves every later month to the new plan and none stays at the old one", () => {
    const s = new Story();
    const basic = s.line("Basic", "yearly", "in_1");
    s.money({ paid: [basic] });
    s.advance(basic.end - PLAN_PERIOD_MS * 6 - s.now); // six months before the end: month 7 has begun
    expect(s.balance).toBe(7 * BASIC);
    const pro = s.line("Pro", "yearly", "in_2", s.now, basic.end);
    s.money({ paid: [pro], returned: [s.unused(basic)] });
    s.advance(400 * DAY);
    // Six months at Basic, six at Pro: the money kept for Basic paid 185 of 365 days (Stripe prorates by the
    // second, credit months are 30 days), so Basic keeps about 6.08 of its months — within 1% of a Pro month.
    expect(Math.abs(s.balance - (6 * BASIC + 6 * PRO))).toBeLessThan(PRO / 100);
    expect(s.balance).toBeLessThan(7 * BASIC + 6 * PRO);
  });

  it("a downgrade at the period end grants the lower plan from the next invoice", () => {
    const s = new Story();
    const pro = s.line("Pro", "monthly", "in_1");
    s.money({ paid: [pro] });
    s.advance(pro.end - s.now);
    s.money({ paid: [s.line("Basic", "yearly", "in_2")] });
    expect(s.balance).toBe(PRO + BASIC);
    s.advance(400 * DAY);
    expect(s.balance).toBe(PRO + 12 * BASIC);
  });

  it("monthly → yearly → monthly with no time passing adds nothing, however many round trips", () => {
    const s = new Story();
    let current = s.line("Pro", "monthly", "in_0");
    s.money({ paid: [current] });
    for (let trip = 1; trip <= 3; trip++) {
      const yearly = s.line("Pro", "yearly", `in_${trip}y`);
      s.money({ paid: [yearly], returned: [s.unused(current)] });
      expect(s.balance).toBe(PRO);
      current = s.line("Pro", "monthly", `in_${trip}m`);
      s.money({ paid: [current], returned: [s.unused(yearly)] });
      expect(s.balance).toBe(PRO);
    }
    // And the year switched away from grants no later month.
    s.advance(20 * DAY);
    expect(s.balance).toBe(PRO);
  });

  it("a switch from monthly to yearly on day 10 keeps what the ten days paid for", () => {
    const s = new Story();
    const monthly = s.line("Pro", "monthly", "in_1");
    s.money({ paid: [monthly] });
    s.advance(10 * DAY);
    s.spend(PRO); // everything spent
    const yearly = s.line("Pro", "yearly", "in_2");
    s.money({ paid: [yearly], returned: [s.unused(monthly)] });
    // The new year's first month is granted; the unused 2/3 of the old month (spent) is taken from it.
    const used = Math.floor((PRO * 10 * DAY) / (monthly.end - monthly.start));
    expect(Math.abs(s.balance - used)).toBeLessThanOrEqual(2);
  });

  it("a full refund takes back what is unspent; the spent rest stays owed, never below zero", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "monthly", "in_1")] });
    s.spend(4000);
    const d = s.money({ returned: [{ id: "re_1", cents: 6900, from: { payment: "in_1" } }] });
    expect(s.balance).toBe(0);
    expect(d.result.ok && d.result.value).toMatchObject({ takenBack: 6000, owed: 4000 });
  });

  it("a partial refund takes back its share", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "monthly", "in_1")] });
    s.money({ returned: [{ id: "re_1", cents: 1725, from: { payment: "in_1" } }] });
    expect(s.balance).toBe(PRO * 0.75);
  });

  it("a pending refund takes back at once; when it fails, the credits come back", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "monthly", "in_1")] });
    s.money({ returned: [{ id: "re_1", cents: 6900, from: { payment: "in_1" } }] });
    expect(s.balance).toBe(0);
    s.money({ returned: [{ id: "re_1", cents: 0, from: { payment: "in_1" } }] });
    expect(s.balance).toBe(PRO);
  });

  it("a lost dispute takes the unspent credits back; a won one gives them back", () => {
    const lost = new Story();
    lost.money({ paid: [lost.line("Pro", "monthly", "in_1")] });
    lost.spend(1000);
    lost.money({ returned: [{ id: "dp_1", cents: 6900, from: { payment: "in_1" } }] });
    expect(lost.balance).toBe(0);
    const won = new Story();
    won.money({ paid: [won.line("Pro", "monthly", "in_1")] });
    won.spend(1000);
    won.money({ returned: [{ id: "dp_1", cents: 6900, from: { payment: "in_1" } }] });
    won.money({ returned: [{ id: "dp_1", cents: 0, from: { payment: "in_1" } }] });
    expect(won.balance).toBe(PRO - 1000);
  });

  it("a pack's refund and dispute follow the same rule", () => {
    const s = new Story();
    s.money({
      paid: [
        {
          id: "pi_1",
          paymentId: "pi_1",
          subscriptionId: null,
          chargedCents: 1000,
          start: s.now,
          end: s.now,
          item: { pack: "500 credits", credits: 500 },
        },
      ],
    });
    s.spend(200);
    const share = moneyBack([...s.state.lines.values()], s.balance);
    expect(share).toEqual({ cents: 600, unspentCredits: 300, spentCredits: 200 });
    s.money({ returned: [{ id: "re_1", cents: share.cents, from: { payment: "pi_1" } }] });
    expect(s.balance).toBe(0);
  });

  it("a yearly plan's money-back after one month returns the unspent year and ends it: no month after", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "yearly", "in_y")] });
    s.advance(20 * DAY);
    s.spend(2000);
    const share = moneyBack([...s.state.lines.values()], s.balance);
    // $552 × 118,000 / 120,000: the eleven months not granted and the 8,000 unspent come back, the 2,000 spent stay.
    expect(share).toEqual({ cents: 54280, unspentCredits: 118_000, spentCredits: 2000 });
    s.money({
      returned: [{ id: "re_1", cents: share.cents, from: { payment: "in_y" } }],
      ended: { subscriptionId: "sub_1", at: s.now },
    });
    expect(s.balance).toBe(0);
    s.advance(400 * DAY);
    expect(s.balance).toBe(0);
  });

  it("a month granted stays granted when a later decision reads an earlier clock (a test clock ran ahead)", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "yearly", "in_y")] });
    s.advance(100 * DAY);
    expect(s.balance).toBe(4 * PRO);
    s.now -= 100 * DAY; // the ledger's own clock is behind the one that granted
    s.money({});
    expect(s.balance).toBe(4 * PRO);
  });

  it("a subscription that ends grants no month that begins after its end", () => {
    const s = new Story();
    s.money({ paid: [s.line("Pro", "yearly", "in_y")] });
    s.money({ ended: { subscriptionId: "sub_1", at: s.now + 1 } });
    s.advance(400 * DAY);
    expect(s.balance).toBe(PRO);
  });
});
