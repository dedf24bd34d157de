import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { CompanionEvent, Job } from "../../../app/domain/companion";
import { newPairingToken } from "../src/host/config";
import { allowedOrigins } from "../src/host/security";
import { createCompanionServer, type CompanionServer } from "../src/host/server";
import { call, waitForJob } from "./client";
import { startFakeApi, type FakeApi } from "./fake-api";
import { tempDir } from "./helpers";
import { bestMatch, decodeGray, sourceGray } from "./frames";
import { outputFacts } from "./probe-helpers";
import { waitUntilGone } from "./process-table";
import { startRangeServer, type RangeServer } from "./range-server";
import { formatSelector } from "../src/source/ytdlp";
import { fakeYtDlp, UA, youtubeFormats, type FakeYtDlp } from "./ytdlp-fixture";

/** The extension's path: page URLs through `serve`, with yt-dlp (the stand-in) and real ffmpeg on loopback media. */
const dir = inject("mediaDir");
const PAGE = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const token = newPairingToken();
let api: FakeApi;
let media: RangeServer;
let companion: CompanionServer;
let port: number;
let yt: FakeYtDlp;
const events: CompanionEvent[] = [];

beforeAll(async () => {
  api = await startFakeApi([{ token: "tok-youtube-1234", plan: "Pro", balance: 100_000 }]);
  media = await startRangeServer(dir);
  const vp9 = {
    format_id: "271",
    url: media.url("vp9-360.webm"),
    ext: "webm",
    protocol: "https",
    vcodec: "vp09.00.50.08",
    acodec: "none",
    width: 2560,
    height: 1440,
    http_headers: { "User-Agent": UA, "X-Stream": "vp9" },
  };
  yt = fakeYtDlp({
    byUrl: {
      [PAGE]: { id: "dQw4w9WgXcQ", title: "Dash demo", duration: 40, formats: youtubeFormats(media.url) },
      [`${PAGE}-report`]: { id: "report", title: "Report demo", duration: 40, formats: youtubeFormats(media.url) },
      [`${PAGE}-vp9`]: { id: "vp9", title: "VP9 demo", duration: 12, formats: [...youtubeFormats(media.url), vp9] },
      [`${PAGE}-av1`]: {
        id: "av1",
        title: "AV1 demo",
        duration: 8,
        formats: [
          ...youtubeFormats(media.url),
          { ...vp9, format_id: "401", url: media.url("av1-144.webm"), vcodec: "av01.0.12M.08", height: 2160 },
        ],
      },
    },
  });
  companion = createCompanionServer({
    tools: yt.tools,
    toolVersions: { ffmpeg: "ffmpeg", ytDlp: "2026.11.01" },
    outputDir: tempDir(),
    pairingToken: token,
    allowedOrigins: allowedOrigins(),
    apiBaseUrl: api.baseUrl,
    concurrency: 2,
    allowPrivateSources: true, // the media is on loopback
  });
  companion.queue.on("event", (e) => events.push(e));
  port = await companion.listen(0);
  expect((await call(port, token, "PUT", "/session", { body: { apiToken: "tok-youtube-1234" } })).status).toBe(200);
});

afterAll(async () => {
  await companion.close();
  await api.close();
  await media.close();
});

const submit = async (body: object) => {
  const reply = await call(port, token, "POST", "/jobs", { body });
  expect(reply.status).toBe(202);
  return (reply.body as { job: Job }).job.id;
};

it("a batch of 5 ranges from one video resolves and probes once", async () => {
  const before = yt.calls().filter((c) => c.includes("-J")).length;
  const ranges = [2, 6, 10, 14, 18].map((s) => ({
    source: PAGE,
    startSeconds: s,
    endSeconds: s + 2,
    quality: "1080p",
  }));
  const reply = await call(port, token, "POST", "/batch", { body: { jobs: ranges } });
  expect(reply.status).toBe(202);
  const jobs = await Promise.all((reply.body as { jobs: Job[] }).jobs.map((j) => waitForJob(port, token, j.id)));
  for (const job of jobs) {
    expect(job.status, JSON.stringify(job.error)).toBe("done");
    expect(job.result?.height).toBe(1080);
    expect(job.result?.strategy).toBe("copy");
  }
  expect(yt.calls().filter((c) => c.includes("-J")).length - before).toBe(1);
});

it("the clip asked after the panel's report of its range reuses the report's yt-dlp answer and probe", async () => {
  const source = `${PAGE}-report`;
  const asked = () => yt.calls().filter((c) => c.includes("-J") && c.includes(source)).length;
  const range = { source, startSeconds: 10, endSeconds: 14, format: "mp4", quality: "1080p" };
  const reply = await call(port, token, "POST", "/dry-run", { body: range });
  expect(reply.status, reply.text).toBe(200);
  const report = (reply.body as { report: { strategy: string; frameCount: number; height: number } }).report;
  expect(asked()).toBe(1);
  media.reset();
  const job = await waitForJob(port, token, await submit(range));
  expect(job.status, JSON.stringify(job.error)).toBe("done");
  // The page was resolved once, for the report: the job took the same media URLs and ffprobe's description.
  expect(asked()).toBe(1);
  // The report also read the containers' headers in the companion: the clip's readers start from those bytes and
  // never ask for a file's head again (its round trips are not on the click's path).
  const read = media.seen().map((s) => `${s.name} ${String(s.headers.range)}`);
  expect(read.length).toBeGreaterThan(0);
  expect(read.filter((r) => r.endsWith(" bytes=0-65535"))).toEqual([]);
  expect(job.result?.strategy).toBe(report.strategy);
  expect(job.result?.frames).toBe(report.frameCount);
  expect(job.result?.height).toBe(report.height);
  const facts = await outputFacts(job.result!.output);
  expect(facts.decodeErrors).toBe("");
  expect(facts.framesIgnoringEditList).toBe(report.frameCount);
});

it("VP9 1440p: auto smart-cuts it, frame-exact, with the VP9 picked by the selector", async () => {
  const id = await submit({
    source: `${PAGE}-vp9`,
    startSeconds: 3.3,
    endSeconds: 6.1,
    quality: "1440p",
    format: "webm",
  });
  const job = await waitForJob(port, token, id);
  expect(job.status, JSON.stringify(job.error)).toBe("done");
  const ytCall = yt
    .calls()
    .filter((c) => c.includes(`${PAGE}-vp9`))
    .pop()!;
  expect(ytCall[ytCall.indexOf("-f") + 1]).toBe(formatSelector(1440));
  expect(job.result?.strategy).toBe("smart");
  const facts = await outputFacts(job.result!.output);
  expect(facts.decodeErrors).toBe("");
  expect(facts.videoCodec).toBe("vp9");
  expect(facts.audioCodec).toBe("opus");
  expect(facts.frames).toBe(84);
  // The first and last pictures are the source's frames 99 and 182 (3.3 s and 6.067 s at 30 fps).
  const source = await sourceGray(join(dir, "vp9-360.webm"));
  const out = await decodeGray(job.result!.output);
  expect(out.length).toBe(84);
  expect(bestMatch(out[0]!, source, 99).index).toBe(99);
  expect(bestMatch(out[83]!, source, 182).index).toBe(182);
});

it("AV1 (no safe join in FFmpeg 5.1): auto falls back to a full re-encode, says why, and shows an ETA", async () => {
  const id = await submit({ source: `${PAGE}-av1`, startSeconds: 3.3, endSeconds: 5.1, quality: "2160p" });
  const job = await waitForJob(port, token, id);
  expect(job.status, JSON.stringify(job.error)).toBe("done");
  expect(job.result?.strategy).toBe("reencode");
  expect(job.result?.reason).toMatch(/av1 cannot be joined safely.*re-encoded/);
  expect(job.result?.notes?.join(" ")).toMatch(/at most 144p/);
  const facts = await outputFacts(job.result!.output);
  expect(facts.decodeErrors).toBe("");
  expect(facts.videoCodec).toBe("h264");
  expect(facts.frames).toBe(54);
  const etas = events.filter((e) => e.type === "progress" && e.jobId === id && e.progress.etaSeconds !== null);
  expect(etas.length).toBeGreaterThan(0);
});

it("VP9 into WebM from a keyframe is an exact stream copy", async () => {
  const id = await submit({ source: `${PAGE}-vp9`, startSeconds: 4, endSeconds: 6, quality: "1440p", format: "webm" });
  const job = await waitForJob(port, token, id);
  expect(job.status, JSON.stringify(job.error)).toBe("done");
  expect(job.result?.strategy).toBe("copy");
  const facts = await outputFacts(job.result!.output);
  expect(facts.decodeErrors).toBe("");
  expect(facts.videoCodec).toBe("vp9");
  expect(facts.frames).toBe(60);
});

it("cancel stops ffmpeg: no process of the job is left in the process table", async () => {
  const marker = `clipcut-cancel-${randomUUID()}`;
  process.env.CLIPCUT_TEST_MARKER = marker; // inherited by every child the job starts
  try {
    const id = await submit({
      source: join(dir, "src360.mp4"),
      videoUrl: "https://www.youtube.com/watch?v=clipcut-test",
      startSeconds: 0,
      endSeconds: 120,
      format: "webm",
    });
    await waitForJob(port, token, id, (j) => j.status === "running" && j.progress.percent > 10);
    expect((await call(port, token, "POST", `/jobs/${id}/cancel`)).status).toBe(200);
    const job = await waitForJob(port, token, id);
    expect(job.status).toBe("cancelled");
    expect(job.credits.state).toBe("released");
    expect(await waitUntilGone(marker, 3000)).toEqual([]);
  } finally {
    delete process.env.CLIPCUT_TEST_MARKER;
  }
});
