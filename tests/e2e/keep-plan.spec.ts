import { expect, expectAccessible, test } from "./fixtures";
import { dismissNotice, newUser } from "./helpers";

// A scheduled downgrade is undone from the plan page with "Keep my plan" (no JavaScript needed: a plain form).
test("a Pro creator schedules a downgrade, sees it with its date, and keeps the plan", async ({ page }) => {
  test.setTimeout(120_000);
  await newUser(page, { name: "Keeping Kim", plan: "Pro" });
  await page.goto("/billing/plan");
  await dismissNotice(page);
  await page.getByRole("button", { name: "Downgrade to Basic" }).click();
  await expect(page.getByTestId("plan-next")).toContainText("Changes to Basic at the end of this period (");
  await expect(page.getByTestId("plan-name")).toHaveText("Pro");
  await expectAccessible(page);

  await page.getByRole("button", { name: "Keep my plan" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You keep your Pro plan" })).toHaveText(
    "You keep your Pro plan: the scheduled change is cancelled.",
  );
  await expect(page.getByTestId("plan-next")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Keep my plan" })).toHaveCount(0);
  await expect(page.getByTestId("plan-name")).toHaveText("Pro");
});
