import { createClipMessageSchema } from "../../app/domain/extension";
import { routeEmbed } from "./extension/harness";
import { expect, expectAccessible, test } from "./fixtures";
import { newUserOnDashboard } from "./helpers";

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

/**
 * The /clip page hands its Aspect and Captions to the extension with the range, in a message the extension's own
 * schema accepts; the clip made from that request shows them in the clip list and on its page. The extension itself
 * is not loaded here (extension.spec runs the whole chain): a page-side stand-in of its message port records the
 * hand-off and answers as the extension does.
 */
test("/clip hands off the aspect and captions, and the clip list, the clip's page and the admin show them", async ({
  page,
  pageAs,
}) => {
  await newUserOnDashboard(page, { name: "Shorts Creator" });
  await routeEmbed(page.context());
  await page.addInitScript(() => {
    const sent: unknown[] = [];
    (window as unknown as { __sent: unknown[] }).__sent = sent;
    (window as unknown as { chrome: unknown }).chrome = {
      runtime: {
        sendMessage(_id: string, message: { action: string; name?: string }, reply: (r: unknown) => void) {
          sent.push(message);
          setTimeout(() => reply({ success: true, message: `"${message.name}" is being cut by the companion.` }), 0);
        },
      },
    };
  });
  await page.goto(`/clip?url=${encodeURIComponent("https://www.youtube.com/watch?v=dQw4w9WgXcQ")}`);
  await expect(page.getByRole("button", { name: "Create Clip" })).toBeEnabled();
  await page.getByLabel("Clip name").fill("Vertical goal");
  const aspect = page.getByRole("group", { name: "Aspect" });
  await aspect.getByText("9:16", { exact: true }).click();
  await expect(aspect).toContainText("Cropped from the centre of the picture");
  // GIF has no subtitle track: the choice is there but cannot be taken.
  await page.getByRole("group", { name: "Format" }).getByText("GIF", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Subtitle track" })).toBeDisabled();
  await page.getByRole("group", { name: "Format" }).getByText("MP4", { exact: true }).click();
  await page.getByRole("group", { name: "Captions" }).getByText("Subtitle track", { exact: true }).click();
  // A language field that is not a code is refused on the page, before anything is sent.
  await page.getByLabel("Caption language").fill("English please");
  await page.getByRole("button", { name: "Create Clip" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "language code" })).toBeVisible();
  await page.getByLabel("Caption language").fill("de");
  await page.getByLabel("Also save an .srt file").check();
  await expectAccessible(page);

  if (SCREENS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.screenshot({ path: `${SCREENS}/clip-shorts-${width}.png`, fullPage: true });
    }
  }

  await page.getByRole("button", { name: "Create Clip" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sent to the ClipCut extension" })).toBeVisible();
  const sent = (await page.evaluate(() => (window as unknown as { __sent: unknown[] }).__sent)) as Record<
    string,
    unknown
  >[];
  const handed = sent.find((m) => m.action === "createClip");
  expect(handed).toMatchObject({
    name: "Vertical goal",
    format: "mp4",
    aspect: "9:16",
    captions: { track: "de", mode: "soft", srt: true },
  });
  expect(createClipMessageSchema.safeParse(handed).success).toBe(true);

  // What the extension's job records: the same request through API v1 with this account's token.
  const { action: _action, ...clip } = handed!;
  const token = ((await (await page.request.post("/api/v1/token")).json()) as { token: string }).token;
  const made = await page.request.post("/api/v1/clips", {
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": crypto.randomUUID() },
    data: { ...clip, endSeconds: Math.min(Number(clip.endSeconds), 5) },
  });
  expect(made.status(), await made.text()).toBe(201);

  await page.goto("/clips");
  const row = page.getByTestId("clip-row").filter({ hasText: "Vertical goal" });
  await expect(row).toContainText("9:16, centre");
  await expect(row).toContainText("de, subtitle track, .srt");
  await expectAccessible(page);
  if (SCREENS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.screenshot({ path: `${SCREENS}/clips-shorts-${width}.png`, fullPage: true });
    }
  }
  await row.getByRole("link", { name: "Vertical goal" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vertical goal");
  const facts = page.locator("dl");
  await expect(facts).toContainText("Aspect9:16, centre");
  await expect(facts).toContainText("Captionsde, subtitle track, .srt");
  if (SCREENS) await page.screenshot({ path: `${SCREENS}/view-clip-shorts.png`, fullPage: true });

  const admin = await pageAs("admin");
  await admin.goto("/admin/clips?q=Shorts+Creator");
  const adminRow = admin.getByTestId("clip-row").filter({ hasText: "Vertical goal" });
  await expect(adminRow).toContainText("MP4 · 720p · 9:16, centre · captions: de, subtitle track, .srt");
  if (SCREENS) {
    for (const width of [390, 1280]) {
      await admin.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await admin.screenshot({ path: `${SCREENS}/admin-clips-shorts-${width}.png`, fullPage: true });
    }
  }
});
