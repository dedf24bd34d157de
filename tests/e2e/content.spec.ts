import { BLOG_ARTICLES } from "../../app/domain/blog";
import { expect, test } from "./fixtures";

test.describe("blog", () => {
  test("lists articles newest first with the newest featured", async ({ page, visit }) => {
    await visit("/blog");
    const titles = await page.getByRole("article").getByRole("heading").allTextContents();
    // Every published article, whatever their number: the list is the content module's.
    expect([...titles].sort()).toEqual(BLOG_ARTICLES.map((a) => a.title).sort());
    const featured = page.getByRole("article").first();
    await expect(featured).toBeVisible();
    // Newest first: the dates shown descend.
    const dates = await page
      .getByRole("article")
      .locator("time")
      .evaluateAll((els) => els.map((el) => el.getAttribute("datetime") ?? ""));
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  test("renders an article: headings, bullet lists, paragraphs, title and meta description", async ({
    page,
    visit,
  }) => {
    await visit("/blog/how-to-clip-a-youtube-video");
    await expect(page).toHaveTitle("How to Clip a YouTube Video in 3 Steps | ClipCut");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      /step-by-step guide to cutting a clip/,
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "How to Clip a YouTube Video in Three Simple Steps",
    );
    await expect(page.getByText("Tutorials").first()).toBeVisible();
    const article = page.getByRole("article");
    await expect(article.getByRole("heading", { level: 2, name: "Step 1: Find your moment" })).toBeVisible();
    await expect(article.getByRole("listitem").filter({ hasText: "Minutes and seconds, such as 1:35" })).toBeVisible();
    // Asterisks are markup, never shown.
    await expect(article).not.toContainText("**");
    await expect(article.locator("p").filter({ hasText: "Long videos are full of short moments" })).toHaveCount(1);
    await expect(
      page
        .getByRole("img")
        .filter({ has: page.locator("[alt]") })
        .or(page.locator("article img")),
    ).toHaveCount(1);
  });

  test("an unknown article is the 404 page with a real 404 status", async ({ page, visit }) => {
    await visit("/blog/no-such-article", 404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await expect(page).toHaveTitle("Page Not Found | ClipCut");
  });
});

test.describe("help and download", () => {
  test("the help search filters the article list, with and without JavaScript", async ({ page, browser, visit }) => {
    await visit("/help");
    const articles = page.getByRole("main").getByText("How do I remove the watermark?");
    await expect(articles).toBeVisible();
    await page.getByRole("searchbox").fill("refund");
    await expect(page.getByText("Can I get a refund?")).toBeVisible();
    await expect(articles).toBeHidden();

    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto("/help?q=watermark");
    await expect(plain.getByText("How do I remove the watermark?")).toBeVisible();
    await expect(plain.getByText("Can I get a refund?")).toBeHidden();
    await noJs.close();
  });

  test("Safari's Notify Me stores the address and confirms", async ({ page, visit }) => {
    await visit("/download");
    await expect(page.getByText("Recommended")).toBeVisible();
    await page.getByLabel(/email/i).fill("safari-fan@example.com");
    await page.getByRole("button", { name: "Notify Me" }).click();
    await expect(page.getByText("Thanks! We'll email you when ClipCut for Safari is ready.")).toBeVisible();
  });

  test("in local mode the browser buttons lead to the local-build instructions", async ({ page, visit }) => {
    await visit("/download");
    for (const browser of ["Chrome", "Firefox", "Edge"]) {
      await expect(page.getByRole("link", { name: new RegExp(`^Add to ${browser}`) })).toHaveAttribute(
        "href",
        "#try-locally",
      );
    }
    await expect(page.getByRole("heading", { name: "Try the extension locally" })).toBeVisible();
    await expect(page.getByText("npm run extension:build")).toBeVisible();
  });
});
