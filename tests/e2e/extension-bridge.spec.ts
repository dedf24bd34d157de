import { expect, test } from "./fixtures";
import { dismissNotice, signUp, uniqueEmail } from "./helpers";

/**
 * A stand-in for the extension's Firefox content script: it answers the page's window messages from our origin
 * and records what it was sent. (Chrome's externally_connectable path needs a real extension.)
 */
function fakeExtension() {
  const received: { action: string; apiKey?: string; plan?: string }[] = [];
  (window as unknown as { __extension: typeof received }).__extension = received;
  window.addEventListener("message", (event) => {
    const data = event.data as { source?: string; requestId?: string; message?: { action: string } } | null;
    if (event.source !== window || data?.source !== "clipcut-page" || !data.message) return;
    received.push(data.message);
    window.postMessage(
      { source: "clipcut-extension", requestId: data.requestId, reply: { success: true, message: "ok" } },
      location.origin,
    );
  });
}

test("after sign-in the extension gets a revocable token; sign-out clears it and the token dies", async ({
  page,
  request,
}) => {
  // Sign-up, a paid upgrade through the local checkout and sign-out: more than 60 s on a loaded 2-core machine.
  test.setTimeout(120_000);
  await page.addInitScript(fakeExtension);
  await signUp(page, request, "Extension User", uniqueEmail("ext"), "extension passphrase");
  await dismissNotice(page);
  const sent = () =>
    page.evaluate(() => (window as unknown as { __extension: { action: string; apiKey?: string }[] }).__extension);
  await expect.poll(async () => (await sent()).map((m) => m.action)).toContain("setApiKey");
  const apiKey = (await sent()).find((m) => m.action === "setApiKey")?.apiKey ?? "";
  expect(apiKey).toMatch(/^cc_/);
  const me = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(me.status()).toBe(200);

  // A plan change reaches the extension too. It is paid through the local Stripe checkout in another tab (the
  // paying tab leaves the site, as for Stripe's hosted page); this open page hears the ledger's plan message.
  await expect(page.locator('[data-connection="live"]').first()).toBeAttached();
  const payer = await page.context().newPage();
  await payer.goto("/billing/plan");
  await payer.getByRole("button", { name: "Upgrade to Basic" }).click();
  await payer.getByLabel("Card number").fill("4242 4242 4242 4242");
  await payer.getByRole("button", { name: "Pay and subscribe" }).click();
  await expect(payer.getByRole("status").filter({ hasText: "Successfully changed plan to Basic!" })).toBeVisible();
  await payer.close();
  await expect.poll(async () => (await sent()).some((m) => m.action === "userPlanUpdated")).toBe(true);
  await page.goto("/billing/plan");
  await expect(page.getByTestId("plan-name")).toHaveText("Basic");

  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page).toHaveURL(/\/signin$/);
  // The page that signed out told the extension before leaving; the server revoked the token either way.
  const after = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(after.status()).toBe(401);
});

test("without an extension the site asks for no token", async ({ page, request }) => {
  // The page's clock is ours: the bridge's 1.5 s wait for an answer passes when the test says, not after a sleep.
  await page.clock.install();
  await page.addInitScript(() => {
    const asked: string[] = [];
    (window as unknown as { __asked: string[] }).__asked = asked;
    window.addEventListener("message", (event) => {
      const data = event.data as { source?: string; message?: { action: string } } | null;
      if (data?.source === "clipcut-page" && data.message) asked.push(data.message.action);
    });
    const fetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes("/api/v1/token")) asked.push("token request");
      return fetch(input, init);
    };
  });
  const tokenRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/token")) tokenRequests.push(r.url());
  });
  await signUp(page, request, "No Extension", uniqueEmail("noext"), "plain passphrase");
  await dismissNotice(page);
  // The site did look for an extension, nobody answered, and the wait for an answer ran out.
  await expect.poll(() => page.evaluate(() => (window as unknown as { __asked: string[] }).__asked)).toEqual(["ping"]);
  await page.clock.runFor(2000);
  expect(await page.evaluate(() => (window as unknown as { __asked: string[] }).__asked)).toEqual(["ping"]);
  expect(tokenRequests).toEqual([]);
});
