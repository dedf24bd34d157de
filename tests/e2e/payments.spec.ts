import { expect, expectAccessible, test } from "./fixtures";
import { dismissNotice, newUserOnDashboard } from "./helpers";

// Local mode has no Stripe account: the app's checkout stand-in sends Stripe's events, signed, to /webhooks/stripe,
// and from there on it is the production path (ledger, realtime, /billing).
test.describe("payments (local Stripe stand-in)", () => {
  test("a Free creator upgrades to Basic with 4242…; the dashboard hears it; /billing lists the invoice", async ({
    browser,
    page,
  }) => {
    // Two windows and axe on every page: slow on a shared 2-core machine.
    test.setTimeout(150_000);
    await newUserOnDashboard(page, { name: "Paying Creator" });
    // A second window keeps the dashboard open: it must change without a reload.
    const second = await browser.newContext({ storageState: await page.context().storageState() });
    const dashboard = await second.newPage();
    await dashboard.goto("/dashboard");
    await dismissNotice(dashboard);
    await expect(dashboard.getByTestId("plan-name")).toHaveText("Free");
    await expect(dashboard.getByTestId("credit-balance")).toHaveText("100");
    await expect(dashboard.locator('[data-connection="live"]').first()).toBeAttached();
    await dashboard.evaluate(() => ((window as unknown as { marker: number }).marker = 7));

    await page.goto("/billing/plan");
    // The plan change is held (a slow network) so the button's in-between text can be read.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/billing\/plan\.data/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Upgrade to Basic" }).click();
    await expect(page.getByRole("button", { name: "Updating..." })).toHaveText("Updating...");
    release();
    await expect(page).toHaveURL(/\/dev\/stripe\/checkout\/cs_test_/);
    await expectAccessible(page);
    await expect(page.getByTestId("checkout-amount")).toHaveText("$15.00");

    // The declined test card is refused and changes nothing.
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: "Pay and subscribe" }).click();
    await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
    await expect(dashboard.getByTestId("plan-name")).toHaveText("Free");
    await expect(dashboard.getByTestId("credit-balance")).toHaveText("100");

    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay and subscribe" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Successfully" })).toHaveText(
      "Successfully changed plan to Basic!",
    );
    // The spec's timing: back to /billing/plan after 2000 ms.
    await expect(page).toHaveURL(/\/billing\/plan$/, { timeout: 5000 });
    await expect(page.getByTestId("plan-name")).toHaveText("Basic");

    await expect(dashboard.getByTestId("plan-name")).toHaveText("Basic");
    await expect(dashboard.getByTestId("credit-balance")).toHaveText("600");
    expect(await dashboard.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);

    await page.goto("/billing");
    const row = page.getByRole("row").filter({ hasText: "$15.00" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Paid");
    await expect(page.getByTestId("payment-method")).toContainText("ending in 4242");
    await expect(page.getByRole("button", { name: "Manage billing" })).toBeVisible();
    await second.close();
  });
});
