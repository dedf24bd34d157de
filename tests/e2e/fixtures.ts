import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/** Fails on any serious or critical accessibility violation of the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${page.url()} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    "accessibility violations",
  ).toEqual([]);
}

export const test = base.extend<{ visit: (path: string, status?: number) => Promise<void> }>({
  /** Every page.goto in every test runs axe-core on the page it reached. */
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (new URL(page.url()).pathname !== "/dev/outbox") await expectAccessible(page);
      return response;
    };
    await use(page);
  },
  /** A visit that also checks the status code. */
  visit: async ({ page }, use) => {
    await use(async (path, status = 200) => {
      const response = await page.goto(path);
      expect(response?.status(), `status of ${path}`).toBe(status);
    });
  },
});

export { expect };
