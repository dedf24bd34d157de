import { expect, test } from "./fixtures";
import { newUserOnDashboard } from "./helpers";

const SCREENS = process.env.SCREENS_DIR;

// A new account, clips through the API and axe on two pages: 60 s held only on an idle machine.
test.describe.configure({ timeout: 150_000 });

test("a Free creator sees what the Analytics Dashboard offers, and none of the figures", async ({ pageAs }) => {
  // The demo creator is on Free (no sign-up: the suite's sign-ups share one address's limit of 20 an hour).
  const page = await pageAs("creator");
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Analytics" }).first().click();
  await expect(page).toHaveURL(/\/analytics$/);
  await expect(page.getByRole("heading", { name: "Analytics Dashboard is part of the Advanced plan" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See plans and upgrade" })).toHaveAttribute("href", "/billing/plan");
  await expect(page.getByTestId("stat-clips")).toHaveCount(0);
  await page.goto("/analytics"); // axe on the upgrade page
  if (SCREENS) await page.screenshot({ path: `${SCREENS}/analytics-free-1280.png`, fullPage: true });
});

test("a Pro creator reads the dashboard: range, mouse tooltip, keyboard readout, legend", async ({
  page,
  request,
  baseURL,
}) => {
  // A Pro account from the fixture (payments.spec pays through the checkout).
  await newUserOnDashboard(page, { name: "Pro Analyst", plan: "Pro" });

  // Two clips through API v1, as the extension would make them.
  const tokenRes = await page.request.post("/api/v1/token", { headers: { Origin: baseURL ?? "" } });
  expect(tokenRes.status()).toBe(201);
  const { token } = (await tokenRes.json()) as { token: string };
  for (const [i, format] of (["mp4", "mp3"] as const).entries()) {
    const res = await request.post("/api/v1/clips", {
      headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": `analytics-e2e-${Date.now()}-${i}` },
      data: {
        name: `Clip ${i}`,
        videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        startSeconds: 0,
        endSeconds: 30 + i * 30,
        format,
        quality: "720p",
      },
    });
    expect(res.status()).toBe(201);
  }

  await page.goto("/analytics");
  await expect(page.getByTestId("stat-clips")).toHaveText("2");
  await expect(page.getByTestId("stat-minutes")).toHaveText("1.5");
  await expect(page.getByRole("link", { name: "Last 30 days", exact: true })).toHaveAttribute("aria-current", "true");

  await page.getByRole("link", { name: "Last 7 days", exact: true }).click();
  await expect(page).toHaveURL(/range=7d/);
  await expect(page.getByRole("link", { name: "Last 7 days", exact: true })).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("stat-clips")).toHaveText("2");

  // Mouse: today's bar shows Tremor's tooltip with its number.
  const chart = page.getByTestId("clips-chart");
  const bar = chart.locator(".recharts-bar-rectangle").last();
  await expect(bar).toBeVisible();
  await bar.hover();
  const tooltip = chart.locator(".recharts-tooltip-wrapper");
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText("Clips");
  await expect(tooltip).toContainText("2");

  // Keyboard: focus the chart, arrow keys move the readout.
  await chart.getByRole("group").focus();
  const readout = chart.getByRole("status");
  await expect(readout).toContainText("Clips: 2");
  await page.keyboard.press("ArrowLeft");
  await expect(readout).toContainText("Clips: 0");

  // Legend: the formats chart's series can be hidden and shown again.
  const legend = page.getByRole("region", { name: "Formats" }).getByRole("button", { name: "Credits" });
  await expect(legend).toHaveAttribute("aria-pressed", "true");
  await legend.click();
  await expect(legend).toHaveAttribute("aria-pressed", "false");
  await legend.click();

  await page.goto("/analytics?range=all"); // axe on the dashboard
  if (SCREENS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SCREENS}/analytics-pro-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: `${SCREENS}/analytics-pro-375.png`, fullPage: true });
  }
});
