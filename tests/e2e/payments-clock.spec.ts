import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, dismissNotice, newUser } from "./helpers";

const HOUR = 3600;
const DAY = 24 * HOUR;

// A yearly plan lived through on Stripe's test clock (the stand-in's, advanced by POST /dev/stripe/advance): every
// credit month is granted from a paid invoice line, exactly once, and the money-back guarantee ends the plan.
test.describe("a yearly plan on the test clock", () => {
  test.use({ role: "admin" });

  test("two yearly renewals grant exactly their months; a money-back refund ends the plan and its months", async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const creator = await context.newPage();
    const { userId, email } = await newUser(creator, { name: "Yearly Yara" });
    const balance = async () => {
      await creator.goto("/dashboard");
      await dismissNotice(creator);
      return Number((await creator.getByTestId("credit-balance").textContent())?.replace(/,/g, ""));
    };
    const advance = async (seconds: number) => {
      const res = await creator.request.post("/dev/stripe/advance", { data: { email, seconds } });
      expect(res.status(), await res.text()).toBe(200);
    };

    await creator.goto("/billing/plan?billing=yearly");
    await dismissNotice(creator);
    await creator.getByRole("button", { name: "Upgrade to Basic" }).click();
    await expect(creator).toHaveURL(/\/dev\/stripe\/checkout\/cs_test_/);
    await expect(creator.getByTestId("checkout-amount")).toHaveText("$120.00");
    await creator.getByLabel("Card number").fill("4242 4242 4242 4242");
    await creator.getByRole("button", { name: "Pay and subscribe" }).click();
    await expect(creator).toHaveURL(/\/billing\/plan/);
    expect(await balance()).toBe(100 + 500);

    // Renewals are charged an hour after the period end: a year and two hours, then the next (calendar) year, which
    // holds 29 February 2028 when it starts in 2027 after March.
    const start = new Date();
    const yearDays = (from: Date) =>
      (Date.UTC(from.getUTCFullYear() + 1, from.getUTCMonth(), from.getUTCDate()) -
        Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate())) /
      (DAY * 1000);
    const second = new Date(start.getTime() + yearDays(start) * DAY * 1000);
    await advance(yearDays(start) * DAY + 2 * HOUR);
    expect(await balance()).toBe(100 + 13 * 500);
    await advance(yearDays(second) * DAY);
    expect(await balance()).toBe(100 + 25 * 500);

    // The admin refunds the first year under the guarantee: its unspent 6,000 credits go back, the plan ends
    // (the third year keeps the month it began; its other eleven are not granted).
    await page.goto(`/admin/users/${userId}/payments`);
    const firstYear = page
      .getByTestId("payment-row")
      .filter({ hasText: "$120.00" })
      .filter({ hasText: String(new Date().getUTCFullYear()) })
      .first();
    await firstYear.getByLabel("Reason").fill("money-back guarantee");
    await firstYear.getByLabel("Your password").fill(DEMO_PASSWORD);
    await firstYear.getByRole("button", { name: /^Refund / }).click();
    await expect(page.getByRole("status").filter({ hasText: "Refund of $120.00 sent to Stripe" })).toBeVisible();
    expect(await balance()).toBe(100 + 13 * 500);
    await expect(creator.getByTestId("plan-name")).toHaveText("Free");

    // No month is granted after the end, however far the clock goes.
    await advance(60 * DAY);
    expect(await balance()).toBe(100 + 13 * 500);
    await context.close();
  });
});
