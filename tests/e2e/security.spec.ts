import { expect, test } from "./fixtures";
import { dismissNotice, latestLink, newUser, signIn, uniqueEmail } from "./helpers";

test.describe("account security", () => {
  test("a confirmation link opened in another browser asks for the sign-up's password", async ({
    browser,
    page,
    request,
  }) => {
    const email = uniqueEmail("other-device");
    await page.goto("/signup");
    await page.getByLabel("Full name").fill("Otto Device");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("two devices passphrase");
    await page.getByLabel("Confirm password", { exact: true }).fill("two devices passphrase");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await expect(page.getByRole("status")).toContainText("Sign-up successful!");

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phonePage = await phone.newPage();
    await phonePage.goto(await latestLink(request, email, "/verify-email/"));
    await expect(phonePage.getByRole("heading", { name: "Confirm your e-mail" })).toBeVisible();
    await phonePage.screenshot({ path: "test-results/verify-other-device.png", fullPage: true });
    await expect(phonePage.getByLabel("Password", { exact: true })).toHaveAttribute("required", "");
    await phonePage.getByLabel("Password", { exact: true }).fill("two devices passphrase");
    await phonePage.getByRole("button", { name: "Confirm my e-mail" }).click();
    await expect(phonePage).toHaveURL(/\/dashboard$/);
    await phone.close();
  });

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
    await expect(otherPage.locator('[data-connection="live"]')).toBeAttached();

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
