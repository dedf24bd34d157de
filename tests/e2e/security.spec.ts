import { expect, test } from "./fixtures";
import { dismissNotice, newUser, signIn } from "./helpers";

test.describe("account security", () => {
  test("“Where you're signed in” signs another browser out, and its open page goes to sign-in by itself", async ({
    browser,
    page,
    visit,
  }) => {
    const { email, password } = await newUser(page, { name: "Sally Sessions" });
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, email, password);
    await expect(otherPage).toHaveURL(/\/dashboard$/);
    await expect(otherPage.locator('[data-connection="live"]').first()).toBeAttached();

    await visit("/account");
    await dismissNotice(page);
    const list = page.getByRole("region", { name: "Where you're signed in" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(list).toContainText("This browser");
    await page.screenshot({ path: "test-results/account-sessions.png", fullPage: true });
    await list.getByRole("button", { name: /^Sign out Chrome on/ }).click();
    await expect(list.getByRole("listitem")).toHaveCount(1);

    // No navigation of its own: the closed socket (4001) sends the open dashboard to sign-in, saying why.
    await expect(otherPage).toHaveURL(/\/signin\?notice=session_ended&redirectTo=%2Fdashboard$/);
    await expect(otherPage.getByRole("status")).toHaveText("Your session has ended. Please sign in again.");
    await other.close();
  });
});
