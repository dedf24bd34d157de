import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getOptionalUser } from "~/services/auth.server";
import { action as pluginConnectAction } from "~/routes/_app.plugin-connect";
import { get, insertUser, ORIGIN, post, signIn } from "./helpers";
import { textsOf, visibleText } from "./spec-texts";

// The spec's own words for the signed-in screens and the cutter, written out here on purpose (never imported from
// the app): a changed character in the app must fail these tests.

const PASSWORD = "spec texts user passphrase";

let people = 0;
async function signedIn(plan = "Free") {
  const email = `spec-texts-user-${++people}@example.com`;
  const id = await insertUser({ email, password: PASSWORD, plan });
  return { id, cookie: await signIn(email, PASSWORD) };
}

async function page(path: string, cookie?: string) {
  const res = await get(path, { cookie });
  const html = await res.text();
  return { status: res.status, html, text: visibleText(html) };
}

describe("/plugin-connect says the spec's words", () => {
  it("offers “Connect and get 1 free credit”, then says “Successfully connected! …”, then “already connected”", async () => {
    const { id, cookie } = await signedIn();
    const before = await page("/plugin-connect", cookie);
    expect(before.status).toBe(200);
    expect(textsOf(before.html, "button")).toContain("Connect and get 1 free credit");
    expect(before.text).not.toContain("Your account is already connected!");

    const connect = await post("/plugin-connect", {}, { cookie });
    expect(connect.status).toBe(200);
    expect(textsOf(await connect.text(), "p", 'role="status"')).toEqual([
      "Successfully connected! You have been awarded 1 free credit.",
    ]);
    expect(await env.DB.prepare("SELECT plan, credits FROM users WHERE id = ?").bind(id).first()).toEqual({
      plan: "Plugin",
      credits: 101,
    });

    const after = await page("/plugin-connect", cookie);
    expect(textsOf(after.html, "p", 'role="status"')).toContain("Your account is already connected!");
    expect(textsOf(after.html, "button")).not.toContain("Connect and get 1 free credit");
    const again = await post("/plugin-connect", {}, { cookie });
    expect(textsOf(await again.text(), "p", 'role="status"')).toEqual(["Your account is already connected!"]);

    // The stored Plugin plan is shown as Free on /billing/plan.
    const plan = await page("/billing/plan", cookie);
    expect(textsOf(plan.html, "h2", 'data-testid="plan-name"')).toEqual(["Free"]);
  });

  it("says “User profile not found.” when the account is gone by the time the ledger is asked", async () => {
    const { id, cookie } = await signedIn();
    const request = new Request(`${ORIGIN}/plugin-connect`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    const waits: Promise<unknown>[] = [];
    const context = {
      nonce: "spec-texts",
      cloudflare: {
        env: env as never,
        ctx: { waitUntil: (p: Promise<unknown>) => waits.push(p), passThroughOnException() {}, props: {} } as never,
      },
    };
    // The session was read (as the page's guard does first), then the account was deleted before the ledger ran.
    expect(await getOptionalUser(request, context)).not.toBeNull();
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(id).run();
    const answer = (await pluginConnectAction({ request, context, params: {} })) as unknown as {
      data: { ok: boolean; message: string };
      init: { status: number } | null;
    };
    await Promise.allSettled(waits);
    expect(answer.data).toEqual({ ok: false, message: "User profile not found." });
    expect(answer.init?.status).toBe(404);
  });
});

describe("/plugin-connect when the ledger cannot save", () => {
  it("says “Connection failed: …” with what happened and changes nothing", async () => {
    const { id, cookie } = await signedIn();
    await env.DB.exec(
      "CREATE TRIGGER spec_texts_refuse_ledger BEFORE INSERT ON credit_ledger BEGIN SELECT RAISE(ABORT, 'refused by test'); END",
    );
    try {
      const res = await post("/plugin-connect", {}, { cookie });
      expect(res.status).toBe(500);
      expect(textsOf(await res.text(), "p", 'role="alert"')).toEqual([
        "Connection failed: your account could not be updated, so nothing was changed. Please try again.",
      ]);
    } finally {
      await env.DB.exec("DROP TRIGGER spec_texts_refuse_ledger");
    }
    expect(await env.DB.prepare("SELECT plan, credits FROM users WHERE id = ?").bind(id).first()).toEqual({
      plan: "Free",
      credits: 100,
    });
  });
});

describe("/dashboard says the spec's words", () => {
  it("the cards' links, “Recent Activity” and the empty state", async () => {
    const { cookie } = await signedIn();
    const { status, html } = await page("/dashboard", cookie);
    expect(status).toBe(200);
    expect(html).toMatch(/<a[^>]*href="\/pricing"[^>]*>Buy More Credits<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/billing\/plan"[^>]*>Manage Plan<\/a>/);
    expect(textsOf(html, "h2")).toContain("Recent Activity");
    expect(textsOf(html, "p")).toContain("No clips created yet");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Create New Clip<\/a>/);
  });
});

describe("/billing and /billing/plan say the spec's words", () => {
  it("/billing: no payment method, “Add payment method”, the history's columns and “No invoices yet.”", async () => {
    const { cookie } = await signedIn();
    const { status, html } = await page("/billing", cookie);
    expect(status).toBe(200);
    expect(textsOf(html, "p")).toContain("You don't have a payment method saved.");
    expect(textsOf(html, "button")).toContain("Add payment method");
    expect(textsOf(html, "th")).toEqual(["Invoice", "Date", "Amount", "Status", "Download"]);
    expect(textsOf(html, "td")).toEqual(["No invoices yet."]);
  });

  it("/billing/plan: the plan, “Normal Mode”, the Free plan's sentence and both links", async () => {
    const { cookie } = await signedIn();
    const { html } = await page("/billing/plan", cookie);
    expect(textsOf(html, "h2", 'data-testid="plan-name"')).toEqual(["Free"]);
    expect(textsOf(html, "span")).toContain("Normal Mode");
    expect(textsOf(html, "p")).toContain("Your current plan with one-time starter credits");
    expect(html).toMatch(/<a[^>]*href="\/credits"[^>]*>View Credits<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/pricing"[^>]*>View Upgrade Options<\/a>/);
  });
});

describe("/billing/plan's refusal", () => {
  it("says “Failed to update plan: {message}” and keeps the plan", async () => {
    const { id, cookie } = await signedIn();
    const res = await post("/billing/plan", { plan: "Platinum", billing: "monthly" }, { cookie });
    expect(res.status).toBe(400);
    expect(textsOf(await res.text(), "p", 'role="alert"')).toEqual(["Failed to update plan: Unknown plan."]);
    expect(await env.DB.prepare("SELECT plan FROM users WHERE id = ?").bind(id).first()).toEqual({ plan: "Free" });
  });
});

describe("the Video Cutter (/clip) says the spec's words", () => {
  it("a link that is not a YouTube video: “Invalid YouTube URL. Please enter a valid link.”", async () => {
    for (const url of ["https://example.com/watch?v=abc", "https://youtu.be/short", "not a link"]) {
      const { status, html } = await page(`/clip?url=${encodeURIComponent(url)}`);
      expect(status).toBe(200);
      expect(textsOf(html, "p", 'role="alert"')).toEqual(["Invalid YouTube URL. Please enter a valid link."]);
    }
    const good = await page(`/clip?url=${encodeURIComponent("https://youtu.be/dQw4w9WgXcQ")}`);
    expect(good.text).not.toContain("Invalid YouTube URL");
    expect(textsOf(good.html, "button")).toContain("Load Video");
  });
});
