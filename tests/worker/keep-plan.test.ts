/**
 * Undo a scheduled change: a cancellation (or a downgrade) waiting for the period end shows on /billing/plan with
 * its date and a "Keep my plan" button, which asks Stripe to drop it through the same rule as every plan change.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runningSubscription } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { get, insertUser, post, sessionFor } from "./helpers";
import { TEST_ADDRESS } from "./stand-in";

const db = getDb(env.DB);

async function subscribedPro(tag: string) {
  const userId = await insertUser({ email: `${tag}@example.com` });
  const cookie = await sessionFor(userId);
  const started = await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie });
  expect(started.status).toBe(302);
  const checkout = new URL(started.headers.get("Location") ?? "").pathname;
  expect((await post(checkout, { cardNumber: "4242 4242 4242 4242", ...TEST_ADDRESS }, { cookie })).status).toBe(302);
  return { userId, cookie };
}

describe("Keep my plan", () => {
  it("a scheduled cancellation shows its date and a Keep my plan button, which drops it on Stripe", async () => {
    const { userId, cookie } = await subscribedPro("keep-cancel");
    expect((await post("/billing/plan", { plan: "Free", billing: "monthly" }, { cookie })).status).toBe(200);
    const scheduled = await (await get("/billing/plan", { cookie })).text();
    expect(scheduled).toContain("Changes to <!-- -->Free<!-- --> at the end of this period");
    expect(scheduled).toContain('data-testid="keep-plan"');

    const kept = await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie });
    expect(kept.status).toBe(200);
    expect(await kept.text()).toContain("You keep your Pro plan: the scheduled change is cancelled.");
    // The subscription as re-read from Stripe after the change: no longer cancelling.
    expect(await runningSubscription(db, userId)).toMatchObject({ plan: "Pro", pendingPlan: null, status: "active" });
    const after = await (await get("/billing/plan", { cookie })).text();
    expect(after).not.toContain('data-testid="keep-plan"');
    expect(after).not.toContain("at the end of this period");
  });

  it("a scheduled downgrade is dropped the same way: the plan in force stays", async () => {
    const { userId, cookie } = await subscribedPro("keep-down");
    expect((await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie })).status).toBe(200);
    expect(await (await get("/billing/plan", { cookie })).text()).toContain('data-testid="keep-plan"');
    expect((await post("/billing/plan", { plan: "Pro", billing: "monthly" }, { cookie })).status).toBe(200);
    const sub = await runningSubscription(db, userId);
    expect(sub).toMatchObject({ plan: "Pro", pendingPlan: null });
    expect(await (await get("/billing/plan", { cookie })).text()).not.toContain('data-testid="keep-plan"');
  });
});
