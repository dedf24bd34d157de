import { ADMIN_MESSAGES } from "../../app/domain/admin";
import { parseCsv } from "../../app/domain/csv";
import { expect, test } from "./fixtures";
import { hydrated, newUser } from "./helpers";

test.describe("admin back-office", () => {
  // Each test starts signed in as the demo admin (one sign-in per worker).
  test.use({ role: "admin" });

  // One test per screen, each with its own time budget (an axe scan takes 2–5 s here, twice that on a busy CI run).
  const screens: [string, string][] = [
    ["/admin", "Overviews"],
    ["/admin/calendars", "Calendars"],
    ["/admin/clips", "Clip Management"],
    ["/admin/analytics", "Analytics"],
    ["/admin/promotions", "Promotions"],
    ["/admin/payouts", "Affiliate Payouts"],
    ["/admin/users", "User Management"],
    ["/admin/earnings", "Earnings"],
    ["/admin/reviews", "Reviews"],
    ["/admin/reports", "Usage Reports"],
    ["/admin/settings", "Settings"],
    ["/admin/ledger", "Ledger health"],
    ["/admin/audit", "Audit log"],
  ];
  for (const [path, heading] of screens) {
    test(`${path} shows "${heading}" (axe runs on it)`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    });
  }

  test("the charts answer the mouse and the keyboard: growth tooltip, plan donut tooltip and readout", async ({
    page,
  }) => {
    await page.goto("/admin");
    // Growth Overview: the mouse over a bucket shows Tremor's tooltip with both series.
    const growth = page.getByTestId("growth-chart");
    await growth.locator(".recharts-surface").hover();
    await expect(growth.locator(".recharts-tooltip-wrapper")).toContainText("Clips Created");
    await expect(growth.locator(".recharts-tooltip-wrapper")).toContainText("New Users");
    // The plan donut is no longer inert: a sector shows its plan under the mouse.
    const donut = page.getByRole("figure", { name: "Plan distribution" });
    // (On the ring just right of its top, where the first sector starts: a sector's own centre may be the hole.)
    const ring = donut.locator(".recharts-surface");
    const box = (await ring.boundingBox())!;
    await ring.hover({ position: { x: box.width / 2 + 6, y: 12 } });
    await expect(donut.locator(".recharts-tooltip-wrapper")).toContainText(/Free|Basic|Advanced|Pro/);
    // The keyboard reads each plan: focus the donut, then Home.
    await donut.getByRole("group").focus();
    await page.keyboard.press("Home");
    await expect(donut.getByRole("status")).toContainText(/\d+ users \([\d.]+%\)/);
  });

  test("Calendars says “Loading clips...” and Usage Reports “Loading...” while their data is on its way", async ({
    page,
  }) => {
    // The data requests are held (a slow network), so the in-between texts stay long enough to read.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/calendars\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/admin/calendars");
    await hydrated(page);
    await page.locator('[role="gridcell"][aria-selected="false"] a[data-day]').first().click();
    // The navigation splash ("Loading…", also a status) may show beside it on a slow machine: name the page's own.
    await expect(page.getByRole("status").filter({ hasText: "Loading clips" })).toHaveText("Loading clips...");
    release();
    await expect(page.getByText("Loading clips...")).toHaveCount(0);

    // Usage Reports shows its own text when it reloads itself (another page shows the app's splash instead).
    await page.unroute(/\/admin\/calendars\.data/);
    await page.goto("/admin/reports");
    await hydrated(page);
    let releaseReports = () => {};
    const heldReports = new Promise<void>((resolve) => (releaseReports = resolve));
    await page.route(/\/admin\/reports\.data/, async (route) => {
      await heldReports;
      await route.continue();
    });
    await page.getByRole("link", { name: "Reports", exact: true }).first().click();
    // Three dots: the splash's "Loading…" (one ellipsis character) is not this status.
    await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toHaveText("Loading...");
    releaseReports();
    await expect(page.getByText("Loading...")).toHaveCount(0);
  });

  test("the ledger reconciles; the sidebar collapse survives a reload", async ({ page }) => {
    await page.goto("/admin/ledger");
    await expect(page.getByText("All balances reconcile")).toBeVisible();
    // Applied before paint, from localStorage.
    await page.getByRole("button", { name: "Collapse sidebar" }).click();
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-sidebar", "collapsed");
    await page.getByRole("button", { name: "Expand sidebar" }).click();
    expect(await page.evaluate(() => localStorage.getItem("sidebarCollapsed"))).toBe("false");
  });

  test("creates a clip through the modal: live cost, success text, auto-close", async ({ page }) => {
    await page.goto("/admin/clips");
    await page.getByRole("link", { name: "Create Clip" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Clip" });
    const submit = dialog.getByRole("button", { name: "Confirm & Create Clip" });
    await expect(submit).toBeDisabled();
    await dialog.getByLabel("Clip Name").fill("E2E modal clip");
    await dialog.getByLabel("YouTube Video URL").fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    await dialog.getByLabel("Start Time (mm:ss)").fill("00:30");
    await dialog.getByLabel("End Time (mm:ss)").fill("01:45");
    await expect(dialog.getByTestId("credit-cost")).toHaveText("8");
    await dialog.getByLabel("Quality").selectOption("1080p");
    await expect(dialog.getByTestId("credit-cost")).toHaveText("15");
    // The save is held (a slow network) so the button's in-between text can be read.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/clips\.data/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await submit.click();
    const processing = dialog.getByRole("button", { name: "Processing..." });
    await expect(processing).toHaveText("Processing...");
    await expect(processing).toBeDisabled();
    release();
    await expect(dialog.getByRole("status")).toHaveText(
      'Clip "E2E modal clip" created successfully! 15 credits were deducted.',
    );
    await expect(dialog).toBeHidden({ timeout: 10_000 }); // closes itself after AUTO_CLOSE_MS (2 s)
    const row = page.getByRole("row", { name: /E2E modal clip/ });
    await expect(row).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/clips$/);
    // Delete asks first (the browser's own confirm): dismissed, nothing is sent and the clip stays; accepted, it goes.
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname.startsWith("/admin/clips")) posts.push(r.url());
    });
    const asked: string[] = [];
    page.once("dialog", (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    const remove = row.getByRole("button", { name: "Delete E2E modal clip" });
    await remove.click();
    await expect.poll(() => asked).toEqual([ADMIN_MESSAGES.deleteClipConfirm]);
    await expect(row).toBeVisible();
    expect(posts, "a dismissed confirm sends nothing").toEqual([]);
    page.once("dialog", (d) => void d.accept());
    await remove.click();
    await expect(page.getByText("Clip deleted.", { exact: true })).toBeVisible();
    await expect(row).toBeHidden();
    expect(posts).toHaveLength(1);
    // Reopening starts from a clean form.
    await page.getByRole("link", { name: "Create Clip" }).click();
    await expect(dialog.getByLabel("Clip Name")).toHaveValue("");
    await expect(dialog.getByLabel("Start Time (mm:ss)")).toHaveValue("00:00");
    await expect(dialog.getByLabel("Quality")).toHaveValue("720p");
  });

  test("without JavaScript, Create Clip is a link to a form that creates the clip and lists it", async ({
    browser,
    roleState,
  }) => {
    const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: await roleState("admin") });
    const page = await noJs.newPage();
    const name = `No-JS clip ${Date.now()}`;
    await page.goto("/admin/clips");
    await page.getByRole("link", { name: "Create Clip" }).click();
    await expect(page).toHaveURL(/\/admin\/clips\?modal=create$/);
    const dialog = page.getByRole("dialog", { name: "Create Clip" });
    // A bad range comes back from the server with its message, the fields as typed.
    await dialog.getByLabel("Clip Name").fill(name);
    await dialog.getByLabel("YouTube Video URL").fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    await dialog.getByLabel("Start Time (mm:ss)").fill("00:40");
    await dialog.getByLabel("End Time (mm:ss)").fill("00:20");
    await dialog.getByRole("button", { name: "Confirm & Create Clip" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Clip duration must be greater than zero.");
    await expect(dialog.getByLabel("Clip Name")).toHaveValue(name);
    await dialog.getByLabel("End Time (mm:ss)").fill("01:40");
    await dialog.getByLabel("Quality").selectOption("1080p");
    await dialog.getByRole("button", { name: "Confirm & Create Clip" }).click();
    await expect(dialog.getByRole("status")).toHaveText(
      `Clip "${name}" created successfully! 12 credits were deducted.`,
    );
    await dialog.getByRole("link", { name: "Done" }).click();
    await expect(page).toHaveURL(/\/admin\/clips$/);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();
    await noJs.close();
  });

  test("filters, sorts and pages users; the CSV export matches the table", async ({ page }) => {
    await page.goto("/admin/users");
    await page.getByLabel("Plan").first().selectOption("Free");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/plan=Free/);
    // The address changes a moment before React renders the page it leads to: wait for the page itself (its sort
    // links keep the filter; the column reports its order) before the next click, or the click hits the old links.
    const creditsColumn = page.getByRole("columnheader", { name: /Credits/ });
    await expect(page.getByRole("link", { name: "Sort by Credits ascending" })).toHaveAttribute("href", /plan=Free/);
    await page.getByRole("link", { name: "Sort by Credits ascending" }).click();
    await expect(page).toHaveURL(/plan=Free.*sort=credits/);
    await expect(creditsColumn).toHaveAttribute("aria-sort", "ascending");
    await page.getByRole("link", { name: "Sort by Credits descending" }).click();
    await expect(page).toHaveURL(/plan=Free.*dir=desc/);
    await expect(creditsColumn).toHaveAttribute("aria-sort", "descending");
    // The sort menu does the same in the app, keeping the filters; the header reports the order it shows.
    await page.getByLabel("Sort", { exact: true }).selectOption("email:asc");
    await expect(page).toHaveURL(/plan=Free&sort=email$/);
    await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "ascending");
    await page.getByLabel("Sort", { exact: true }).selectOption("credits:desc");
    await expect(page).toHaveURL(/sort=credits&dir=desc/);
    const showing = page.getByTestId("showing");
    await expect(showing).toHaveText(/^Showing 1 to \d+ of \d+ results$/);
    const total = Number((await showing.textContent())?.match(/of (\d+)/)?.[1]);
    const credits = await page.getByTestId("user-row").locator("td:nth-child(5)").allTextContents();
    const numbers = credits.map((c) => Number(c.replace(/,/g, "")));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    if (total > 10) {
      await page.getByRole("link", { name: "Next page" }).click();
      // Other workers' tests sign up Free users meanwhile: the total may have grown.
      await expect(showing).toHaveText(/^Showing 11 to (1\d|20) of \d+ results$/);
      await page.getByRole("link", { name: "First page" }).click();
    }
    await expect(showing).toHaveText(/^Showing 1 to ([1-9]|10) of \d+ results$/);
    const tableEmails = await page.getByTestId("user-row").locator("td:nth-child(2)").allTextContents();
    const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    const res = await page.request.get(href ?? "");
    expect(res.headers()["content-disposition"]).toContain("users_export.csv");
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual(["ID", "Full Name", "Email", "Role", "Plan", "Credits", "Status"]);
    // Every filtered user, in the table's order (sign-ups made meanwhile by other workers may join the export).
    expect(rows.length - 1).toBeGreaterThanOrEqual(total);
    const csvEmails = rows.slice(1).map((r) => r[2]);
    expect(csvEmails.filter((e) => tableEmails.includes(e ?? ""))).toEqual(tableEmails);
    expect(rows.slice(1).every((r) => r[4] === "Free")).toBe(true);
  });

  test("bans and unbans a user", async ({ page, browser }) => {
    // A user of its own: a ban ends every session of the account, and the demo creator's session is shared by the
    // other tests of each worker (one of them, run after this ban, once found itself signed out).
    // Without the admin's cookies (the test's `use` options reach new contexts too): a sign-in replaces the session
    // it is sent with.
    const elsewhere = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const { email } = await newUser(await elsewhere.newPage(), { name: "Bea Banned" });
    await elsewhere.close();
    await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
    const row = page.getByRole("row", { name: /Bea Banned/ });
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toBe(
        "Are you sure you want to ban Bea Banned? This will mark their account as 'Banned'.",
      );
      void dialog.accept();
    });
    await row.getByRole("button", { name: "Ban Bea Banned" }).click();
    await expect(page.getByRole("status").filter({ hasText: "User banned." })).toBeVisible();
    await expect(row).toContainText("Banned");
    await row.getByRole("button", { name: "Unban Bea Banned" }).click();
    await expect(page.getByRole("status").filter({ hasText: "User unbanned." })).toBeVisible();
    await expect(row).toContainText("offline");
    await page.goto("/admin/audit?action=admin.user_");
    await expect(page.getByRole("cell", { name: "admin.user_unbanned" }).first()).toBeVisible();
  });

  test("Overviews counts a new sign-up without reloading", async ({ page, browser }) => {
    await page.goto("/admin");
    await expect(page.locator('[data-admin-live="live"]')).toBeAttached();
    const before = Number((await page.getByTestId("total-users").textContent())?.replace(/,/g, ""));
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    const other = await browser.newContext({ storageState: { cookies: [], origins: [] } }); // not the admin
    const newcomer = await other.newPage();
    await newUser(newcomer, { name: "Live Newcomer" });
    // Other workers sign people up too: the count must grow by at least this one, live.
    await expect
      .poll(async () => Number((await page.getByTestId("total-users").textContent())?.replace(/,/g, "")), {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(before + 1);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
    await other.close();
  });
});
