import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import type { Job } from "../../../app/domain/companion";
import { INSUFFICIENT_CREDITS_MESSAGE } from "../../../app/domain/credits";
import { BATCH_LIMIT_MESSAGE } from "../../../app/domain/plans";
import { newPairingToken } from "../src/host/config";
import { allowedOrigins } from "../src/host/security";
import { createCompanionServer, type CompanionServer } from "../src/host/server";
import { call, EXTENSION_ORIGIN, waitForJob } from "./client";
import { startFakeApi, type FakeApi } from "./fake-api";
import { decodeGray, regionDiff } from "./frames";
import { tempDir, tools } from "./helpers";
import { startRangeServer, type RangeServer } from "./range-server";

const dir = inject("mediaDir");
const SRC = join(dir, "src360.mp4");
// Jobs on a local file say which page the video came from: the API records only http(s) links.
const PAGE = "https://www.youtube.com/watch?v=clipcut-test";
const token = newPairingToken();
let api: FakeApi;
let companion: CompanionServer;
let port: number;
let outputDir: string;
let media: RangeServer;

const USERS = {
  advanced: { token: "tok-advanced-123", plan: "Advanced", balance: 10_000 },
  free: { token: "tok-free-12345", plan: "Free", balance: 100 },
  broke: { token: "tok-broke-12345", plan: "Pro", balance: 0 },
} as const;

async function session(user: keyof typeof USERS) {
  const reply = await call(port, token, "PUT", "/session", {
    body: { apiToken: USERS[user].token, apiBaseUrl: api.baseUrl },
  });
  expect(reply.status).toBe(200);
}

const callsFor = (holdKeyPrefix: string) =>
  api.calls
    .filter((c) => c.idempotencyKey?.startsWith(holdKeyPrefix))
    .map((c) => `${c.path.split("/").pop()}:${c.status}`);

beforeAll(async () => {
  api = await startFakeApi(Object.values(USERS).map((u) => ({ ...u })));
  outputDir = tempDir();
  media = await startRangeServer(dir);
  companion = createCompanionServer({
    tools,
    toolVersions: { ffmpeg: "ffmpeg", ytDlp: null },
    outputDir,
    pairingToken: token,
    allowedOrigins: allowedOrigins(),
    apiBaseUrl: api.baseUrl,
    concurrency: 2,
    // The test media is on this computer (files and a loopback server).
    allowPrivateSources: true,
  });
  port = await companion.listen(0);
});

afterAll(async () => {
  await companion.close();
  await api.close();
  await media.close();
});

describe("security", () => {
  it("answers a paired extension request from loopback", async () => {
    const reply = await call(port, token, "GET", "/health");
    expect(reply.status).toBe(200);
    expect(reply.headers["access-control-allow-origin"]).toBe(EXTENSION_ORIGIN);
  });

  const refusals: [string, Record<string, string | undefined>, number, string][] = [
    ["a non-loopback Host (DNS rebinding)", { host: "evil.com" }, 403, "forbidden_host"],
    ["a loopback name on another port", { host: "127.0.0.1:1" }, 403, "forbidden_host"],
    ["a foreign Origin", { origin: "https://evil.com" }, 403, "forbidden_origin"],
    ["another extension", { origin: "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" }, 403, "forbidden_origin"],
    ["no Origin", { origin: undefined }, 403, "forbidden_origin"],
    ["no pairing token", { authorization: undefined }, 401, "pairing_required"],
    ["a wrong pairing token", { authorization: `Bearer ${newPairingToken()}` }, 401, "invalid_pairing_token"],
  ];
  for (const [what, headers, status, code] of refusals) {
    it(`refuses ${what}`, async () => {
      for (const [method, path] of [
        ["GET", "/health"],
        ["GET", "/jobs"],
        ["POST", "/jobs"],
      ] as const) {
        const reply = await call(port, token, method, path, { headers, body: method === "POST" ? {} : undefined });
        expect(reply.status).toBe(status);
        expect((reply.body as { error: { code: string } }).error.code).toBe(code);
        expect(reply.headers["access-control-allow-origin"]).not.toBe("*");
        if (code !== "forbidden_origin" && headers.origin === undefined) {
          expect(reply.headers["access-control-allow-origin"]).toBe(EXTENSION_ORIGIN);
        }
      }
    });
  }

  it("answers preflights only for the extension, never with *", async () => {
    const ok = await call(port, token, "OPTIONS", "/jobs", { headers: { authorization: undefined } });
    expect(ok.status).toBe(204);
    expect(ok.headers["access-control-allow-origin"]).toBe(EXTENSION_ORIGIN);
    const evil = await call(port, token, "OPTIONS", "/jobs", {
      headers: { authorization: undefined, origin: "https://evil.com" },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses a WebSocket from a foreign origin and accepts the extension", async () => {
    const open = (origin: string, t: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${t}`, { origin });
        ws.on("open", () => {
          ws.close();
          resolve(101);
        });
        ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.on("error", () => resolve(-1));
      });
    expect(await open("https://evil.com", token)).toBe(403);
    expect(await open(EXTENSION_ORIGIN, "wrong")).toBe(401);
    expect(await open(EXTENSION_ORIGIN, token)).toBe(101);
  });

  it("validates bodies with clear 4xx JSON errors and no stack traces", async () => {
    await session("advanced");
    const cases: [unknown, number, RegExp][] = [
      [{ source: SRC, startSeconds: 5, endSeconds: 2 }, 422, /greater than zero/],
      [{ source: SRC, videoUrl: PAGE, startSeconds: 10, endSeconds: 10.0000001 }, 422, /at least 0\.1 seconds/],
      [{ source: SRC, videoUrl: PAGE, startSeconds: 0, endSeconds: 86401 }, 422, /24 hours/],
      [{ source: "relative/path.mp4", startSeconds: 0, endSeconds: 2 }, 422, /absolute file path/],
      [{ source: SRC, startSeconds: 0, endSeconds: 2, format: "exe" }, 422, /format/],
      [{ source: SRC, startSeconds: 0, endSeconds: 2, fileName: "../../etc/evil" }, 422, /fileName/],
      [{ source: SRC, startSeconds: 0, endSeconds: 2, fileName: "/tmp/evil" }, 422, /fileName/],
      [{ source: SRC, startSeconds: 0, endSeconds: 2, outputPath: "/tmp/evil.mp4" }, 422, /Unrecognized key/],
      [{ source: SRC, startSeconds: 0, endSeconds: 2 }, 422, /local file needs videoUrl/],
      [{ source: SRC, startSeconds: 0, endSeconds: 2, videoUrl: "javascript:alert(1)" }, 422, /Video URL must be/],
    ];
    for (const [body, status, message] of cases) {
      const reply = await call(port, token, "POST", "/jobs", { body });
      expect(reply.status).toBe(status);
      const error = (reply.body as { error: { message: string } }).error;
      expect(error.message).toMatch(message);
      expect(reply.text).not.toMatch(/at .*\.ts:\d+/);
    }
    const bad = await call(port, token, "POST", "/jobs", { rawBody: "{nope" });
    expect(bad.status).toBe(400);
    const form = await call(port, token, "POST", "/jobs", {
      rawBody: "a=b",
      headers: { "content-type": "text/plain" },
    });
    expect(form.status).toBe(415);
  });
});

describe("jobs and credits", () => {
  it("reserves (the one ledger call, which answers the terms), cuts, verifies, then captures, without asking /me", async () => {
    await session("advanced");
    const callsBefore = api.calls.length;
    const events: string[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: EXTENSION_ORIGIN });
    ws.on("message", (data: Buffer) => events.push(JSON.parse(data.toString()).type as string));
    await new Promise((r) => ws.on("open", r));
    const reply = await call(port, token, "POST", "/jobs", {
      body: {
        source: media.url("src360.mp4"),
        startSeconds: 12.5,
        endSeconds: 18,
        name: "My clip",
        videoUrl: "https://youtube.com/watch?v=abcdefghijk",
      },
    });
    expect(reply.status).toBe(202);
    const { id } = (reply.body as { job: Job }).job;
    const job = await waitForJob(port, token, id);
    ws.close();
    expect(job.status).toBe("done");
    expect(job.result?.strategy).toBe("smart");
    expect(job.result?.watermark).toBe(false);
    expect(job.credits.state).toBe("captured");
    expect(job.result?.output.startsWith(outputDir)).toBe(true);
    expect(callsFor(`clipcut-job-${id}`)).toEqual(["holds:201", "capture:200"]);
    // Every call the job made: the hold (with the source's height) and its capture; the account is not read.
    expect(api.calls.slice(callsBefore).map((c) => c.path)).toEqual([
      "/api/v1/holds",
      `/api/v1/holds/${job.credits.holdId}/capture`,
    ]);
    const hold = [...api.holds.values()].find((h) => h.id === job.credits.holdId);
    expect(hold?.sourceHeight).toBe(360);
    expect(hold?.state).toBe("captured");
    expect(hold?.clip).toMatchObject({
      name: "My clip",
      format: "mp4",
      quality: "360p",
      startSeconds: 12.5,
      endSeconds: 18,
    });
    expect(events).toContain("job");
    expect(events).toContain("progress");
  });

  it("reads a copy's index while the hold is asked, and cuts exactly as after it", async () => {
    await session("advanced");
    const name = "src1080.mp4";
    const pastHead = () =>
      media.seen().filter((s) => s.name === name && Number(/bytes=(\d+)-/.exec(String(s.headers.range))?.[1]) >= 65536);
    let readBeforeTheHold = -1;
    // The hold's answer takes 400 ms, as a round trip to the API can: the index read does not wait for it.
    api.slowHolds(400, () => (readBeforeTheHold = pastHead().length));
    try {
      media.reset();
      const body = { source: media.url(name), startSeconds: 4, endSeconds: 8, strategy: "copy", allowSnap: true };
      const job = await waitForJob(
        port,
        token,
        ((await call(port, token, "POST", "/jobs", { body })).body as { job: Job }).job.id,
      );
      expect(job.status, JSON.stringify(job.error)).toBe("done");
      expect(job.result?.strategy).toBe("copy");
      expect(readBeforeTheHold).toBeGreaterThan(0);
      // The same clip cut with the hold answered at once: the same frames and size.
      api.slowHolds(0);
      const again = await waitForJob(
        port,
        token,
        ((await call(port, token, "POST", "/jobs", { body })).body as { job: Job }).job.id,
      );
      expect(again.status, JSON.stringify(again.error)).toBe("done");
      expect(again.result?.frames).toBe(job.result?.frames);
      expect(again.result?.startSeconds).toBe(job.result?.startSeconds);
      // The same packets: the same size (the muxer writes the time each file was made, so not the same bytes).
      expect(statSync(again.result!.output).size).toBe(statSync(job.result!.output).size);
    } finally {
      api.slowHolds(0);
    }
  });

  it("does not read a Free session's copy during the hold once its holds come watermarked", async () => {
    await session("free");
    const name = "src1080.mp4";
    // A copy asked on a plan that watermarks is refused after the hold (the mark needs a re-encode), but the hold
    // has told the queue what this session's terms are.
    const body = { source: media.url(name), startSeconds: 4, endSeconds: 6, strategy: "copy", allowSnap: true };
    const pastHead = () =>
      media.seen().filter((s) => s.name === name && Number(/bytes=(\d+)-/.exec(String(s.headers.range))?.[1]) >= 65536);
    const readBeforeEachHold: number[] = [];
    api.slowHolds(300, () => readBeforeEachHold.push(pastHead().length));
    try {
      for (let i = 0; i < 2; i++) {
        media.reset();
        const reply = await call(port, token, "POST", "/jobs", { body });
        const job = await waitForJob(port, token, (reply.body as { job: Job }).job.id);
        expect(job.status).toBe("failed");
        expect(job.error?.message).toMatch(/watermark/);
      }
      // The first job was read during its hold (the queue did not know yet); the second was not.
      expect(readBeforeEachHold[0]).toBeGreaterThan(0);
      expect(readBeforeEachHold[1]).toBe(0);
    } finally {
      api.slowHolds(0);
    }
  });

  it("never cuts when the reservation is refused (402 with the server's message)", async () => {
    await session("broke");
    const before = readdirSync(outputDir).length;
    const reply = await call(port, token, "POST", "/jobs", {
      body: { source: SRC, videoUrl: PAGE, startSeconds: 1, endSeconds: 5 },
    });
    const job = await waitForJob(port, token, (reply.body as { job: Job }).job.id);
    expect(job.status).toBe("failed");
    expect(job.error).toEqual({ code: "insufficient_credits", message: INSUFFICIENT_CREDITS_MESSAGE, status: 402 });
    expect(callsFor(`clipcut-job-${job.id}`)).toEqual(["holds:402"]);
    expect(readdirSync(outputDir).length).toBe(before);
  });

  it("passes a plan refusal through (403) and applies the Free watermark", async () => {
    await session("free");
    const refused = await call(port, token, "POST", "/jobs", {
      body: { source: SRC, videoUrl: PAGE, startSeconds: 1, endSeconds: 5, format: "mkv" },
    });
    const failed = await waitForJob(port, token, (refused.body as { job: Job }).job.id);
    expect(failed.error?.status).toBe(403);
    expect(failed.error?.code).toBe("plan_limit");

    const ok = await call(port, token, "POST", "/jobs", {
      body: { source: SRC, videoUrl: PAGE, startSeconds: 30, endSeconds: 32 },
    });
    const job = await waitForJob(port, token, (ok.body as { job: Job }).job.id);
    expect(job.status).toBe("done");
    expect(job.result?.watermark).toBe(true);
    expect(job.result?.strategy).toBe("reencode");
    const marked = await decodeGray(job.result!.output);
    const source = await decodeGray(SRC, ["-ss", "30", "-t", "2"]);
    // Bottom-right corner carries the mark; the rest of the picture matches the source.
    expect(regionDiff(marked[10]!, source[10]!, 0.8, 0.85, 1, 1)).toBeGreaterThan(20);
    expect(regionDiff(marked[10]!, source[10]!, 0, 0, 0.6, 0.6)).toBeLessThan(6);
  });

  it("caps a Free clip at the plan's quality instead of refusing it, and prices audio as audio", async () => {
    await session("free");
    const video = await call(port, token, "POST", "/jobs", {
      body: { source: media.url("src1080.mp4"), startSeconds: 2, endSeconds: 4 },
    });
    // One clip at a time on a plan without batch (the ledger's open-hold limit): the sound once the picture is done.
    const v = await waitForJob(port, token, (video.body as { job: Job }).job.id);
    const audio = await call(port, token, "POST", "/jobs", {
      body: {
        source: join(dir, "audio.m4a"),
        videoUrl: PAGE,
        startSeconds: 2,
        endSeconds: 4,
        format: "mp3",
        quality: "1080p",
      },
    });
    const a = await waitForJob(port, token, (audio.body as { job: Job }).job.id);
    expect(v?.status).toBe("done");
    expect(v?.result?.height).toBe(720);
    expect(api.holds.get(v!.credits.holdId!)?.clip.quality).toBe("720p");
    expect(a?.status).toBe("done");
    expect(api.holds.get(a!.credits.holdId!)?.clip.quality).toBe("144p");
  });

  it("cancel stops ffmpeg, releases the hold and leaves no partial file", async () => {
    await session("advanced");
    const before = readdirSync(outputDir).sort();
    const reply = await call(port, token, "POST", "/jobs", {
      body: { source: SRC, videoUrl: PAGE, startSeconds: 0, endSeconds: 110, format: "webm", fileName: "cancel-me" },
    });
    const id = (reply.body as { job: Job }).job.id;
    await waitForJob(port, token, id, (j) => j.status === "running" && j.progress.percent > 20);
    const cancel = await call(port, token, "POST", `/jobs/${id}/cancel`);
    expect(cancel.status).toBe(200);
    const job = await waitForJob(port, token, id);
    expect(job.status).toBe("cancelled");
    expect(callsFor(`clipcut-job-${id}`)).toEqual(["holds:201", "release:200"]);
    expect(readdirSync(outputDir).sort()).toEqual(before);
    await new Promise((r) => setTimeout(r, 300));
    const ps = execFileSync("ps", ["-eo", "args"]).toString();
    expect(ps).not.toContain("cancel-me");
  });

  it("runs a batch from two sources with bounded concurrency; it keeps no presets of its own", async () => {
    await session("advanced");
    // Presets live in the account (GET /api/v1/presets); the extension sends their format and quality.
    expect((await call(port, token, "GET", "/presets")).status).toBe(404);
    let running = 0;
    let peak = 0;
    const seen = new Map<string, string>();
    const listener = (e: { type: string; job?: Job }) => {
      if (e.type !== "job" || !e.job) return;
      seen.set(e.job.id, e.job.status);
      running = [...seen.values()].filter((s) => s === "reserving" || s === "running" || s === "verifying").length;
      peak = Math.max(peak, running);
    };
    companion.queue.on("event", listener);
    const reply = await call(port, token, "POST", "/batch", {
      body: {
        jobs: [
          { source: SRC, videoUrl: PAGE, startSeconds: 1, endSeconds: 4 },
          { source: SRC, videoUrl: PAGE, startSeconds: 50, endSeconds: 53, format: "gif", quality: "240p" },
          { source: media.url("src1080.mp4"), startSeconds: 3, endSeconds: 6 },
          { source: join(dir, "audio.m4a"), videoUrl: PAGE, startSeconds: 10, endSeconds: 20, format: "mp3" },
        ],
      },
    });
    expect(reply.status).toBe(202);
    const jobs = (reply.body as { jobs: Job[] }).jobs;
    const done = await Promise.all(jobs.map((j) => waitForJob(port, token, j.id)));
    companion.queue.off("event", listener);
    expect(done.map((j) => j.status)).toEqual(["done", "done", "done", "done"]);
    expect(done[1]?.result?.format).toBe("gif");
    expect(done[1]?.result?.height).toBe(240);
    expect(done[3]?.result?.format).toBe("mp3");
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBeGreaterThan(0);

    // A plan without batch: the batch is queued as it is (no plan check of its own); the ledger holds one clip at a
    // time. With a clip of the account already held, each of the batch's holds is refused and nothing is charged.
    await session("free");
    const held = {
      ...[...api.holds.values()][0]!,
      id: "open-hold",
      userToken: USERS.free.token,
      state: "held" as const,
    };
    api.holds.set(held.id, held);
    try {
      const free = await call(port, token, "POST", "/batch", {
        body: {
          jobs: [
            { source: SRC, videoUrl: PAGE, startSeconds: 1, endSeconds: 2 },
            { source: SRC, videoUrl: PAGE, startSeconds: 3, endSeconds: 4 },
          ],
        },
      });
      expect(free.status).toBe(202);
      const ended = await Promise.all((free.body as { jobs: Job[] }).jobs.map((j) => waitForJob(port, token, j.id)));
      expect(ended.map((j) => [j.status, j.error?.code, j.error?.message, j.credits.state])).toEqual(
        Array(2).fill(["failed", "plan_limit", BATCH_LIMIT_MESSAGE, "none"]),
      );
    } finally {
      api.holds.delete(held.id);
    }
  });

  it("has one push channel, the WebSocket: no Server-Sent Events, and no token in a plain request's query", async () => {
    expect((await call(port, token, "GET", "/events")).status).toBe(404);
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve) =>
      request({
        host: "127.0.0.1",
        port,
        path: `/jobs?token=${token}`,
        headers: { origin: EXTENSION_ORIGIN, host: `127.0.0.1:${port}` },
      })
        .on("response", (res) => resolve(res.statusCode ?? 0))
        .end(),
    );
    expect(status).toBe(401);
  });
});
