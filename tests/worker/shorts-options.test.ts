import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { createPresetResponseSchema, presetsResponseSchema } from "~/domain/api";
import { cropFor } from "~/domain/crop";
import { clipCost } from "~/domain/credits";
import { issueApiToken } from "~/services/api-tokens.server";
import { apiAs, countRows, get, insertUser, sessionFor } from "./helpers";

/**
 * Clips for short videos: the aspect, the crop and the captions cross API v1 (clips, holds, presets), are checked
 * with the domain's schemas (a clear 422 that changes nothing), stored on the clip and shown where a clip is.
 */
const db = getDb(env.DB);

async function apiUser(plan: string, credits = 100) {
  const userId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, credits, plan });
  return { userId, token: await issueApiToken(db, userId, "test-session") };
}

/** The API as the extension calls it (helpers.apiAs, path first). */
const api = (path: string, token: string, body?: unknown) => apiAs(token, path, body);

const clip = (over: Record<string, unknown> = {}) => ({
  name: "Short",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25,
  format: "mp4",
  quality: "720p",
  ...over,
});

const hd = { width: 1920, height: 1080 };
const right916 = cropFor(hd, "9:16", 1)!;

interface ClipAnswer {
  clip: { id: string; aspect: string; cropPosition: number | null; captions: unknown; quality: string };
}

/** Everything a refused request must leave as it was. */
async function snapshot(userId: string) {
  const row = await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(userId).first<{ credits: number }>();
  return {
    credits: row?.credits,
    clips: await countRows("SELECT count(*) n FROM clips WHERE user_id = ?", userId),
    rows: await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ?", userId),
    holds: await countRows("SELECT count(*) n FROM credit_holds WHERE user_id = ?", userId),
    presets: await countRows("SELECT count(*) n FROM presets WHERE user_id = ?", userId),
  };
}

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

describe("a clip's aspect, crop and captions through API v1", () => {
  it("POST /clips stores them on the clip; GET /clips, /clips and /view-clip show them", async () => {
    const { userId, token } = await apiUser("Free");
    const res = await api(
      "/api/v1/clips",
      token,
      clip({ aspect: "9:16", cropPosition: 0, captions: { track: "en", mode: "burn", srt: true } }),
    );
    expect(res.status).toBe(201);
    const { clip: made } = (await res.json()) as ClipAnswer;
    expect(made).toMatchObject({
      aspect: "9:16",
      cropPosition: 0,
      captions: { track: "en", mode: "burn", srt: true },
    });
    const row = await env.DB.prepare(
      "SELECT aspect, crop_position, captions_track, captions_mode, captions_srt FROM clips WHERE id = ?",
    )
      .bind(made.id)
      .first();
    expect(row).toEqual({
      aspect: "9:16",
      crop_position: 0,
      captions_track: "en",
      captions_mode: "burn",
      captions_srt: 1,
    });
    const listed = (await (await api("/api/v1/clips", token)).json()) as { clips: ClipAnswer["clip"][] };
    expect(listed.clips[0]).toMatchObject({ aspect: "9:16", cropPosition: 0 });

    const cookie = await sessionFor(userId);
    const page = await (await get("/clips", { cookie })).text();
    expect(page).toContain("9:16, left");
    expect(page).toMatch(/Captions: (<!-- -->)?en, burned in, \.srt/);
    const view = await (await get(`/view-clip/${made.id}`, { cookie })).text();
    expect(view).toMatch(/Aspect<\/dt><dd[^>]*>9:16, left</);
    expect(view).toMatch(/Captions<\/dt><dd[^>]*>en, burned in, \.srt</);
    const csv = await (await get("/clips/export", { cookie })).text();
    expect(csv.split("\n")[0]).toMatch(/,Aspect,Crop position,Captions\r?$/);
    expect(csv).toMatch(/,9:16,0,"en, burned in, \.srt"\r?\n/);
  });

  it("a request without them is an Original clip without captions, as older clients send", async () => {
    const { token } = await apiUser("Free");
    const res = await api("/api/v1/clips", token, clip());
    expect(res.status).toBe(201);
    expect(((await res.json()) as ClipAnswer).clip).toMatchObject({
      aspect: "original",
      cropPosition: null,
      captions: null,
    });
  });

  const refusals: [string, Record<string, unknown>, RegExp][] = [
    [
      "a crop outside the frame",
      { aspect: "9:16", crop: { ...right916, x: right916.x + 2 } },
      /inside the video's frame/,
    ],
    ["a crop with odd sizes", { aspect: "9:16", crop: { ...right916, x: 1, width: 607 } }, /even numbers/],
    [
      "a crop whose box is not its aspect",
      { aspect: "9:16", crop: { ...right916, x: 0, width: 1080 } },
      /match its aspect/,
    ],
    ["a crop of another aspect than the clip's", { aspect: "1:1", crop: right916 }, /crop's aspect must be/],
    ["a crop position without an aspect", { cropPosition: 0.5 }, /aspect other than Original/],
    ["captions on an audio clip", { format: "mp3", captions: { track: "en", mode: "burn" } }, /no picture/],
    ["a subtitle track in a GIF", { format: "gif", captions: { track: "en", mode: "soft" } }, /burn the captions/],
    ["a caption track that is not a language code", { captions: { track: "en; rm -rf", mode: "burn" } }, /code/],
  ];
  for (const [what, over, message] of refusals) {
    it(`${what}: 422 with a clear message, on /clips and /holds, and nothing changes`, async () => {
      const { userId, token } = await apiUser("Pro");
      const before = await snapshot(userId);
      for (const [path, body] of [
        ["/api/v1/clips", clip(over)],
        ["/api/v1/holds", clip({ ...over, sourceHeight: 1080, sourceWidth: 1920 })],
      ] as const) {
        const res = await api(path, token, body);
        expect(res.status, path).toBe(422);
        const answer = (await res.json()) as { error: { code: string; message: string } };
        expect(answer.error.code).toBe("invalid_input");
        expect(answer.error.message).toMatch(message);
        expect(answer.error.message).not.toMatch(/at .*\.ts|Error:/);
      }
      expect(await snapshot(userId)).toEqual(before);
    });
  }
});

describe("a cropped hold is priced by the output's short side", () => {
  interface HoldAnswer {
    hold: { id: string; amount: number };
    terms: { quality: string; scaleTo: string | null; watermark: boolean };
  }

  it("a 9:16 crop of a 1080p landscape source is 608 wide: charged as 480p, kept at its size", async () => {
    const { token } = await apiUser("Pro");
    const res = await api(
      "/api/v1/holds",
      token,
      clip({ quality: undefined, aspect: "9:16", crop: right916, sourceHeight: 1080, sourceWidth: 1920 }),
    );
    expect(res.status).toBe(201);
    const answer = (await res.json()) as HoldAnswer;
    expect(answer.terms).toMatchObject({ quality: "480p", scaleTo: null, watermark: false });
    expect(answer.hold.amount).toBe(clipCost(15, "mp4", "480p"));
    // The clip records the crop as its position: the right edge.
    const captured = await api(`/api/v1/holds/${answer.hold.id}/capture`, token, {});
    expect(((await captured.json()) as ClipAnswer).clip).toMatchObject({
      aspect: "9:16",
      cropPosition: 1,
      quality: "480p",
    });
  });

  it("a 1080 × 1920 clip costs as 1080p, and Free keeps its watermark with a crop", async () => {
    const { token } = await apiUser("Pro");
    const portrait = await api(
      "/api/v1/holds",
      token,
      clip({ quality: undefined, aspect: "9:16", sourceHeight: 1920, sourceWidth: 1080 }),
    );
    expect(portrait.status).toBe(201);
    const answer = (await portrait.json()) as HoldAnswer;
    expect(answer.terms.quality).toBe("1080p");
    expect(answer.hold.amount).toBe(clipCost(15, "mp4", "1080p"));
    await api(`/api/v1/holds/${answer.hold.id}/release`, token, {});

    const free = await apiUser("Free");
    const res = await api(
      "/api/v1/holds",
      free.token,
      clip({ quality: undefined, aspect: "1:1", cropPosition: 0.5, sourceHeight: 1080, sourceWidth: 1920 }),
    );
    expect(res.status).toBe(201);
    // 1080 × 1080 on Free: capped at the plan's 720p, watermarked (the companion places it inside the crop).
    expect(((await res.json()) as HoldAnswer).terms).toMatchObject({
      quality: "720p",
      scaleTo: "720p",
      watermark: true,
    });
  });
});

describe("presets keep the aspect, the crop position and the captions", () => {
  it("saves, lists and refuses with a 422 that writes nothing", async () => {
    const { userId, token } = await apiUser("Advanced");
    const body = {
      name: "Shorts",
      format: "mp4",
      quality: "1080p",
      aspect: "9:16",
      cropPosition: 0.25,
      captions: { track: "de", mode: "soft" },
    };
    const save = await api("/api/v1/presets", token, body);
    expect(save.status).toBe(201);
    const { preset } = createPresetResponseSchema.parse(await save.json());
    expect(preset).toMatchObject({ aspect: "9:16", cropPosition: 0.25, captions: { track: "de", mode: "soft" } });
    const list = presetsResponseSchema.parse(await (await api("/api/v1/presets", token)).json());
    expect(list.presets[0]).toEqual(preset);

    const before = await snapshot(userId);
    for (const bad of [
      { ...body, name: "b1", aspect: "16:9" },
      { ...body, name: "b2", cropPosition: 2 },
      { ...body, name: "b3", aspect: "original" },
      { ...body, name: "b4", format: "gif" },
      { ...body, name: "b5", captions: { track: "de", mode: "soft", font: "Comic Sans" } },
    ]) {
      const res = await api("/api/v1/presets", token, bad);
      expect(res.status, bad.name).toBe(422);
    }
    expect(await snapshot(userId)).toEqual(before);
  });
});
