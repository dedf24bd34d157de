import { expect, test } from "./fixtures";

test.describe("contact", () => {
  test("first FAQ item starts open", async ({ page, visit }) => {
    await visit("/contact");
    const items = page.locator("details");
    await expect(items.first()).toHaveAttribute("open", "");
    await expect(items.nth(1)).not.toHaveAttribute("open", "");
  });

  test("shows field errors, then confirms a valid message", async ({ page, visit }) => {
    await visit("/contact");
    await page.getByLabel("Name").fill("Grace Hopper");
    await page.getByLabel("Email").fill("grace@");
    await page.getByLabel("Message", { exact: true }).fill("Hi");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
    await expect(page.getByText("Please write at least 10 characters.")).toBeVisible();
    await page.getByLabel("Email").fill("grace@example.com");
    await page.getByLabel("Topic").selectOption("Technical support");
    await page.getByLabel("Message", { exact: true }).fill("The extension does not see my video.");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("status")).toContainText("Thanks, Grace Hopper! Your message has been sent.");
  });
});
