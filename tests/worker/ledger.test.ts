import { localLedger } from "../../workers/local/ledger-clock";
import { runDurableObjectAlarm } from "cloudflare:test";
import { ledger as ledgerClient } from "~/services/ledger.server";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { ZERO_DURATION_MESSAGE } from "~/domain/credits";
import { PLAN_PERIOD_MS } from "~/domain/plans";
import { serverMessageSchema } from "~/domain/realtime";
import { issueApiToken } from "~/services/api-tokens.server";
import { countRows, insertUser, signIn } from "./helpers";

const db = getDb(env.DB);
const clip = (over: Record<string, unknown> = {}) => ({
  name: "Goal!",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25, // 15 s at 720p = 2 credits
  format: "mp4",
  quality: "720p",
  ...over,
});

async function apiUser(credits = 100, plan = "Free") {
  const userId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, credits, plan });
  const token = await issueApiToken(db, userId, "test-session");
  return { userId, token };
}

function api(path: string, token: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  if (init.key) headers["Idempotency-Key"] = init.key;
  return exports.default.fetch(
    new Request(`http://localhost${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
}

const balance = async (userId: string) =>
  (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(userId).first<{ credits: number }>())?.credits;

afterEach(async () => {
  // The invariant holds after every test: credits == sum(ledger) >= 0 for every user.
  expect(await reconcile(db)).toEqual([]);
});

describe("charging clips through API v1", () => {
  it("survives 200 concurrent charges with 10% repeated keys: exact balance, one ledger row per key", async () => {
    const { userId, token } = await apiUser(1000);
    const keys = Array.from({ length: 180 }, (_, i) => `key-${i.toString().padStart(4, "0")}`);
    const requests = [...keys, ...keys.slice(0, 20)].map((key) =>
      api("/api/v1/clips", token, { body: clip({ name: key }), key }),
    );
    const responses = await Promise.all(requests);
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(180);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20); // replays answer with the first result
    expect(await balance(userId)).toBe(1000 - 180 * 2);
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ? AND kind = 'clip'", userId)).toBe(
      180,
    );
    expect(await countRows("SELECT count(*) n FROM clips WHERE user_id = ?", userId)).toBe(180);
    // A correctness test, not a speed one: 200 requests through the Worker take 3-7 s on 2 busy cores.
  }, 30_000);

  it("answers a retry with the first result and a reused key with another body with 409", async () => {
    const { userId, token } = await apiUser(100);
    const first = await api("/api/v1/clips", token, { body: clip(), key: "retry-key-1" });
    const again = await api("/api/v1/clips", token, { body: clip(), key: "retry-key-1" });
    const a = (await first.json()) as { clip: { id: string } };
    const b = (await again.json()) as { clip: { id: string } };
    expect(b.clip.id).toBe(a.clip.id);
    const conflict = await api("/api/v1/clips", token, { body: clip({ name: "Other" }), key: "retry-key-1" });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: { code: string } }).error.code).toBe("idempotency_conflict");
    expect(await balance(userId)).toBe(98);
  });

  it("refuses a charge larger than the balance with the spec's message and moves nothing", async () => {
    const { userId, token } = await apiUser(3);
    const res = await api("/api/v1/clips", token, { body: clip({ endSeconds: 50 }), key: "too-expensive" }); // 40 s → 4
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      error: {
        code: "insufficient_credits",
        reason: "insufficient_credits",
        message: "You do not have enough credits to create this clip.",
      },
    });
    expect(await balance(userId)).toBe(3);
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ?", userId)).toBe(1);
    expect(await countRows("SELECT count(*) n FROM clips WHERE user_id = ?", userId)).toBe(0);
  });

  it("leaves balance and ledger unchanged when the clip insert fails", async () => {
    const { userId, token } = await apiUser(100);
    await env.DB.exec(
      "CREATE TRIGGER fail_boom BEFORE INSERT ON clips WHEN NEW.name = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END;",
    );
    const res = await api("/api/v1/clips", token, { body: clip({ name: "boom" }), key: "boom-key-1" });
    await env.DB.exec("DROP TRIGGER fail_boom");
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("No credits were deducted");
    expect(await balance(userId)).toBe(100);
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ?", userId)).toBe(1);
    // The same key works afterwards: the failed attempt left nothing behind.
    expect((await api("/api/v1/clips", token, { body: clip({ name: "boom" }), key: "boom-key-1" })).status).toBe(201);
  });

  it("answers a clip beyond the plan's length, quality or format with 403 plan_limit and the limit's message", async () => {
    const { token } = await apiUser(1000, "Free");
    const long = await api("/api/v1/clips", token, { body: clip({ endSeconds: 80 }), key: "limit-len-1" });
    expect(long.status).toBe(403);
    const body = (await long.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("plan_limit");
    expect(body.error.message).toContain("Upgrade to Basic");
    expect((await api("/api/v1/clips", token, { body: clip({ quality: "1080p" }), key: "limit-q-1" })).status).toBe(
      403,
    );
    expect((await api("/api/v1/clips", token, { body: clip({ format: "wav" }), key: "limit-f-1" })).status).toBe(403);
  });

  it("rejects bad input with clear 4xx answers and no change", async () => {
    const { userId, token } = await apiUser(100);
    expect((await api("/api/v1/clips", token, { body: clip() })).status).toBe(400); // no Idempotency-Key
    const bad = await api("/api/v1/clips", token, { body: clip({ endSeconds: 5 }), key: "bad-input-1" });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain(ZERO_DURATION_MESSAGE);
    expect((await api("/api/v1/clips", "cc_wrong", { body: clip(), key: "bad-input-2" })).status).toBe(401);
    expect((await api("/api/v1/nope", token)).status).toBe(404);
    expect(await balance(userId)).toBe(100);
  });

  it("refuses a clip shorter than 0.1 s or past 24 h on clips and holds, and charges nothing", async () => {
    const { userId, token } = await apiUser(100);
    const cases = [
      { startSeconds: 10, endSeconds: 10.0000001 },
      { startSeconds: 10, endSeconds: 10.09 },
      { startSeconds: 0, endSeconds: 24 * 3600 + 1 },
    ];
    for (const [i, times] of cases.entries()) {
      for (const path of ["/api/v1/clips", "/api/v1/holds"]) {
        const res = await api(path, token, { body: clip(times), key: `too-short-${path.length}-${i}` });
        expect(res.status, `${path} ${JSON.stringify(times)}`).toBe(422);
      }
    }
    // 0.1 s exactly (float noise included: 10.1 - 10 < 0.1 in binary) is a clip.
    const ok = await api("/api/v1/clips", token, {
      body: clip({ startSeconds: 10, endSeconds: 10.1 }),
      key: "min-ok-1",
    });
    expect(ok.status).toBe(201);
    expect(await balance(userId)).toBe(99);
  });

  it("reports me and lists clips newest first with paging", async () => {
    const { userId, token } = await apiUser(100, "Basic");
    const me = (await (await api("/api/v1/me", token)).json()) as {
      user: { id: string };
      credits: unknown;
      limits: { maxClipSeconds: number };
    };
    expect(me.user.id).toBe(userId);
    expect(me.credits).toEqual({ balance: 100, held: 0, available: 100 });
    expect(me.limits.maxClipSeconds).toBe(90);
    for (let i = 0; i < 3; i++)
      await api("/api/v1/clips", token, { body: clip({ name: `c${i}` }), key: `list-key-${i}` });
    const page1 = (await (await api("/api/v1/clips?limit=2", token)).json()) as {
      clips: { name: string }[];
      nextBefore: string;
    };
    expect(page1.clips.map((c) => c.name)).toEqual(["c2", "c1"]);
    const page2 = (await (await api(`/api/v1/clips?limit=2&before=${page1.nextBefore}`, token)).json()) as {
      clips: { name: string }[];
    };
    expect(page2.clips.map((c) => c.name)).toEqual(["c0"]);
  });
});

describe("holds for extension jobs", () => {
  it("hold then capture charges once and creates the clip", async () => {
    const { userId, token } = await apiUser(10);
    const res = await api("/api/v1/holds", token, { body: clip(), key: "hold-cap-1" });
    expect(res.status).toBe(201);
    const { hold, credits } = (await res.json()) as {
      hold: { id: string; amount: number };
      credits: { balance: number; available: number };
    };
    expect(credits).toMatchObject({ balance: 10, held: 2, available: 8 });
    const cap = await api(`/api/v1/holds/${hold.id}/capture`, token, { body: {} });
    expect(cap.status).toBe(200);
    expect(((await cap.json()) as { credits: unknown }).credits).toEqual({ balance: 8, held: 0, available: 8 });
    expect((await api(`/api/v1/holds/${hold.id}/capture`, token, { body: {} })).status).toBe(200); // idempotent
    expect(await balance(userId)).toBe(8);
    expect(await countRows("SELECT count(*) n FROM clips WHERE user_id = ?", userId)).toBe(1);
    expect((await api(`/api/v1/holds/${hold.id}/release`, token, { body: {} })).status).toBe(409);
  });

  it("hold then release gives everything back", async () => {
    const { userId, token } = await apiUser(10);
    const { hold } = (await (await api("/api/v1/holds", token, { body: clip(), key: "hold-rel-1" })).json()) as {
      hold: { id: string };
    };
    const rel = await api(`/api/v1/holds/${hold.id}/release`, token, { body: {} });
    expect(((await rel.json()) as { credits: unknown }).credits).toEqual({ balance: 10, held: 0, available: 10 });
    expect((await api(`/api/v1/holds/${hold.id}/capture`, token, { body: {} })).status).toBe(409);
    expect(await balance(userId)).toBe(10);
  });

  it("a hold nobody captures expires through the Durable Object alarm", async () => {
    const { userId, token } = await apiUser(10);
    const { hold } = (await (await api("/api/v1/holds", token, { body: clip(), key: "hold-exp-1" })).json()) as {
      hold: { id: string };
    };
    expect(
      ((await (await api("/api/v1/me", token)).json()) as { credits: { available: number } }).credits.available,
    ).toBe(8);
    await env.DB.prepare("UPDATE credit_holds SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, hold.id)
      .run();
    const ran = await runDurableObjectAlarm(env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId)));
    expect(ran).toBe(true);
    const row = await env.DB.prepare("SELECT status FROM credit_holds WHERE id = ?").bind(hold.id).first();
    expect(row).toEqual({ status: "expired" });
    expect((await api(`/api/v1/holds/${hold.id}/capture`, token, { body: {} })).status).toBe(409);
    expect(await balance(userId)).toBe(10);
  });

  it("refuses a hold beyond the available balance", async () => {
    const { token } = await apiUser(3);
    expect((await api("/api/v1/holds", token, { body: clip(), key: "hold-a-1" })).status).toBe(201);
    expect((await api("/api/v1/holds", token, { body: clip({ name: "b" }), key: "hold-b-1" })).status).toBe(402);
  });
});

describe("plans, plugin connect and starter credits", () => {
  it("an upgrade asked of the ledger directly is refused: no plan, no credits without a paid invoice", async () => {
    const userId = await insertUser({ email: "plan@example.com", credits: 100 });
    const up = await ledgerClient(env, userId).changePlan({ plan: "Basic" });
    expect(up).toMatchObject({ ok: false, status: 403 });
    expect(!up.ok && up.message).toContain("bought through checkout");
    const basic = await insertUser({ email: "plan-basic@example.com", credits: 600, plan: "Basic" });
    expect(await ledgerClient(env, basic).changePlan({ plan: "Pro" })).toMatchObject({ ok: false, status: 403 });
    for (const id of [userId, basic]) {
      const row = await env.DB.prepare("SELECT plan, pending_plan FROM users WHERE id = ?").bind(id).first();
      expect(row).toEqual({ plan: id === userId ? "Free" : "Basic", pending_plan: null });
      expect(
        await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ? AND kind = 'plan_grant'", id),
      ).toBe(0);
    }
    expect(await balance(userId)).toBe(100);
    expect(await balance(basic)).toBe(600);
  });

  it("a move down waits for the period's end; the renewal there grants the lower plan once", async () => {
    const userId = await insertUser({ email: "down@example.com", credits: 100 });
    const now = Date.now();
    // The plan and its period come from a subscription (what a paid invoice's webhook applies).
    const applied = await ledgerClient(env, userId).applySubscription({
      facts: {
        status: "active",
        plan: "Advanced",
        billing: "monthly",
        periodStart: now - 1000,
        periodEnd: now - 1000 + PLAN_PERIOD_MS,
        cancelAtPeriodEnd: false,
        paidPlan: null,
        paidUntil: null,
      },
    });
    expect(applied.ok).toBe(true);
    const down = await ledgerClient(env, userId).changePlan({ plan: "Basic" });
    expect(down.ok && down.value.effective).toBe("period_end");
    const row = await env.DB.prepare("SELECT plan, pending_plan, plan_period_end FROM users WHERE id = ?")
      .bind(userId)
      .first<{ plan: string; pending_plan: string; plan_period_end: number }>();
    expect(row).toMatchObject({ plan: "Advanced", pending_plan: "Basic" });
    const after = (row?.plan_period_end ?? 0) + 1000;
    await localLedger(env, userId).advanceClock(userId, after);
    await localLedger(env, userId).advanceClock(userId, after); // a retried cron or alarm grants nothing more
    const renewed = await env.DB.prepare("SELECT plan, pending_plan FROM users WHERE id = ?").bind(userId).first();
    expect(renewed).toEqual({ plan: "Basic", pending_plan: null });
    expect(await balance(userId)).toBe(100 + 500);
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ? AND kind = 'renewal'", userId)).toBe(
      1,
    );
  });

  it("connects the plugin once: plan Plugin and +1 credit", async () => {
    const userId = await insertUser({ email: "plug@example.com", credits: 5 });
    const first = await ledgerClient(env, userId).pluginConnect({});
    expect(first.ok && first.value.alreadyConnected).toBe(false);
    const second = await ledgerClient(env, userId).pluginConnect({});
    expect(second.ok && second.value.alreadyConnected).toBe(true);
    expect(await balance(userId)).toBe(6);
    expect(await env.DB.prepare("SELECT plan FROM users WHERE id = ?").bind(userId).first()).toEqual({
      plan: "Plugin",
    });
  });

  it("brings a Free user with 0 credits and no clips back to 100, once", async () => {
    const userId = await insertUser({ email: "zero@example.com", credits: 0 });
    await ledgerClient(env, userId).starterReset({});
    expect(await balance(userId)).toBe(100);
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = 0 WHERE id = ?").bind(userId),
      env.DB.prepare(
        "INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, idempotency_key, request_hash) VALUES (?, ?, -100, 0, 'adjust', 'test', 'test-drain', 'x')",
      ).bind(crypto.randomUUID(), userId),
    ]);
    await ledgerClient(env, userId).starterReset({});
    expect(await balance(userId)).toBe(0);
  });
});

describe("realtime", () => {
  async function openSocket(cookie: string) {
    const res = await exports.default.fetch(
      new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: cookie } }),
    );
    expect(res.status).toBe(101);
    const ws = res.webSocket;
    if (!ws) throw new Error("no socket");
    ws.accept();
    const messages: unknown[] = [];
    ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data))));
    return { ws, messages };
  }
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  it("sends a snapshot on hello and pushes every charge to each open page, in sequence", async () => {
    const userId = await insertUser({ email: "live@example.com", password: "live passphrase 1" });
    const cookie = await signIn("live@example.com", "live passphrase 1");
    const a = await openSocket(cookie);
    const b = await openSocket(cookie);
    a.ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
    await waitFor(() => a.messages.length === 1);
    const snapshot = serverMessageSchema.parse(a.messages[0]);
    expect(snapshot.type === "snapshot" && snapshot.data.credits.balance).toBe(100);
    const token = await issueApiToken(db, userId, "s");
    await api("/api/v1/clips", token, { body: clip(), key: "live-key-1" });
    await waitFor(() => b.messages.length >= 2);
    const [credits, created] = b.messages.map((m) => serverMessageSchema.parse(m));
    expect(credits?.type === "credits" && credits.data.balance).toBe(98);
    expect(created?.type === "clip" && created.data.clip.name).toBe("Goal!");
    expect(created && "seq" in created && credits && "seq" in credits && created.seq).toBe(
      credits && "seq" in credits ? credits.seq + 1 : -1,
    );
    expect(await env.DB.prepare("SELECT status FROM users WHERE id = ?").bind(userId).first()).toEqual({
      status: "online",
    });
    a.ws.send("not json");
    await waitFor(() => a.messages.some((m) => (m as { type?: string }).type === "error"));
    a.ws.close();
    b.ws.close();
  });

  it("refuses sockets without a session, from other sites, and extension sockets without a token", async () => {
    const anon = await exports.default.fetch(
      new Request("http://localhost/realtime", { headers: { Upgrade: "websocket" } }),
    );
    expect(anon.status).toBe(401);
    await insertUser({ email: "x@example.com", password: "x passphrase 11" });
    const cookie = await signIn("x@example.com", "x passphrase 11");
    const foreign = await exports.default.fetch(
      new Request("http://localhost/realtime", {
        headers: { Upgrade: "websocket", Cookie: cookie, Origin: "https://evil.example" },
      }),
    );
    expect(foreign.status).toBe(403);
    const ext = await exports.default.fetch(
      new Request("http://localhost/api/v1/realtime", { headers: { Upgrade: "websocket" } }),
    );
    expect(ext.status).toBe(401);
  });

  it("accepts the extension's token as a subprotocol", async () => {
    const { token } = await apiUser(100);
    const res = await exports.default.fetch(
      new Request("http://localhost/api/v1/realtime", {
        headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": `clipcut.v1, bearer.${token}` },
      }),
    );
    expect(res.status).toBe(101);
    expect(res.headers.get("Sec-WebSocket-Protocol")).toBe("clipcut.v1");
    res.webSocket?.accept();
    res.webSocket?.close();
  });
});

describe("reconcile", () => {
  it("reports a user whose balance drifted from the ledger", async () => {
    const userId = await insertUser({ email: "drift@example.com", credits: 100 });
    await env.DB.prepare("UPDATE users SET credits = 90 WHERE id = ?").bind(userId).run();
    const broken = await reconcile(db);
    expect(broken).toEqual([{ userId, email: "drift@example.com", credits: 90, ledgerSum: 100 }]);
    await env.DB.prepare("UPDATE users SET credits = 100 WHERE id = ?").bind(userId).run();
  });

  it("refuses any write that would make a balance negative, at the database", async () => {
    const userId = await insertUser({ email: "neg@example.com", credits: 1 });
    await expect(
      env.DB.prepare("UPDATE users SET credits = credits - 2 WHERE id = ?").bind(userId).run(),
    ).rejects.toThrow(/CHECK/);
  });
});
