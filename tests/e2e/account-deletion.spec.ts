import { readFileSync } from "node:fs";
import { MESSAGES } from "../../app/domain/messages";
import { expect, expectAccessible, test } from "./fixtures";
import { newUserOnDashboard, signIn } from "./helpers";

const SCREENS = process.env.SCREENS_DIR;

test("a creator downloads their data, then deletes their account with their password and is signed out", async ({
  page,
}) => {
  const name = `Dora Deleteme ${Date.now()}`;
  const user = await newUserOnDashboard(page, { name, credits: 250 });

  await page.goto("/account");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^clipcut-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync(await download.path(), "utf8")) as { profile: { email: string } };
  expect(data.profile).toMatchObject({ email: user.email, fullName: name });

  await page.getByRole("link", { name: "Delete my account…" }).click();
  await expect(page).toHaveURL(/\/account\/delete$/);
  await expect(page.getByRole("heading", { level: 1, name: "Delete my account" })).toBeVisible();
  await expect(page.getByTestId("consequence-credits")).toContainText("Your 250 credits are cancelled.");
  await expect(page.getByTestId("consequence-subscription")).toContainText("no paid subscription");
  await expectAccessible(page);
  if (SCREENS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.screenshot({ path: `${SCREENS}/account-delete-${width}.png`, fullPage: true });
    }
  }

  // A wrong password deletes nothing and says so.
  await page.getByLabel("Your password", { exact: true }).fill("not my password at all");
  await page.getByLabel(/I understand that my account/).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByRole("alert")).toHaveText("That password is not right. The change was not made.");
  await expect(page).toHaveURL(/\/account\/delete$/);

  await page.getByLabel("Your password", { exact: true }).fill(user.password);
  await page.getByLabel(/I understand that my account/).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/signin\?notice=account_deleted$/);
  await expect(page.getByText("Your account has been deleted and you are signed out everywhere.")).toBeVisible();

  // Signed out for good: the signed-in area asks to sign in, and the old address and password no longer open it.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin/);
  await signIn(page, user.email, user.password);
  await expect(page.getByText(MESSAGES.invalidCredentials)).toBeVisible();
  await expect(page).toHaveURL(/\/signin/);
});
