import { expect, test } from "./fixtures";
import { dismissNotice, latestLink, signIn, signUp, uniqueEmail } from "./helpers";

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

  test("“Where you're signed in” signs another browser out", async ({ browser, page, request, visit }) => {
    const email = uniqueEmail("sessions");
    await signUp(page, request, "Sally Sessions", email, "many browsers passphrase");
    await dismissNotice(page);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, email, "many browsers passphrase");
    await expect(otherPage).toHaveURL(/\/dashboard$/);

    await visit("/account");
    const list = page.getByRole("region", { name: "Where you're signed in" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(list).toContainText("This browser");
    await page.screenshot({ path: "test-results/account-sessions.png", fullPage: true });
    await list.getByRole("button", { name: /^Sign out Chrome on/ }).click();
    await expect(list.getByRole("listitem")).toHaveCount(1);

    await otherPage.goto("/dashboard");
    await expect(otherPage).toHaveURL(/\/signin/);
    await other.close();
  });
});
