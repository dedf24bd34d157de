import { ADMIN_MESSAGES } from "../../app/domain/admin";
import { expect, test } from "./fixtures";
import { newUser } from "./helpers";

// The session ends while the Create Clip dialog is open (it expired, or its cookie is gone): with JavaScript the post
// takes the same way as without it, to /signin with the spec's message, and back to the dialog after signing in.
test("an ended session in the Create Clip dialog leads to /signin with the notice, then back to the dialog", async ({
  page,
}) => {
  const admin = await newUser(page, { role: "admin", plan: "Pro", credits: 500 });
  await page.goto("/admin/clips");
  await page.getByRole("link", { name: "Create Clip" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Clip" });
  await dialog.getByLabel("Clip Name").fill("Expired session clip");
  await dialog.getByLabel("YouTube Video URL").fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  await dialog.getByLabel("Start Time (mm:ss)").fill("00:10");
  await dialog.getByLabel("End Time (mm:ss)").fill("00:40");
  // Hydrated: the live cost follows the fields, so the post goes through Remix's client, not the browser.
  await expect(dialog.getByTestId("credit-cost")).toHaveText("3");

  await page.context().clearCookies({ name: "clipcut_session" });
  await dialog.getByRole("button", { name: "Confirm & Create Clip" }).click();

  await expect(page).toHaveURL(/\/signin\?notice=clip_signed_out&redirectTo=%2Fadmin%2Fclips%3Fmodal%3Dcreate$/);
  await expect(page.getByRole("status")).toHaveText(ADMIN_MESSAGES.clipSignedOut);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL(/\/admin\/clips\?modal=create$/);
  await expect(page.getByRole("dialog", { name: "Create Clip" })).toBeVisible();
  // Nothing was charged for the refused post.
  await expect(page.getByRole("row", { name: /Expired session clip/ })).toHaveCount(0);
});
