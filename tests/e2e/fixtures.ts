import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/** Fails on any serious or critical accessibility violation of the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    "accessibility violations",
  ).toEqual([]);
}

export const test = base.extend<{ visit: (path: string, status?: number) => Promise<void> }>({
  /** Every page visit checks the status and runs axe-core. */
  visit: async ({ page }, use) => {
    await use(async (path, status = 200) => {
      const response = await page.goto(path);
      expect(response?.status(), `status of ${path}`).toBe(status);
      await expectAccessible(page);
    });
  },
});

export { expect };
