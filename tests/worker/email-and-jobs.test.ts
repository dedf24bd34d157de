import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { actionEmail, EmailDeliveryError, sendEmail } from "~/services/email.server";
import { runScheduled } from "../../workers/scheduled";
import { insertUser, outbox } from "./helpers";

const db = getDb(env.DB);
const message = actionEmail({
  to: "a@example.com",
  subject: "Hi",
  intro: "Intro <b>",
  action: "Go",
  url: "https://x.test/go?a=1&b=2",
  outro: "Bye",
});

describe("e-mail", () => {
  it("posts to the configured provider in production, with the key and the message", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeProvider: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init: init ?? {} });
      return Response.json({ id: "email_123" });
    };
    const production = {
      ...env,
      APP_MODE: "production",
      EMAIL_API_URL: "https://mail.test/emails",
      EMAIL_API_KEY: "re_test",
      EMAIL_FROM: "ClipCut <no-reply@clipcut.app>",
    } as AppEnv;
    await sendEmail({ env: production, db, fetcher: fakeProvider }, message);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("https://mail.test/emails");
    expect(new Headers(calls[0]?.init.headers).get("Authorization")).toBe("Bearer re_test");
    const body = JSON.parse(String(calls[0]?.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ from: "ClipCut <no-reply@clipcut.app>", to: ["a@example.com"], subject: "Hi" });
    expect(String(body.html)).toContain("Intro &lt;b&gt;"); // escaped
    expect(String(body.html)).toContain('href="https://x.test/go?a=1&amp;b=2"');
    // Nothing lands in the local outbox in production.
    expect((await outbox()).filter((m) => m.to === "a@example.com")).toEqual([]);
  });

  it("fails loudly when the provider refuses or is not configured", async () => {
    const refusing: typeof fetch = async () => new Response("nope", { status: 422 });
    const production = {
      ...env,
      APP_MODE: "production",
      EMAIL_API_URL: "https://mail.test/emails",
      EMAIL_API_KEY: "k",
      EMAIL_FROM: "f@x.test",
    } as AppEnv;
    await expect(sendEmail({ env: production, db, fetcher: refusing }, message)).rejects.toThrow(EmailDeliveryError);
    await expect(sendEmail({ env: { ...env, APP_MODE: "production" } as AppEnv, db }, message)).rejects.toThrow(
      /not configured/,
    );
  });

  it("serves the outbox only in local mode", async () => {
    const { exports } = await import("cloudflare:workers");
    expect((await exports.default.fetch(new Request("http://localhost/dev/outbox"))).status).toBe(200);
  });
});

describe("scheduled safety net", () => {
  it("renews due periods and expires stale holds, once however often it runs", async () => {
    const userId = await insertUser({ email: "cron@example.com", credits: 100, plan: "Basic" });
    const ended = Date.now() - 1000;
    await env.DB.prepare("UPDATE users SET plan_period_start = ?, plan_period_end = ? WHERE id = ?")
      .bind(ended - 30 * 86_400_000, ended, userId)
      .run();
    expect(await runScheduled(env)).toBe(1);
    await runScheduled(env);
    const row = await env.DB.prepare("SELECT credits, plan_period_end FROM users WHERE id = ?")
      .bind(userId)
      .first<{ credits: number; plan_period_end: number }>();
    expect(row?.credits).toBe(600);
    expect(row?.plan_period_end).toBe(ended + 30 * 86_400_000);
    // The alarm set for the new period end exists and is idempotent too.
    await runDurableObjectAlarm(env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId)));
    expect(
      (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(userId).first<{ credits: number }>())
        ?.credits,
    ).toBe(600);
  });
});

describe("admin feed", () => {
  it("batches many change events into one invalidate message", async () => {
    const stub = env.ADMIN_FEED.get(env.ADMIN_FEED.idFromName("test-feed"));
    const res = await stub.fetch(
      new Request("http://feed/", { headers: { Upgrade: "websocket", "X-ClipCut-User": "feed-test-admin" } }),
    );
    const ws = res.webSocket;
    if (!ws) throw new Error("no socket");
    ws.accept();
    const messages: { v: number; type: string; topics: string[]; events: number }[] = [];
    ws.addEventListener("message", (e) => messages.push(JSON.parse(String(e.data))));
    const started = Date.now();
    for (let i = 0; i < 25; i++) await stub.publish(i % 5 === 0 ? "users" : "clips");
    const elapsed = Date.now() - started;
    await runDurableObjectAlarm(stub);
    const delivered = () => messages.reduce((n, m) => n + m.events, 0);
    for (let i = 0; i < 100 && delivered() < 25; i++) await new Promise((r) => setTimeout(r, 10));
    // Every event arrives, as invalidate hints naming both topics between them; at most one hint per flush window
    // (500 ms) the publishing took — on an idle machine that is exactly one hint for all 25 events.
    expect(delivered()).toBe(25);
    expect(messages.every((m) => m.v === 1 && m.type === "invalidate")).toBe(true);
    expect(new Set(messages.flatMap((m) => m.topics))).toEqual(new Set(["users", "clips"]));
    expect(messages.length).toBeLessThanOrEqual(Math.floor(elapsed / 500) + 1);
    ws.close();
  });
});
