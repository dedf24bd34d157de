import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { ADMIN_FEED_NAME } from "~/services/realtime-control.server";
import { issueApiToken } from "~/services/api-tokens.server";
import type { AdminFeed } from "../../workers/admin-feed";
import { insertUser, post, signIn, expectNotice } from "./helpers";

/**
 * The ledger's one door (issue: plan, credits and ban changed outside the ledger were enforced wrongly): each test
 * changes money-like state the way an admin or a creator does, then checks that the very next request is decided
 * on the new state, and that open sockets hear it.
 */
const db = getDb(env.DB);
const PASSWORD = "one door passphrase";

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

const long4k = {
  name: "Long 4K",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 0,
  endSeconds: 150, // 150 s: over Free's 60 s, within Pro's 180 s
  format: "mp4",
  quality: "2160p",
};

function clipCall(token: string, body: unknown, path = "/api/v1/clips") {
  return exports.default.fetch(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        "Idempotency-Key": crypto.randomUUID(),
      },
      body: JSON.stringify(body),
    }),
  );
}

async function admin() {
  const email = `admin-${crypto.randomUUID()}@example.com`;
  await insertUser({ email, password: PASSWORD, role: "admin", plan: "Pro", credits: 500 });
  return signIn(email, PASSWORD);
}

async function creator(plan = "Free", credits = 1000) {
  const email = `creator-${crypto.randomUUID()}@example.com`;
  const userId = await insertUser({ email, password: PASSWORD, plan, credits });
  // A charge first, so the creator's ledger holds its state in memory (as a busy creator's does).
  const token = await issueApiToken(db, userId, "s");
  return { userId, email, token };
}

/** The admin's edit form: `shown` is the balance the form displayed (the ledger sets `credits` only if it still is). */
const editForm = (userId: string, plan: string, credits: number, shown = credits) => ({
  intent: "edit",
  userId,
  fullName: "Test Person",
  role: "user",
  plan,
  credits: String(credits),
  shownCredits: String(shown),
  reason: "",
  key: crypto.randomUUID(),
  // Step-up: plan and credit edits ask for the admin's password again.
  currentPassword: PASSWORD,
});

async function openSocket(path: string, cookie: string) {
  const res = await exports.default.fetch(
    new Request(`http://localhost${path}`, { headers: { Upgrade: "websocket", Cookie: cookie } }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const messages: { type: string; [k: string]: unknown }[] = [];
  ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data))));
  ws.accept();
  return { ws, messages };
}

describe("one door: an admin's change is enforced by the very next request", () => {
  it("an admin upgrade Free → Pro lets the next API call make a 150 s 2160p clip", async () => {
    const cookie = await admin();
    const { userId, token } = await creator("Free");
    expect((await clipCall(token, long4k)).status).toBe(403); // Free: at most 60 s, loaded into the ledger
    expect((await post("/admin/users", editForm(userId, "Pro", 1000), { cookie })).status).toBe(302);
    const res = await clipCall(token, long4k);
    expect(res.status).toBe(201);
    const row = await env.DB.prepare("SELECT plan, plan_period_end FROM users WHERE id = ?").bind(userId).first();
    expect(row).toMatchObject({ plan: "Pro" });
    expect((row as { plan_period_end: number }).plan_period_end).toBeGreaterThan(Date.now());
  });

  it("an admin downgrade Pro → Free refuses the next long clip", async () => {
    const cookie = await admin();
    const { userId, token } = await creator("Pro");
    expect((await clipCall(token, long4k)).status).toBe(201);
    expect((await post("/admin/users", editForm(userId, "Free", 1000 - 60), { cookie })).status).toBe(302);
    const res = await clipCall(token, long4k);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "plan_limit" } });
  });

  it("an unbanned creator clips again with a new token", async () => {
    const cookie = await admin();
    const { userId, token } = await creator("Free");
    const short = { ...long4k, endSeconds: 10, quality: "720p" };
    expect((await clipCall(token, short)).status).toBe(201);
    expectNotice(await post("/admin/users", { intent: "ban", userId }, { cookie }), "banned");
    expect((await clipCall(token, short)).status).toBe(401); // the ban revoked every token
    expectNotice(await post("/admin/users", { intent: "unban", userId }, { cookie }), "unbanned");
    const fresh = await issueApiToken(db, userId, "after-unban");
    const res = await clipCall(fresh, short);
    expect(res.status).toBe(201);
  });

  it("plugin connect keeps a plan an admin set", async () => {
    const cookie = await admin();
    const { userId, email, token } = await creator("Free");
    expect((await clipCall(token, { ...long4k, endSeconds: 10, quality: "720p" })).status).toBe(201);
    expect((await post("/admin/users", editForm(userId, "Basic", 999), { cookie })).status).toBe(302);
    const own = await signIn(email, PASSWORD);
    const connect = await post("/plugin-connect", {}, { cookie: own });
    expect(connect.status).toBe(200);
    const row = await env.DB.prepare("SELECT plan, credits FROM users WHERE id = ?").bind(userId).first();
    expect(row).toEqual({ plan: "Basic", credits: 1000 });
  });

  it("an admin's credit edit without a change of plan keeps the plan and moves the balance once", async () => {
    const cookie = await admin();
    const { userId } = await creator("Advanced", 100);
    const form = { ...editForm(userId, "Advanced", 250, 100), reason: "goodwill" };
    expect((await post("/admin/users", form, { cookie })).status).toBe(302);
    expect((await post("/admin/users", form, { cookie })).status).toBe(302); // the same form again: replayed
    const row = await env.DB.prepare("SELECT plan, credits FROM users WHERE id = ?").bind(userId).first();
    expect(row).toEqual({ plan: "Advanced", credits: 250 });
  });
});

describe("one door: batch processing is enforced on holds", () => {
  const hold = (token: string, i: number) =>
    clipCall(token, { ...long4k, name: `Batch ${i}`, endSeconds: 10, quality: "720p" }, "/api/v1/holds");

  it("Free and Basic hold one clip at a time", async () => {
    for (const plan of ["Free", "Basic"]) {
      const { token } = await creator(plan);
      expect((await hold(token, 1)).status).toBe(201);
      const second = await hold(token, 2);
      expect(second.status).toBe(403);
      expect(await second.json()).toEqual({
        error: {
          code: "plan_limit",
          reason: "batch_limit",
          message: "Batch processing is part of the Advanced plan: one clip at a time on your plan.",
        },
      });
    }
  });

  it("Advanced and Pro hold up to 10 at once, and a released hold frees its place", async () => {
    for (const plan of ["Advanced", "Pro"]) {
      const { token } = await creator(plan);
      const held = [];
      for (let i = 0; i < 10; i++) {
        const res = await hold(token, i);
        expect(res.status).toBe(201);
        held.push(((await res.json()) as { hold: { id: string } }).hold.id);
      }
      expect((await hold(token, 10)).status).toBe(403);
      const release = await clipCall(token, {}, `/api/v1/holds/${held[0]}/release`);
      expect(release.status).toBe(200);
      expect((await hold(token, 11)).status).toBe(201);
    }
  });

  it("/api/v1/me tells the extension how many clips may be in flight", async () => {
    const { token } = await creator("Advanced");
    const me = await exports.default.fetch(
      new Request("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(((await me.json()) as { limits: { maxOpenHolds: number } }).limits.maxOpenHolds).toBe(10);
  });
});

describe("one door: changes are heard live", () => {
  it("an admin's plan change reaches the creator's open page socket", async () => {
    const cookie = await admin();
    const { userId, email } = await creator("Free", 100);
    const page = await openSocket("/realtime", await signIn(email, PASSWORD));
    page.ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
    await expect.poll(() => page.messages.some((m) => m.type === "snapshot")).toBe(true);
    expect((await post("/admin/users", editForm(userId, "Advanced", 100), { cookie })).status).toBe(302);
    await expect
      .poll(() => page.messages.find((m) => m.type === "plan"), { timeout: 2000 })
      .toMatchObject({ type: "plan", data: { plan: "Advanced", pendingPlan: null } });
    page.ws.close();
  });

  it("a sign-up reaches an open admin feed socket", async () => {
    const feed = await openSocket("/admin/realtime", await admin());
    // Whatever the admin's own sign-in published is flushed first.
    await runInDurableObject(env.ADMIN_FEED.get(env.ADMIN_FEED.idFromName(ADMIN_FEED_NAME)), (feed: AdminFeed) =>
      feed.flush(),
    );
    feed.messages.length = 0;
    const res = await post("/signup", {
      fullName: "New Creator",
      email: `new-${crypto.randomUUID()}@example.com`,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(res.status).toBe(200);
    // The feed flushes 500 ms after the first event: a sign-up is on the page within a second.
    await expect
      .poll(() => feed.messages.find((m) => m.type === "invalidate"), { timeout: 3000 })
      .toMatchObject({ type: "invalidate", topics: expect.arrayContaining(["users"]) });
    feed.ws.close();
  });

  it("an admin's clip delete with refund is one operation, heard by the owner's page", async () => {
    const cookie = await admin();
    const { email, token } = await creator("Free", 100);
    const made = await clipCall(token, { ...long4k, endSeconds: 10, quality: "720p" });
    const { clip } = (await made.json()) as { clip: { id: string; cost: number } };
    const page = await openSocket("/realtime", await signIn(email, PASSWORD));
    page.ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
    await expect.poll(() => page.messages.some((m) => m.type === "snapshot")).toBe(true);
    expectNotice(
      await post("/admin/clips", { intent: "delete", clipId: clip.id, refund: "on" }, { cookie }),
      "deleted",
    );
    await expect
      .poll(() => page.messages.find((m) => m.type === "clipRemoved"), { timeout: 2000 })
      .toMatchObject({ data: { clipId: clip.id } });
    expect(page.messages.find((m) => m.type === "credits")).toMatchObject({ data: { balance: 100 } });
    page.ws.close();
  });
});

describe("one door: nothing else writes money-like state", () => {
  // Read from the source: the only files that may write users.plan/credits/status or credit_ledger rows.
  const sources = import.meta.glob(["../../app/**/*.{ts,tsx}", "../../workers/**/*.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  }) as Record<string, string>;
  const ALLOWED: Record<string, string> = {
    "../../app/db/ledger.server.ts": "turns the ledger's decisions into statements",
    "../../app/db/user-access.server.ts": "presence only (online/offline), conditional on not banned",
  };
  const writesMoney = [
    /insert\(\s*creditLedger\s*\)/,
    /INSERT INTO credit_ledger/i,
    /UPDATE users SET[^`"]*\b(credits|plan|status|pending_plan|plan_period_(start|end))\s*=/i,
    /\.update\(\s*users\s*\)\s*\.set\(\s*\{[^}]*\b(credits|plan|status|pendingPlan|planPeriodStart|planPeriodEnd)\s*:/,
  ];

  it("finds the writers it knows (the check can fail)", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const writers = Object.entries(sources)
      .filter(([, text]) => writesMoney.some((re) => re.test(text)))
      .map(([path]) => path);
    expect(writers).toContain("../../app/db/ledger.server.ts");
  });

  it("only the allowed files write plan, credits, status or ledger rows", () => {
    const writers = Object.entries(sources)
      .filter(([path]) => !path.endsWith(".test.ts"))
      .filter(([, text]) => writesMoney.some((re) => re.test(text)))
      .map(([path]) => path)
      .sort();
    expect(writers).toEqual(Object.keys(ALLOWED).sort());
  });
});

describe("one door: a clip can belong to a team member while the owner's ledger pays", () => {
  it("charges the owner, records the member as the clip's creator, and refunds and deletes through the owner", async () => {
    const owner = await insertUser({ email: `owner-${crypto.randomUUID()}@example.com`, plan: "Pro", credits: 100 });
    const member = await insertUser({ email: `member-${crypto.randomUUID()}@example.com`, credits: 7 });
    // The owner's ledger pays only for its members (read when it loads).
    await env.DB.prepare("INSERT INTO team_members (member_id, owner_id, role, joined_at) VALUES (?, ?, 'member', ?)")
      .bind(member, owner, Date.now())
      .run();
    const { ledger } = await import("~/services/ledger.server");
    const request = { ...long4k, endSeconds: 30, quality: "1080p" as const, format: "mp4" as const }; // 6 credits
    const charged = await ledger(env, owner).charge({ key: "team-1", request, source: "api", creatorId: member });
    expect(charged).toMatchObject({ ok: true, value: { credits: { balance: 94 } } });
    const clipId = charged.ok ? charged.value.clip.id : "";
    const row = await env.DB.prepare("SELECT user_id FROM clips WHERE id = ?").bind(clipId).first();
    expect(row).toEqual({ user_id: member });
    expect(
      (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(member).first<{ credits: number }>())
        ?.credits,
    ).toBe(7);
    const refund = await ledger(env, owner).refund({ clipId, reason: "test", deleteClip: true });
    expect(refund).toMatchObject({ ok: true, value: { credits: { balance: 100 } } });
    expect(await env.DB.prepare("SELECT id FROM clips WHERE id = ?").bind(clipId).first()).toBeNull();
  });
});

describe("one door: the client maps an unreachable ledger to busy", () => {
  it("answers 503 busy (never throws) when the object cannot be reached", async () => {
    const { ledger } = await import("~/services/ledger.server");
    const unreachable = {
      ...env,
      USER_LEDGER: {
        idFromName: (name: string) => env.USER_LEDGER.idFromName(name),
        get: () =>
          new Proxy(
            {},
            {
              get: () => () => Promise.reject(new Error("Durable Object reset because its code was updated.")),
            },
          ),
      },
    } as unknown as typeof env;
    const client = ledger(unreachable, crypto.randomUUID());
    expect(await client.changePlan({ plan: "Pro" })).toEqual({
      ok: false,
      status: 503,
      code: "busy",
      reason: "busy",
      message: "The ledger is busy. Nothing was charged; retry with the same Idempotency-Key.",
    });
    expect(await client.setBanned({ banned: true })).toMatchObject({ ok: false, code: "busy" });
    expect(await client.authenticate("hash")).toMatchObject({ ok: false, code: "busy" });
  });
});

describe("one door: no D1 read decides which ledger pays", () => {
  const sources = import.meta.glob(["../../app/**/*.{ts,tsx}", "../../workers/**/*.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  }) as Record<string, string>;
  // The money path: a clip, a hold and its settling, from the API route to the ledger objects and their effects.
  const MONEY_PATH = [
    "../../app/routes/api.v1.clips.tsx",
    "../../app/routes/api.v1.holds.tsx",
    "../../app/routes/api.v1.holds.$id.$op.tsx",
    "../../app/services/api-auth.server.ts",
    "../../app/services/ledger.server.ts",
    "../../workers/user-ledger.ts",
    "../../workers/payer-forwarding.ts",
    "../../workers/ledger-effects.ts",
  ];
  /** Reads of team membership or of a hold's owner, by name or by table. */
  const readsMembership = [
    /\b(membershipOf|billingAccount|holdOwner|memberEmails|relayTeamCredits|teamMembersOf)\b/,
    /from ["']~\/db\/teams\.server["']/,
    /billing-account\.server/,
    /\b(FROM|JOIN)\s+(team_members|credit_holds)\b/i,
    /\.from\(\s*(teamMembers|creditHolds)\s*\)/,
  ];

  it("knows every file of the money path (the check can fail)", () => {
    for (const path of MONEY_PATH) expect(sources[path], path).toBeTypeOf("string");
    expect(readsMembership.some((re) => re.test(sources["../../app/db/ledger.server.ts"]!))).toBe(true);
  });

  it("the money path reads no membership and no hold owner outside app/db/ledger*.server.ts", () => {
    const offending = MONEY_PATH.filter((path) => readsMembership.some((re) => re.test(sources[path]!)));
    expect(offending).toEqual([]);
  });

  it("nothing looks up which ledger holds a hold", () => {
    const lookups = Object.entries(sources)
      .filter(([path]) => !/\/app\/db\/ledger[^/]*\.server\.ts$/.test(path))
      .filter(([, text]) => /\bholdOwner\b|SELECT user_id[^`"]*FROM credit_holds WHERE id/i.test(text))
      .map(([path]) => path);
    expect(lookups).toEqual([]);
  });
});
