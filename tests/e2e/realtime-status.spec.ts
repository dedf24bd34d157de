import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const FAILED = "Real-time connection failed.";

/**
 * Sends the page's realtime sockets to a path of our server that is no socket (a real failed handshake, every attempt),
 * and installs a clock so the client's backoff can be run through in seconds instead of a minute.
 */
async function refuseRealtime(page: Page) {
  await page.clock.install();
  await page.addInitScript(() => {
    const RealSocket = window.WebSocket;
    const counted = window as unknown as { realtimeRefusals: number };
    counted.realtimeRefusals = 0;
    window.WebSocket = class extends RealSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        const target = new URL(url);
        const refused = /\/realtime$/.test(target.pathname);
        if (refused) target.pathname += "-refused";
        super(target, protocols);
        if (refused) this.addEventListener("close", () => counted.realtimeRefusals++);
      }
    };
  });
}

const refusals = (page: Page) =>
  page.evaluate(() => (window as unknown as { realtimeRefusals?: number }).realtimeRefusals ?? 0);

/**
 * Runs the reconnect delays (each at most about 10 s) until the client gives up: each round waits for the attempt's
 * real refusal (slow on a loaded machine), then moves the page's clock past the next delay.
 */
async function runThroughRetries(page: Page, failedText: ReturnType<Page["getByText"]>) {
  for (let round = 0; round < 40 && !(await failedText.isVisible()); round++) {
    const before = await refusals(page);
    await page.clock.runFor(11_000);
    await expect
      .poll(async () => (await refusals(page)) > before || (await failedText.isVisible()), { timeout: 15_000 })
      .toBe(true)
      .catch(() => undefined); // the client may have given up without another attempt
  }
}

test.describe("when the page's realtime gives up", () => {
  test.use({ role: "creator", viewport: { width: 390, height: 844 } });
  // Every attempt is a real refused handshake: on a loaded machine each takes seconds.
  test.setTimeout(180_000);

  test("a signed-in page on a phone shows the spec's text with a retry, not an endless Reconnecting", async ({
    page,
  }) => {
    await refuseRealtime(page);
    // The demo session already dismissed the maintenance notice (signed in once per worker).
    await page.goto("/credits");
    const header = page.getByTestId("mobile-connection");
    const failed = header.getByText(FAILED);
    await runThroughRetries(page, failed);
    await expect(failed).toBeVisible();
    await expect(header.getByRole("alert")).toContainText(FAILED);
    await expect(header.getByRole("button", { name: "Retry" })).toBeVisible();
  });
});

test.describe("admin pages", () => {
  test.setTimeout(180_000);

  test("the admin feed that gives up says so, with a retry", async ({ pageAs }) => {
    const admin = await pageAs("admin");
    await refuseRealtime(admin);
    await admin.goto("/admin/users");
    const failed = admin.locator('[data-admin-live="failed"]');
    await runThroughRetries(admin, failed.getByText(FAILED));
    await expect(failed).toHaveText(new RegExp(FAILED.replace(".", "\\.")));
    await expect(failed.getByRole("button", { name: "Retry" })).toBeVisible();
  });

  test("when the admin feed says the session ended, the page goes to sign-in with the notice", async ({ pageAs }) => {
    const admin = await pageAs("admin");
    // The feed's answer for a session that ended (ban, sign-out everywhere); the session itself stays valid so that
    // this worker's other admin tests keep theirs.
    await admin.routeWebSocket(/\/admin\/realtime$/, (ws) => ws.close({ code: 4001, reason: "access ended" }));
    const signin = admin.waitForRequest((r) => r.url().includes("/signin?notice=session_ended"));
    await admin.goto("/admin/users?page=1");
    const url = new URL((await signin).url());
    expect(url.searchParams.get("redirectTo")).toBe("/admin/users?page=1");
    // A routed socket still open at teardown held the context's close past the test's timeout (CI under load).
    await admin.unrouteAll({ behavior: "ignoreErrors" });
  });

  test("when the admin feed says admin access ended, the page goes to the user dashboard", async ({ pageAs }) => {
    const admin = await pageAs("admin");
    await admin.routeWebSocket(/\/admin\/realtime$/, (ws) => ws.close({ code: 4003, reason: "not an admin" }));
    await admin.goto("/admin/users");
    await expect(admin).toHaveURL(/\/dashboard$/);
    await admin.unrouteAll({ behavior: "ignoreErrors" });
  });
});
