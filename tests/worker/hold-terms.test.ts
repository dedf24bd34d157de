import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { clipCost } from "~/domain/credits";
import { issueApiToken } from "~/services/api-tokens.server";
import { countRows, insertUser } from "./helpers";

/**
 * A companion job asks the ledger once: the hold takes the source's height and answers with the terms the clip is
 * cut with (quality charged, scale, watermark), decided on the caller's plan by the one domain rule.
 */
const db = getDb(env.DB);

async function apiUser(plan: string, credits = 100) {
  const userId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, credits, plan });
  return { userId, token: await issueApiToken(db, userId, "test-session") };
}

function post(path: string, token: string, body: unknown, key?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  if (key) headers["Idempotency-Key"] = key;
  return exports.default.fetch(
    new Request(`http://localhost${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
}

const job = (over: Record<string, unknown> = {}) => ({
  name: "Goal!",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25,
  format: "mp4",
  ...over,
});

interface HoldAnswer {
  hold: { id: string; amount: number };
  terms: { quality: string; scaleTo: string | null; watermark: boolean; requested: string | null };
}

const holdsOf = (userId: string) => countRows("SELECT count(*) n FROM credit_holds WHERE user_id = ?", userId);

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

describe("a companion job's hold answers the terms it is cut with", () => {
  it("a Free hold with no quality asked answers the plan's cap with the watermark, priced and recorded at it", async () => {
    const { token } = await apiUser("Free");
    const res = await post("/api/v1/holds", token, job({ sourceHeight: 1080 }), "terms-free-1");
    expect(res.status).toBe(201);
    const answer = (await res.json()) as HoldAnswer;
    expect(answer.terms).toEqual({ quality: "720p", scaleTo: "720p", watermark: true, requested: null });
    expect(answer.hold.amount).toBe(clipCost(15, "mp4", "720p"));
    // The hold is priced and recorded at the quality it answered.
    const captured = await post(`/api/v1/holds/${answer.hold.id}/capture`, token, {});
    expect(((await captured.json()) as { clip: { quality: string } }).clip.quality).toBe("720p");
  });

  it("never upscales: an asked quality above the source is charged at the source's, without a watermark on Pro", async () => {
    const { token } = await apiUser("Pro");
    const res = await post("/api/v1/holds", token, job({ quality: "1080p", sourceHeight: 480 }), "terms-pro-1");
    expect(res.status).toBe(201);
    const answer = (await res.json()) as HoldAnswer;
    expect(answer.terms).toEqual({ quality: "480p", scaleTo: null, watermark: false, requested: "1080p" });
    expect(answer.hold.amount).toBe(clipCost(15, "mp4", "480p"));
    // A replay of the same key answers the same hold and terms.
    const again = await post("/api/v1/holds", token, job({ quality: "1080p", sourceHeight: 480 }), "terms-pro-1");
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ hold: { id: answer.hold.id }, terms: answer.terms });
  });

  it("keeps the source's size when nothing is asked and the plan allows it; audio has no picture terms", async () => {
    const { token } = await apiUser("Pro");
    const video = (await (
      await post("/api/v1/holds", token, job({ sourceHeight: 1080 }), "terms-keep-1")
    ).json()) as HoldAnswer;
    expect(video.terms).toEqual({ quality: "1080p", scaleTo: null, watermark: false, requested: null });
    const { token: free } = await apiUser("Free");
    const audio = (await (
      await post("/api/v1/holds", free, job({ format: "mp3", sourceHeight: 1080 }), "terms-mp3-1")
    ).json()) as HoldAnswer;
    expect(audio.terms).toEqual({ quality: "144p", scaleTo: null, watermark: false, requested: null });
  });

  it("refuses an asked quality above the plan, and a bad height, holding nothing", async () => {
    const { userId, token } = await apiUser("Free");
    const over = await post("/api/v1/holds", token, job({ quality: "1080p", sourceHeight: 1080 }), "terms-over-1");
    expect(over.status).toBe(403);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe("plan_limit");
    for (const [i, sourceHeight] of [-1, 0, 1.5, "1080"].entries()) {
      const bad = await post("/api/v1/holds", token, job({ sourceHeight }), `terms-bad-${i}-1`);
      expect(bad.status, String(sourceHeight)).toBe(422);
    }
    // Without a height the body is a plain clip request: its quality is required.
    const plain = await post("/api/v1/holds", token, job(), "terms-plain-1");
    expect(plain.status).toBe(422);
    expect(await holdsOf(userId)).toBe(0);
  });
});
