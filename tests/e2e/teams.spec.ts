import { expect, test } from "./fixtures";
import { latestLink, newUserOnDashboard, uniqueEmail } from "./helpers";

/** Screenshots for the closing note, only when asked (SCREENS_DIR), never in the repository. */
const SCREENS = process.env.SCREENS_DIR;

test("a Pro owner's invited member joins from the e-mail and clips; the owner's dashboard drops live", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const ownerEmail = uniqueEmail("owner");
  const memberEmail = uniqueEmail("member");
  await newUserOnDashboard(page, { name: "Olivia Owner", email: ownerEmail, plan: "Pro" });

  await page.goto("/team"); // axe runs on every goto (fixtures)
  await page.getByLabel("E-mail").fill(memberEmail);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${memberEmail}.` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Revoke ${memberEmail}` })).toBeVisible();

  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await newUserOnDashboard(member, { name: "Milo Member", email: memberEmail });
  const link = await latestLink(request, memberEmail, "/team/join/");
  await member.goto(link);
  await expect(member.getByText("Olivia Owner")).toBeVisible();
  if (SCREENS) await member.screenshot({ path: `${SCREENS}/team-join-1280.png`, fullPage: true });
  await member.getByRole("button", { name: "Join team" }).click();
  await expect(member).toHaveURL(/\/team$/);
  await expect(member.getByRole("heading", { name: "Olivia Owner's team" })).toBeVisible();
  await expect(member.getByRole("button", { name: "Leave team" })).toBeVisible();

  // The owner's dashboard is open and live before the member clips.
  await page.goto("/dashboard");
  await expect(page.locator('[data-connection="live"]').first()).toBeAttached();
  const before = Number((await page.getByTestId("credit-balance").innerText()).replace(/,/g, ""));
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
  // So is the member's: its team card shows the same shared balance.
  await member.goto("/dashboard");
  await expect(member.locator('[data-connection="live"]').first()).toBeAttached();
  await expect(member.getByTestId("team-credits")).toHaveText(`${before.toLocaleString("en-US")} shared credits`);

  const token = ((await (await member.request.post("/api/v1/token")).json()) as { token: string }).token;
  const res = await request.post("/api/v1/clips", {
    headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": `team-e2e-${Date.now()}` },
    data: {
      name: "Team goal",
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      startSeconds: 0,
      endSeconds: 30,
      format: "mp4",
      quality: "1080p",
    },
  });
  expect(res.status()).toBe(201);
  const { clip, credits } = (await res.json()) as { clip: { cost: number }; credits: { balance: number } };
  expect(credits.balance).toBe(before - clip.cost);
  await expect(page.getByTestId("credit-balance")).toHaveText((before - clip.cost).toLocaleString("en-US"));
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  // The member's open dashboard hears it too (relayed by their own ledger), without a reload.
  await expect(member.getByTestId("team-credits")).toHaveText(
    `${(before - clip.cost).toLocaleString("en-US")} shared credits`,
  );

  // The member's account shows the team's plan and balance and their own usage.
  const me = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${token}` } });
  expect(await me.json()).toMatchObject({
    user: { plan: "Pro" },
    credits: { balance: before - clip.cost },
    team: { usage: { clips: 1, credits: clip.cost } },
  });

  await page.goto("/team");
  await expect(page.getByRole("cell", { name: "Milo Member" })).toBeVisible();
  // The owner's Analytics has each person's figures from the team's balance.
  await page.goto("/analytics");
  const memberRow = page.getByTestId("team-figures").getByRole("row", { name: /Milo Member/ });
  await expect(memberRow).toContainText(`1${clip.cost}`);
  if (SCREENS) {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/team");
      await page.screenshot({ path: `${SCREENS}/team-owner-${width}.png`, fullPage: true });
      await page.goto("/analytics");
      await page.screenshot({ path: `${SCREENS}/analytics-owner-${width}.png`, fullPage: true });
      await member.setViewportSize({ width, height: 900 });
      await member.goto("/team");
      await member.screenshot({ path: `${SCREENS}/team-member-${width}.png`, fullPage: true });
    }
  }
  await memberContext.close();
});
