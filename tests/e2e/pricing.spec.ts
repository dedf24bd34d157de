import { expect, test } from "./fixtures";
import { BATCH_COPY } from "../../app/domain/batch-copy";

test.describe("pricing", () => {
  test("four plan cards with monthly prices, Advanced flagged Most Popular", async ({ page, visit }) => {
    await visit("/pricing");
    const cards = page.getByRole("article");
    await expect(cards).toHaveCount(4);
    await expect(cards.nth(0)).toContainText("$0");
    await expect(cards.nth(1)).toContainText("$15");
    await expect(cards.nth(2)).toContainText("$29");
    await expect(cards.nth(2)).toContainText("Most Popular");
    await expect(cards.nth(3)).toContainText("$69");
    await expect(cards.nth(0).getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/signup");
    await expect(cards.nth(3).getByRole("link", { name: "Sign up to upgrade" })).toHaveAttribute("href", "/signup");
  });

  test("the annual toggle switches to yearly prices, with and without JavaScript", async ({ page, browser, visit }) => {
    await visit("/pricing");
    await page.getByRole("link", { name: "Annual (Save 33%)" }).click();
    await expect(page).toHaveURL(/billing=yearly/);
    const cards = page.getByRole("article");
    await expect(cards.nth(1)).toContainText("$10");
    await expect(cards.nth(2)).toContainText("$19");
    await expect(cards.nth(3)).toContainText("$46");
    await page.getByRole("link", { name: "Monthly" }).click();
    await expect(cards.nth(3)).toContainText("$69");

    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto("/pricing");
    await plain.getByRole("link", { name: "Annual (Save 33%)" }).click();
    await expect(plain.getByRole("article").nth(2)).toContainText("$19");
    await noJs.close();
  });

  test("comparison table descriptions show on hover and on keyboard focus", async ({ page, visit }) => {
    await visit("/pricing");
    const trigger = page.getByRole("button", { name: "Batch Processing" });
    const tip = page.getByRole("tooltip").filter({ hasText: BATCH_COPY.comparison });
    await expect(tip).toBeHidden();
    await trigger.hover();
    await expect(tip).toBeVisible();
    await page.mouse.move(0, 0);
    await expect(tip).toBeHidden();
    await trigger.focus();
    await expect(tip).toBeVisible();
    await expect(trigger).toHaveAttribute("aria-describedby", /feature-desc/);
  });

  test("FAQ items open and close", async ({ page, visit }) => {
    await visit("/pricing");
    const item = page.locator("details").filter({ hasText: "How do credits work?" });
    const question = item.locator("summary");
    const answer = item.getByText(/about 1 credit per 30 seconds/);
    await expect(answer).toBeHidden();
    await question.click();
    await expect(answer).toBeVisible();
  });
});
