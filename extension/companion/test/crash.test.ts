import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { Job } from "../../../app/domain/companion";
import { startServe } from "./cli-process";
import { call } from "./client";
import { startFakeApi, type FakeApi } from "./fake-api";
import { tempDir } from "./helpers";
import { processesWith, waitUntilGone } from "./process-table";

const dir = inject("mediaDir");
let api: FakeApi;

beforeAll(async () => {
  api = await startFakeApi([{ token: "tok-crash-1234", plan: "Pro", balance: 10_000 }]);
});
afterAll(() => api.close());

it("a companion killed mid-job never captures; the hold is left to expire and the next start cleans up", async () => {
  const configDir = tempDir("clipcut-config-");
  const outputDir = tempDir();
  const marker = `clipcut-crash-${randomUUID()}`;
  const env = { CLIPCUT_COMPANION_CONFIG_DIR: configDir, CLIPCUT_TEST_MARKER: marker };
  const args = ["--port", "0", "--output-dir", outputDir, "--api-base", api.baseUrl, "--allow-private-sources"];
  const first = await startServe(args, env);
  const token = /shown once[^:]*: ([A-Za-z0-9_-]{43})/.exec(first.output)?.[1];
  expect(token).toBeDefined();
  const port = first.port;
  expect((await call(port, token!, "PUT", "/session", { body: { apiToken: "tok-crash-1234" } })).status).toBe(200);
  const reply = await call(port, token!, "POST", "/jobs", {
    body: {
      source: join(dir, "src360.mp4"),
      videoUrl: "https://www.youtube.com/watch?v=clipcut-test",
      startSeconds: 0,
      endSeconds: 120,
      format: "webm",
      fileName: "crash-me",
    },
  });
  const job = (reply.body as { job: Job }).job;
  const key = `clipcut-job-${job.id}`;
  // Wait until the hold exists and ffmpeg is writing.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const state = (await call(port, token!, "GET", `/jobs/${job.id}`)).body as { job: Job };
    if (state.job.status === "running" && state.job.progress.percent > 25) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(readdirSync(outputDir).some((f) => f.endsWith(".part"))).toBe(true);
  expect(processesWith(marker).some((p) => p.includes("ffmpeg"))).toBe(true);
  // SIGKILL cannot be handled. ffmpeg runs in its own process group (so a cancel can kill it as a whole), so
  // killing the companion's group does not reach it: the kernel must take it down with its parent.
  process.kill(-first.child.pid!, "SIGKILL");
  expect(await waitUntilGone(marker, 5000)).toEqual([]);

  const calls = api.calls.filter((c) => c.idempotencyKey?.startsWith(key)).map((c) => c.path.split("/").pop());
  expect(calls).toEqual(["holds"]);
  const hold = [...api.holds.values()][0]!;
  expect(hold.state).toBe("held");
  expect(Date.parse(hold.expiresAt)).toBeGreaterThan(Date.now());

  // The next start removes the dead job's partial file (no placeholder was ever made), and does not print the token again.
  const second = await startServe(args, env);
  expect(second.output).not.toContain(token!);
  expect(readdirSync(outputDir)).toEqual([]);
  process.kill(-second.child.pid!, "SIGTERM");
});
