import { runInDurableObject } from "cloudflare:test";
import { ledger as ledgerClient } from "~/services/ledger.server";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile, requestHash } from "~/db/ledger.server";
import type { ClipRequest } from "~/domain/api";
import { ledgerError } from "~/services/api-auth.server";
import type { UserLedger } from "../../workers/user-ledger";
import { countRows, insertUser } from "./helpers";

const db = getDb(env.DB);
const ledger = (userId: string) => env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));
const request = (name: string): ClipRequest => ({
  name,
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25, // 2 credits
  format: "mp4",
  quality: "720p",
});
const balance = async (userId: string) =>
  (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(userId).first<{ credits: number }>())?.credits;

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

describe("group commit", () => {
  it("a batch where one operation fails does not fail its neighbours", async () => {
    const userId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, credits: 100 });
    await ledgerClient(env, userId).charge({ key: "warm-1", request: request("warm"), source: "api" }); // state loaded
    await env.DB.exec(
      "CREATE TRIGGER fail_bad BEFORE INSERT ON clips WHEN NEW.name = 'bad' BEGIN SELECT RAISE(ABORT, 'bad'); END;",
    );
    try {
      // Sent at once: they are decided together while the first batch is in flight, then committed as a group.
      const names = ["a", "b", "bad", "c", "d", "e", "f", "g"];
      const results = await Promise.all(
        names.map((name) =>
          ledgerClient(env, userId).charge({ key: `n-${name}`, request: request(name), source: "api" }),
        ),
      );
      const byName = Object.fromEntries(names.map((n, i) => [n, results[i]]));
      expect(byName.bad).toMatchObject({ ok: false, status: 500, code: "internal" });
      for (const name of names.filter((n) => n !== "bad")) expect(byName[name]?.ok).toBe(true);
      expect(await balance(userId)).toBe(100 - 2 - 7 * 2);
      expect(await countRows("SELECT count(*) n FROM clips WHERE user_id = ? AND name = 'bad'", userId)).toBe(0);
      // The balances the callers were told are the committed ones, in arrival order.
      const told = results.flatMap((r) => (r.ok ? [r.value.credits.balance] : []));
      expect(told).toEqual([96, 94, 92, 90, 88, 86, 84]);
    } finally {
      await env.DB.exec("DROP TRIGGER fail_bad");
    }
  });

  it("replays a key from memory and a key only D1 knows with the first answer", async () => {
    const userId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, credits: 50 });
    const first = await ledgerClient(env, userId).charge({ key: "mem-1", request: request("m"), source: "api" });
    const again = await ledgerClient(env, userId).charge({ key: "mem-1", request: request("m"), source: "api" });
    expect(first.ok && again.ok && again.replayed && again.value.clip.id === first.value.clip.id).toBe(true);
    // A key used before the object's memory began (written behind its back; delta 0 keeps the invariant).
    const clipId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost) VALUES (?1, ?2, ?2, 'old', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 10, 25, 2)",
      ).bind(clipId, userId),
      env.DB.prepare(
        "INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, clip_id, idempotency_key, request_hash) VALUES (?, ?, 0, 48, 'clip', 'old', ?, 'd1-only', ?)",
      ).bind(crypto.randomUUID(), userId, clipId, await requestHash(["charge", request("old")])),
    ]);
    const replay = await ledgerClient(env, userId).charge({ key: "d1-only", request: request("old"), source: "api" });
    expect(replay.ok && replay.replayed && replay.value.clip.id).toBe(clipId);
    const conflict = await ledgerClient(env, userId).charge({ key: "d1-only", request: request("x"), source: "api" });
    expect(conflict).toMatchObject({ ok: false, code: "idempotency_conflict" });
    expect(await balance(userId)).toBe(48);
  });

  it("answers busy beyond its queue, charges nothing for those, and a retry with the same key succeeds", async () => {
    const userId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, credits: 2000 });
    await ledgerClient(env, userId).charge({ key: "busy-warm", request: request("w"), source: "api" });
    // A short queue, so that the charges arriving while one batch is in flight overflow it.
    await runInDurableObject(ledger(userId), (object: UserLedger) => {
      object.limits.maxWaiting = 3;
    });
    const keys = Array.from({ length: 60 }, (_, i) => `busy-${i}`);
    const results = await Promise.all(
      keys.map((key) => ledgerClient(env, userId).charge({ key, request: request(key), source: "api" })),
    );
    const busy = keys.filter((_, i) => {
      const r = results[i];
      return r && !r.ok && r.code === "busy";
    });
    expect(busy.length).toBeGreaterThan(0);
    expect(results.every((r) => r.ok || r.code === "busy")).toBe(true);
    expect(await balance(userId)).toBe(2000 - 2 - (keys.length - busy.length) * 2);
    const retried = [];
    for (const key of busy)
      retried.push(await ledgerClient(env, userId).charge({ key, request: request(key), source: "api" }));
    expect(retried.every((r) => r.ok && !r.replayed)).toBe(true);
    expect(await balance(userId)).toBe(2000 - 2 - keys.length * 2);
  });

  it("says busy in API v1 as 503 with a JSON body and Retry-After", async () => {
    const res = ledgerError({ ok: false, status: 503, code: "busy", reason: "busy", message: "The ledger is busy." });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({ error: { code: "busy", reason: "busy", message: "The ledger is busy." } });
  });

  it("adjusts to an exact balance once per key and refunds a clip's cost once, deleting it when asked", async () => {
    const userId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, credits: 10 });
    const adminId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, role: "admin" });
    const edit = { key: "admin-edit-1", newBalance: 25, actorId: adminId, reason: "goodwill" };
    expect(await ledgerClient(env, userId).adjust(edit)).toMatchObject({ ok: true, replayed: false });
    // The retried edit replays although the balance it started from has moved.
    expect(await ledgerClient(env, userId).adjust(edit)).toMatchObject({ ok: true, replayed: true });
    expect(await balance(userId)).toBe(25);
    const charged = await ledgerClient(env, userId).charge({ key: "to-refund", request: request("r"), source: "api" });
    if (!charged.ok) throw new Error(charged.message);
    const clipId = charged.value.clip.id;
    const refund = { clipId, reason: "deleted by an admin", actorId: adminId };
    expect(await ledgerClient(env, userId).refund({ ...refund, amount: 5 })).toMatchObject({
      ok: false,
      code: "invalid_input",
    });
    expect(await ledgerClient(env, userId).refund({ ...refund, deleteClip: true })).toMatchObject({
      ok: true,
      replayed: false,
    });
    expect(await ledgerClient(env, userId).refund(refund)).toMatchObject({ ok: true, replayed: true });
    expect(await balance(userId)).toBe(25);
    expect(await countRows("SELECT count(*) n FROM clips WHERE id = ?", clipId)).toBe(0);
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ? AND kind = 'refund'", userId)).toBe(
      1,
    );
  });
});
