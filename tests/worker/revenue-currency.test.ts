/** Revenue adds cents of one currency only: a payment in another currency is listed apart, never summed in. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { formatRevenue } from "~/domain/plans";
import { get, insertUser, sessionFor } from "./helpers";

async function payment(id: string, userId: string, cents: number, currency: string) {
  await env.DB.prepare(
    "INSERT INTO billing_payments (id, user_id, kind, description, status, amount_cents, currency, created_at, paid_at) VALUES (?, ?, 'pack', 'Credit pack', 'paid', ?, ?, ?, ?)",
  )
    .bind(id, userId, cents, currency, Date.now(), Date.now())
    .run();
}

describe("revenue by currency", () => {
  it("the overview's Total Revenue counts dollars only and lists euros apart", async () => {
    const payer = await insertUser({ email: "payer-currency@example.com" });
    const admin = await insertUser({ email: "admin-currency@example.com", role: "admin" });
    await payment("pi_usd", payer, 1500, "usd");
    await payment("pi_eur", payer, 1000, "eur");
    const html = await (await get("/admin", { cookie: await sessionFor(admin) })).text();
    const total = /data-testid="total-revenue">([^<]*)</.exec(html)?.[1];
    expect(total).toBe(formatRevenue(1500));
    expect(html).toContain("Revenue in other currencies (not in the total):");
    expect(html).toContain("10.00 EUR");
  });
});
