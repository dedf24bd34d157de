import { expect, test } from "./fixtures";

const ROUTES: { path: string; heading: RegExp; text: (string | RegExp)[] }[] = [
  { path: "/", heading: /./, text: ["Create your clips"] },
  { path: "/features", heading: /./, text: ["Get Started for Free", "Download Now"] },
  { path: "/pricing", heading: /pricing/i, text: ["Annual (Save 33%)", "Most Popular", "$15", "$29", "$69"] },
  { path: "/about", heading: /./, text: ["50,000+", "1 Million+", "4.8/5"] },
  { path: "/help", heading: /./, text: ["Contact Support"] },
  { path: "/contact", heading: /contact/i, text: ["support@clipcut.app", "+1 (415) 555-0134"] },
  { path: "/download", heading: /./, text: ["Chrome", "Firefox", "Edge", "Safari", "Coming soon", "Notify Me"] },
  { path: "/blog", heading: /./, text: [] },
  { path: "/privacy", heading: /privacy/i, text: ["January 2025", /13/] },
  { path: "/terms", heading: /terms/i, text: ["14-day", "Delaware"] },
  { path: "/clip", heading: /./, text: ["Load Video"] },
];

test.describe("public routes", () => {
  for (const route of ROUTES) {
    test(`${route.path} shows its content with header, footer, title and description`, async ({ page, visit }) => {
      await visit(route.path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(route.heading);
      for (const text of route.text) await expect(page.getByText(text).locator("visible=true").first()).toBeVisible();
      await expect(page).toHaveTitle(/ClipCut/);
      const description = await page.locator('meta[name="description"]').getAttribute("content");
      expect(description?.length ?? 0).toBeGreaterThan(20);
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: "Pricing" })).toBeVisible();
      await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
      await expect(header.getByRole("link", { name: "Try for Free" })).toHaveAttribute("href", "/download");
      const footer = page.getByRole("contentinfo");
      for (const name of [
        "Features",
        "Download",
        "Video Cutter",
        "Blog",
        "Contact us",
        "Help Center",
        "About",
        "Privacy policy",
        "Terms of service",
      ]) {
        await expect(footer.getByRole("link", { name, exact: true })).toBeVisible();
      }
    });
  }

  test("the Video Cutter says the spec's words for a bad link and while the video loads", async ({ page }) => {
    // The player's page never answers, so the cutter stays on its spinner (the browser shows it only after hydration).
    await page.route(/youtube(-nocookie)?\.com\/embed\//, () => {});
    await page.goto("/clip");
    const link = page.getByLabel("YouTube video link");
    await link.fill("https://youtu.be/short");
    await page.getByRole("button", { name: "Load Video" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid YouTube URL. Please enter a valid link.");
    await link.fill("https://youtu.be/dQw4w9WgXcQ");
    await page.getByRole("button", { name: "Load Video" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Loading" })).toHaveText("Loading video...");
  });

  test("titles are unique per page", async ({ page }) => {
    const titles = new Set<string>();
    for (const route of ROUTES) {
      await page.goto(route.path);
      titles.add(await page.title());
    }
    expect(titles.size).toBe(ROUTES.length);
  });

  test("an unknown path is a real 404 with a link home", async ({ page, visit }) => {
    await visit("/this/does/not/exist", 404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await page.getByRole("link", { name: /home/i }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("navigation scrolls the new page to the top", async ({ page }) => {
    await page.goto("/pricing");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole("contentinfo").getByRole("link", { name: "About", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
