import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { paymentById, savePayment, setRefunded } from "~/db/billing.server";
import { getDb } from "~/db/client.server";
import { formatShortDate } from "~/domain/greeting";
import { get, insertUser, signIn } from "./helpers";

/** What the admin's payments screen says of each payment, refunded ones by amount and date. */
const db = getDb(env.DB);
const PASSWORD = "refund rows passphrase";
const DAY = 24 * 60 * 60 * 1000;

async function payment(userId: string, id: string, cents: number, paidDaysAgo: number | null) {
  const paidAt = paidDaysAgo === null ? null : new Date(Date.now() - paidDaysAgo * DAY);
  await savePayment(db, {
    id,
    userId,
    kind: "invoice",
    number: id.toUpperCase(),
    description: "Basic (monthly)",
    status: paidAt ? "paid" : "failed",
    amountCents: cents,
    credits: 500,
    createdAt: paidAt ?? new Date(),
    paidAt,
  });
}

/** The text of the payment's row on the admin's screen, tags and spaces flattened. */
async function rowText(cookie: string, userId: string, number: string) {
  const html = await (await get(`/admin/users/${userId}/payments`, { cookie })).text();
  const rows = html.split('data-testid="payment-row"').slice(1);
  const row = rows.find((r) => r.includes(`>${number}<`));
  if (!row) throw new Error(`no row for ${number}`);
  return row
    .split("</tr>")[0]!
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("the admin's payments screen", () => {
  it("says “Refunded $X on DATE” on a refunded row, partial refunds too, and why the others cannot be refunded", async () => {
    const userId = await insertUser({ email: "refund-rows@example.com", password: PASSWORD });
    await insertUser({ email: "refund-rows-admin@example.com", password: PASSWORD, role: "admin" });
    const admin = await signIn("refund-rows-admin@example.com", PASSWORD);
    const fullAt = new Date(Date.now() - 3 * DAY);
    const partAt = new Date(Date.now() - DAY);
    await payment(userId, "in_full", 1500, 20);
    await setRefunded(db, "in_full", 1500, 1500, fullAt);
    await payment(userId, "in_part", 2900, 2);
    await setRefunded(db, "in_part", 600, 2900, partAt);
    await payment(userId, "in_old", 1500, 40);
    await payment(userId, "in_failed", 1500, null);

    const full = await rowText(admin, userId, "IN_FULL");
    expect(full).toContain(`Refunded $15.00 on ${formatShortDate(fullAt)}`);
    expect(full).not.toContain("Outside the 14-day guarantee");
    const part = await rowText(admin, userId, "IN_PART");
    expect(part).toContain(`Refunded $6.00 on ${formatShortDate(partAt)}`);
    // Still inside the guarantee with value left: the rest can be refunded too.
    expect(part).toContain("Refund IN_PART");
    expect(await rowText(admin, userId, "IN_OLD")).toContain("Outside the 14-day guarantee");
    expect(await rowText(admin, userId, "IN_FAILED")).toContain("Not paid");
  });

  it("dates a refund when its amount changes, not when the same refund is reported again", async () => {
    const userId = await insertUser({ email: "refund-dates@example.com" });
    await payment(userId, "in_dates", 2900, 1);
    const first = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await setRefunded(db, "in_dates", 600, 2900, first);
    await setRefunded(db, "in_dates", 600, 2900, new Date());
    expect((await paymentById(db, "in_dates"))?.refundedAt).toEqual(first);
    const second = new Date(Date.now() - 60 * 1000);
    await setRefunded(db, "in_dates", 2900, 2900, second);
    expect(await paymentById(db, "in_dates")).toMatchObject({ refundedAt: second, status: "refunded" });
    // A paid invoice's event arriving after the refund keeps what the refund recorded.
    await payment(userId, "in_dates", 2900, 1);
    expect(await paymentById(db, "in_dates")).toMatchObject({ refundedAt: second, refundedCents: 2900 });
  });
});
