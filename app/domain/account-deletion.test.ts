import { describe, expect, it } from "vitest";
import {
  BILLING_RECORDS_YEARS,
  deletionConsequences,
  erasedEmail,
  isErasedEmail,
  type DeletionFacts,
} from "./account-deletion";

const NOW = Date.UTC(2026, 10, 26, 9, 0);
const DAY = 86_400_000;
const facts = (over: Partial<DeletionFacts> = {}): DeletionFacts => ({
  credits: 0,
  plan: "Free",
  subscription: null,
  guaranteed: [],
  team: null,
  ...over,
});
const textOf = (f: DeletionFacts, voice?: "you" | "they") =>
  Object.fromEntries(deletionConsequences(f, { voice }).map((c) => [c.id, c.text]));

describe("what deleting an account does, said before it is confirmed", () => {
  it("a subscription is cancelled at once without a refund, unless a payment is inside the guarantee", () => {
    const subscription = { plan: "Pro" as const, billing: "monthly" as const, periodEnd: NOW + 20 * DAY };
    const plain = textOf(facts({ plan: "Pro", subscription }));
    expect(plain.subscription).toBe(
      "Your Pro plan (monthly) is cancelled at once, not at the end of the period on Dec 16, 2026: nothing more is charged, and the time left is not refunded.",
    );
    const guaranteed = textOf(
      facts({ plan: "Pro", subscription, guaranteed: [{ amountCents: 6900, paidAt: NOW - 3 * DAY }] }),
    );
    expect(guaranteed.subscription).toContain(
      "Your payment of $69.00 paid on Nov 23, 2026 is inside the 14-day money-back guarantee: the money of its unspent credits goes back to your card.",
    );
  });

  it("says how many credits are cancelled, and what happens to a team and to the data", () => {
    const owner = textOf(facts({ credits: 1234, team: { role: "owner", members: 2 } }));
    expect(owner.credits).toMatch(/^Your 1,234 credits are cancelled\./);
    expect(owner.team).toMatch(/^Your Pro team closes: its 2 other members leave it and pay for clips/);
    expect(textOf(facts({ team: { role: "member" } })).team).toBe(
      "You leave your team. The team's credits stay with its owner.",
    );
    expect(textOf(facts()).team).toBeUndefined();
    expect(textOf(facts()).data).toContain(
      `kept without your name or e-mail address for ${BILLING_RECORDS_YEARS} years`,
    );
  });

  it("speaks of the user in the third person on the admin's screen", () => {
    const text = textOf(facts({ credits: 5, team: { role: "member" } }), "they");
    expect(text.credits).toMatch(/^Their 5 credits/);
    expect(text.team).toBe("They leave their team. The team's credits stay with its owner.");
    expect(text.data).toContain("they are signed out everywhere");
  });

  it("a deleted account's address names nobody and is recognised as erased", () => {
    expect(erasedEmail("abc")).toBe("abc@deleted.invalid");
    expect(isErasedEmail("ABC@Deleted.Invalid")).toBe(true);
    expect(isErasedEmail("someone@example.com")).toBe(false);
  });
});
