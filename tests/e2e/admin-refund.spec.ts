import { formatShortDate } from "../../app/domain/greeting";
import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, newUser } from "./helpers";

/** The router's refreshes that ran with no navigation under way (the live feed's), counted in the page. */
interface Counted {
  __remixRouter: {
    subscribe(fn: (state: { revalidation: string; navigation: { state: string } }) => void): () => void;
  };
  refreshes?: number;
}

test.describe("admin refunds", () => {
  test.use({ role: "admin" });

  test("the refund's confirmation stays through the live refreshes until dismissed; the row says what was refunded", async ({
    page,
    browser,
  }) => {
    // A creator who paid Basic on the stand-in's checkout, in a context of their own (not the admin's cookies).
    const payerContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const { userId } = await newUser(await payerContext.newPage(), { name: "Rita Refund", plan: "Basic" });
    await payerContext.close();

    await page.goto(`/admin/users/${userId}/payments`);
    await expect(page.locator('[data-admin-live="live"]')).toBeAttached();
    const row = page.getByTestId("payment-row").filter({ hasText: "$15.00" });
    await row.getByLabel("Reason").fill("asked within 14 days");
    await row.getByLabel("Your password").fill(DEMO_PASSWORD);
    await row.getByRole("button", { name: /^Refund / }).click();
    const confirmation = page.getByRole("status").filter({ hasText: "Refund of $15.00 sent to Stripe" });
    await expect(confirmation).toBeVisible();
    await expect(row).toContainText(`Refunded $15.00 on ${formatShortDate(new Date())}`);

    // The live feed refreshes the page's data whenever anything changes (here: someone signs up); each refresh
    // drops the action's answer from the router. The confirmation must outlive them.
    await page.evaluate(() => {
      const w = window as unknown as Counted;
      w.refreshes = 0;
      let loading = false;
      w.__remixRouter.subscribe((state) => {
        if (state.revalidation === "loading") loading = true;
        else if (loading && state.navigation.state === "idle") {
          loading = false;
          w.refreshes = (w.refreshes ?? 0) + 1;
        }
      });
    });
    const other = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    await newUser(await other.newPage(), { name: "Live Trigger" });
    await other.close();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as Counted).refreshes ?? 0), { timeout: 15_000 })
      .toBeGreaterThan(0);
    // Two frames: whatever the refresh renders is on screen.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await confirmation.isVisible()).toBe(true);
    await expect(row).toContainText("Refunded $15.00 on");

    await page.getByRole("link", { name: "Dismiss" }).click();
    await expect(confirmation).toBeHidden();
    expect(new URL(page.url()).pathname).toBe(`/admin/users/${userId}/payments`);
  });
});
