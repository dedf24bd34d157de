import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { WebSocket } from "ws";
import type { Job } from "../../app/domain/companion";
import { newPairingToken } from "../../extension/companion/src/host/config";
import { allowedOrigins } from "../../extension/companion/src/host/security";
import { tuneHeapForStreaming } from "../../extension/companion/src/host/heap";
import { createCompanionServer } from "../../extension/companion/src/host/server";
import type { Tools } from "../../extension/companion/src/host/tools";
import { call, EXTENSION_ORIGIN } from "../../extension/companion/test/client";
import { startFakeApi } from "../../extension/companion/test/fake-api";

/** The stand-in yt-dlp (answers from FAKE_YTDLP_JSON). */
export const FAKE_YTDLP = new URL("../../extension/companion/test/fake-yt-dlp.mjs", import.meta.url).pathname;

/**
 * A companion `serve` in this process as the extension drives it: a Pro account on the stand-in API, page URLs
 * resolved by the stand-in yt-dlp, and each job's end taken from the WebSocket event stream (a 100 ms status poll
 * would add up to 100 ms to every timing).
 */
export async function startServeHarness(o: { tools: Tools; workDir: string }) {
  const api = await startFakeApi([{ token: "tok-bench-12345", plan: "Pro", balance: 1_000_000 }]);
  const token = newPairingToken();
  const outputDir = join(o.workDir, "out");
  mkdirSync(outputDir, { recursive: true });
  const companion = createCompanionServer({
    tools: { ...o.tools, ytDlp: FAKE_YTDLP },
    toolVersions: { ffmpeg: "ffmpeg", ytDlp: "bench" },
    outputDir,
    pairingToken: token,
    allowedOrigins: allowedOrigins(),
    apiBaseUrl: api.baseUrl,
    concurrency: 1,
    allowPrivateSources: true,
  });
  const port = await companion.listen(0);
  // As the CLI does once serve or the native host has started: BENCH_HEAP=default measures without it.
  if (process.env.BENCH_HEAP !== "default") tuneHeapForStreaming();
  // BENCH_V8_FLAGS: more V8 flags set the same way, after start-up (for A/B runs of the JIT's settings).
  for (const flag of (process.env.BENCH_V8_FLAGS ?? "").split(" ").filter(Boolean)) setFlagsFromString(flag);
  await call(port, token, "PUT", "/session", { body: { apiToken: "tok-bench-12345" } });
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: EXTENSION_ORIGIN });
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  const finished = new Map<string, Job>();
  const waiting = new Map<string, (job: Job) => void>();
  ws.on("message", (data: Buffer) => {
    const event = JSON.parse(data.toString()) as { type: string; job?: Job };
    const job = event.job;
    if (event.type !== "job" || !job || !["done", "failed", "cancelled"].includes(job.status)) return;
    finished.set(job.id, job);
    waiting.get(job.id)?.(job);
  });
  return {
    /** POST /jobs, then the job as it ended. */
    async job(body: object): Promise<Job> {
      const reply = await call(port, token, "POST", "/jobs", { body });
      const id = (reply.body as { job: Job }).job.id;
      return new Promise<Job>((resolve) => {
        const seen = finished.get(id);
        if (seen) resolve(seen);
        else waiting.set(id, resolve);
      });
    },
    /** The panel's true-cut report (POST /dry-run); throws when it is refused. */
    async report(body: object): Promise<void> {
      const reply = await call(port, token, "POST", "/dry-run", { body });
      if (reply.status !== 200) throw new Error(`dry run failed: ${reply.text}`);
    },
    async close() {
      ws.close();
      await companion.close();
      await api.close();
    },
  };
}
