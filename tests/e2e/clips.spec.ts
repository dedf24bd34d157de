import { expect, expectAccessible, test } from "./fixtures";

const SCREENS = process.env.SCREENS_DIR;

test("from the dashboard's Recent Activity to every clip, a search, and one clip's page", async ({ pageAs }) => {
  // The demo creator has clips from the seed.
  const page = await pageAs("creator");
  await page.goto("/dashboard");
  await page.getByRole("region", { name: "Recent Activity" }).getByRole("link", { name: "View all clips" }).click();
  await expect(page).toHaveURL(/\/clips$/);
  await expect(page.getByRole("heading", { level: 1, name: "All clips" })).toBeVisible();
  await expectAccessible(page);
  const rows = page.getByTestId("clip-row");
  await expect(rows.first()).toBeVisible();
  const name = (await rows.first().getByRole("link").innerText()).trim();

  if (SCREENS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.screenshot({ path: `${SCREENS}/clips-${width}.png`, fullPage: true });
    }
  }

  // The filter form by keyboard: the search finds the clip by its name, and the URL keeps the filter.
  await page.getByLabel("Search").fill(name);
  await page.getByLabel("Search").press("Enter");
  await expect(page).toHaveURL(/\/clips\?q=/);
  const match = page.getByTestId("clip-row").getByRole("link", { name, exact: true }).first();
  await expect(match).toBeVisible();

  await match.click();
  await expect(page).toHaveURL(/\/view-clip\/[^/?]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
});
