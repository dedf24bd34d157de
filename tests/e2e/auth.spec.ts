import { MAINTENANCE_NOTICE_DELAY_MS, SITE } from "../../app/domain/site";
import { expect, test } from "./fixtures";
import {
  DEMO_ADMIN,
  DEMO_CREATOR,
  DEMO_PASSWORD,
  dismissNotice,
  latestLink,
  newUser,
  newUserOnDashboard,
  nextGoogleIdentity,
  noticeDue,
  signIn,
  signUp,
  uniqueEmail,
} from "./helpers";

test.describe("accounts", () => {
  test("sign-up → e-mailed link → verified and signed in, with the maintenance notice", async ({
    page,
    request,
    visit,
  }) => {
    await visit("/signup");
    const email = uniqueEmail("signup");
    await signUp(page, request, "Marie Curie", email, "radium and polonium");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Marie");
    const notice = page.getByRole("dialog");
    await expect(notice).toBeVisible();
    await dismissNotice(page);
    await expect(notice).toBeHidden();
    await page.reload();
    expect(await noticeDue(page), "the flag is cleared on the server").toBe(false);
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(page.getByTestId("credit-balance")).toHaveText("100");
  });

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

  test("the maintenance notice waits 500 ms, links the social accounts, and closes with Escape too", async ({
    page,
  }) => {
    await signIn(page, DEMO_CREATOR, DEMO_PASSWORD);
    const notice = page.getByRole("dialog");
    await expect(notice).toBeVisible();
    for (const s of SITE.social) {
      await expect(notice.getByRole("link", { name: s.name })).toHaveAttribute("href", s.href);
    }
    // Still due until it is closed: reloaded with the page's clock held, it is not there 1 ms before the delay, and is
    // at it.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.reload();
    expect(await noticeDue(page)).toBe(true);
    await page.clock.runFor(MAINTENANCE_NOTICE_DELAY_MS - 1);
    await expect(notice).toBeHidden();
    await page.clock.runFor(1);
    await expect(notice).toBeVisible();
    await expect(page.getByRole("button", { name: "Got it" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(notice).toBeHidden();
  });

  test("sign-up shows the spec's messages for mismatched passwords and a taken address", async ({ page, visit }) => {
    await visit("/signup");
    await page.getByLabel("Full name").fill("Someone");
    await page.getByLabel("Email").fill(DEMO_CREATOR);
    await page.getByLabel("Password", { exact: true }).fill("one long passphrase");
    await page.getByLabel("Confirm password", { exact: true }).fill("another long phrase");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await expect(page.getByText("Passwords do not match.")).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill("one long passphrase");
    await page.getByLabel("Confirm password", { exact: true }).fill("one long passphrase");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "This email is already registered. Please check your inbox for the confirmation link.",
    );
  });

  test("sign-in errors read the same for an unknown e-mail and a wrong password; show/hide works", async ({
    page,
    visit,
  }) => {
    await visit("/signin");
    await page.getByLabel("Password", { exact: true }).fill("secret words");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
    await signIn(page, "nobody-here@example.com", "whatever it is");
    const unknown = await page.getByRole("alert").textContent();
    await signIn(page, DEMO_CREATOR, "not the password");
    await expect(page.getByRole("alert")).toHaveText(unknown ?? "");
    await expect(page.getByRole("alert")).toHaveText("Invalid login credentials");
  });

  test("the README's demo accounts sign in, and the header then offers the dashboard", async ({ page }) => {
    await signIn(page, DEMO_CREATOR, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
    await dismissNotice(page);
    await page.goto("/pricing");
    await expect(page.getByRole("banner").getByRole("link", { name: "Go to Dashboard" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toHaveCount(0);
    await page.context().clearCookies();
    await signIn(page, DEMO_ADMIN, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Overviews" })).toBeVisible();
  });

  test("guards: anonymous visitors go to sign-in and come back; non-admins are sent from /admin", async ({ page }) => {
    await page.goto("/credits");
    await expect(page).toHaveURL(/\/signin\?redirectTo=%2Fcredits$/);
    await page.getByLabel("Email").fill(DEMO_CREATOR);
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/credits$/);
    await page.goto("/admin/users");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("password reset: e-mailed link sets a new password once and ends the other sessions", async ({
    browser,
    page,
    request,
    visit,
  }) => {
    // Several password hashings (the account, a sign-in, the reset) and two browsers: slow on a loaded run.
    test.setTimeout(120_000);
    const { email } = await newUser(page, { name: "Reset Tester", password: "first good passphrase" });
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, email, "first good passphrase");
    await expect(otherPage).toHaveURL(/\/dashboard$/);

    await page.context().clearCookies();
    await visit("/forgot-password");
    await page.getByRole("button", { name: "Send reset instructions" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter your email address.");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset instructions" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "If an account with that email exists, we have sent password reset instructions.",
    );
    const link = await latestLink(request, email, "/reset-password/");
    await visit(link);
    await page.getByLabel("New password", { exact: true }).fill("second good passphrase");
    await page.getByLabel("Confirm new password", { exact: true }).fill("second good passphrase");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The other browser's open dashboard leaves for /signin by itself (its realtime says the session ended); a
    // navigation of ours may race that one, so only where it lands is checked.
    await otherPage.goto("/dashboard").catch(() => undefined);
    await expect(otherPage).toHaveURL(/\/signin/);
    await page.goto(link);
    await expect(page.getByRole("alert")).toContainText("invalid or has expired");
    await other.close();
  });

  test("Google sign-in creates a new account from the profile", async ({ page }) => {
    const email = uniqueEmail("google-new");
    await nextGoogleIdentity({ sub: `g-${Date.now()}`, email, name: "Grace Google" });
    await page.goto("/signin");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await dismissNotice(page);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Grace");
    await expect(page.getByTestId("credit-balance")).toHaveText("100");
  });

  test("Google sign-in links an existing account with the same verified e-mail", async ({ page }) => {
    const { email } = await newUser(page, { name: "Linda Linked", password: "my own passphrase" });
    await page.context().clearCookies();
    await nextGoogleIdentity({ sub: `g-link-${Date.now()}`, email, name: "Someone Else" });
    await page.goto("/signin");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await dismissNotice(page);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Linda"); // same account, same name
    await page.context().clearCookies();
    await signIn(page, email, "my own passphrase"); // the password still works
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a cancelled Google sign-in is shown on the sign-in page", async ({ page }) => {
    await nextGoogleIdentity({ error: "access_denied" });
    await page.goto("/signin");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(page).toHaveURL(/\/signin\?error=/);
    await expect(page.getByRole("alert")).toHaveText("Google sign-in was cancelled.");
  });

  test("an admin bans a user: their session ends and they are told at sign-in", async ({ pageAs, page }) => {
    const { email } = await newUserOnDashboard(page, { name: "Banned Bob", password: "bob's long passphrase" });
    // The banned user's dashboard is open and live before the ban.
    await expect(page.locator('[data-connection="live"]').first()).toBeAttached();
    const adminPage = await pageAs("admin");
    await adminPage.goto("/admin/users");
    adminPage.once("dialog", (dialog) => {
      expect(dialog.message()).toBe(
        "Are you sure you want to ban Banned Bob? This will mark their account as 'Banned'.",
      );
      void dialog.accept();
    });
    await adminPage.getByRole("button", { name: "Ban Banned Bob" }).click();
    await expect(adminPage.getByRole("row", { name: /Banned Bob/ })).toContainText("Banned");
    // The banned user's open dashboard goes to /signin by itself when the ban ends its session.
    await expect(page).toHaveURL(/\/signin\?notice=session_ended/);
    await page.waitForLoadState("load");
    await signIn(page, email, "bob's long passphrase");
    await expect(page.getByRole("alert")).toContainText("Your account has been banned");
  });

  test("My Account saves the name and changes the password with the spec's messages", async ({ page, visit }) => {
    const { email } = await newUserOnDashboard(page, { name: "Ann Account", password: "ann's long passphrase" });
    await visit("/account");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Email")).toHaveAttribute("readonly", "");
    await page.getByLabel("Full name").fill("Ann Renamed");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Profile information saved successfully!")).toBeVisible();
    await page.getByLabel("Current password", { exact: true }).fill("ann's long passphrase");
    await page.getByLabel("New password", { exact: true }).fill("a new one entirely");
    await page.getByLabel("Confirm new password", { exact: true }).fill("does not match");
    await page.getByRole("button", { name: "Update password" }).click();
    await expect(page.getByText("Passwords do not match.")).toBeVisible();
    await page.getByLabel("Confirm new password", { exact: true }).fill("a new one entirely");
    await page.getByRole("button", { name: "Update password" }).click();
    await expect(page.getByText("Password updated successfully!")).toBeVisible();
    const toggle = page.getByRole("switch", { name: "Low-credit notifications" });
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    // The switch turns at once (optimistic); reload only once the server has answered, or the reload cancels the save.
    await expect(page.getByText("Notification preference saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("switch", { name: "Low-credit notifications" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    await page
      .getByRole("button", { name: "Sign Out" })
      .first()
      .click({ force: true })
      .catch(() => undefined);
  });
});
