import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Job } from "../../../app/domain/companion";
import { NATIVE_PROTOCOL, type NativeMessage } from "../../../app/domain/native-messaging";
import { startFakeApi, type FakeApi } from "./fake-api";
import { tempDir } from "./helpers";
import { startNativeHost, type NativeHost } from "./native-client";
import { processesWith, waitUntilGone } from "./process-table";

const dir = inject("mediaDir");
let api: FakeApi;
const PRO = "tok-native-pro-1234";
const FREE = "tok-native-free-1234";
const hosts: NativeHost[] = [];

beforeAll(async () => {
  api = await startFakeApi([
    { token: PRO, plan: "Pro", balance: 10_000 },
    { token: FREE, plan: "Free", balance: 100 },
  ]);
});
afterAll(async () => {
  for (const host of hosts) host.child.kill("SIGKILL");
  await api.close();
});

function host(outputDir: string, env: NodeJS.ProcessEnv = {}, extra: string[] = []) {
  const h = startNativeHost(
    ["--output-dir", outputDir, "--api-base", api.baseUrl, "--allow-private-sources", ...extra],
    env,
  );
  hosts.push(h);
  return h;
}

const clip = (over: Record<string, unknown> = {}) => ({
  source: join(dir, "src360.mp4"),
  videoUrl: "https://www.youtube.com/watch?v=clipcut-native",
  startSeconds: 2,
  endSeconds: 6,
  format: "mp4",
  ...over,
});

const jobOf = (m: NativeMessage) => (m.type === "event" && m.event.type === "job" ? m.event.job : null);

describe("the companion as a native messaging host", () => {
  it("answers hello with its version, protocol, tools and output folder, and writes nothing but frames", async () => {
    const out = tempDir();
    const h = host(out);
    const reply = await h.request({ type: "hello", protocol: NATIVE_PROTOCOL });
    expect(reply.type).toBe("reply");
    const value = (reply as { value: Record<string, unknown> }).value;
    expect(value).toMatchObject({ name: "clipcut-companion", protocol: NATIVE_PROTOCOL, outputDir: out });
    expect(value.ffmpeg).toMatch(/ffmpeg version/);
    expect(value.ffprobe).toMatch(/ffprobe version/);
    expect((await h.request({ type: "ping" })).type).toBe("reply");
    h.child.stdin.end();
    expect(await h.exited).toBe(0);
    expect(h.stray).toEqual([]);
  });

  it("answers the panel's dry run on the same port: the frame plan, with nothing reserved or written", async () => {
    const out = tempDir();
    const h = host(out);
    const callsBefore = api.calls.length;
    const reply = await h.request({
      type: "dryRun",
      request: { source: join(dir, "src360.mp4"), startSeconds: 2, endSeconds: 6, format: "mp4", quality: "360p" },
    });
    expect(reply.type).toBe("reply");
    const report = (reply as { value: { report: Record<string, number> } }).value.report;
    expect(report.fps).toBeGreaterThan(0);
    expect(report.frameCount).toBe(report.lastFrame! - report.firstFrame! + 1);
    expect(report.firstFrame).toBe(Math.floor(2 * report.fps!));
    expect(readdirSync(out)).toEqual([]);
    expect(api.calls.slice(callsBefore)).toEqual([]);
    h.child.stdin.end();
    expect(await h.exited).toBe(0);
  });

  it("cuts a clip with the token sent with the job: progress and the result arrive on the one port, credits captured", async () => {
    const out = tempDir();
    const h = host(out);
    const reply = await h.request({ type: "submit", session: { apiToken: PRO }, jobs: [clip({ fileName: "native" })] });
    expect(reply.type).toBe("reply");
    const [job] = (reply as { value: { jobs: Job[] } }).value.jobs;
    const done = jobOf(await h.waitFor((m) => jobOf(m)?.id === job!.id && jobOf(m)?.status === "done", 90_000))!;
    expect(done.error).toBeNull();
    expect(done.credits.state).toBe("captured");
    // The capture's answer rides with the job, for the panel's balance (no /me call after the job).
    const payer = api.users.get(PRO)!;
    expect(done.credits.after).toEqual({
      balance: payer.balance,
      held: payer.held,
      available: payer.balance - payer.held,
    });
    expect(done.credits.after!.balance).toBe(10_000 - done.credits.amount!);
    expect(done.result?.output).toBe(join(out, "native.mp4"));
    expect(readdirSync(out)).toEqual(["native.mp4"]);
    expect(h.messages.some((m) => m.type === "event" && m.event.type === "progress")).toBe(true);
    const statuses = h.messages
      .map(jobOf)
      .filter((j) => j?.id === job!.id)
      .map((j) => j!.status);
    expect(statuses).toEqual(expect.arrayContaining(["queued", "reserving", "running", "verifying", "done"]));
    const listed = await h.request({ type: "jobs" });
    expect((listed as { value: { jobs: Job[] } }).value.jobs.map((j) => j.id)).toEqual([job!.id]);
    const hold = [...api.holds.values()].find((x) => x.clip.videoUrl.endsWith("clipcut-native"));
    expect(hold?.state).toBe("captured");
    h.child.stdin.end();
    expect(await h.exited).toBe(0);
    expect(h.stray).toEqual([]);
  });

  it("refuses malformed, unknown and oversized messages with a reason, and keeps serving", async () => {
    const h = host(tempDir());
    const unknown = await h.request({ type: "format-disk" });
    expect(unknown).toMatchObject({ type: "error", error: { code: "invalid_input" } });
    const noSession = await h.request({ type: "submit", jobs: [clip()] });
    expect(noSession).toMatchObject({ type: "error", error: { code: "invalid_input" } });
    expect((noSession as { error: { message: string } }).error.message).toMatch(/^session/);
    const badPath = await h.request({ type: "submit", session: { apiToken: PRO }, jobs: [clip({ fileName: "../x" })] });
    expect(badPath).toMatchObject({ type: "error", error: { code: "invalid_input" } });
    // A frame over 1 MiB is skipped unread; the next frame still parses.
    const big = Buffer.alloc(4 + 2 * 1024 * 1024, 0x20);
    big.writeUInt32LE(2 * 1024 * 1024, 0);
    h.sendRaw(big);
    await h.waitFor((m) => m.type === "error" && m.error.code === "payload_too_large");
    const bad = Buffer.from("{nope", "utf8");
    const head = Buffer.alloc(4);
    head.writeUInt32LE(bad.length, 0);
    h.sendRaw(Buffer.concat([head, bad]));
    await h.waitFor((m) => m.type === "error" && m.error.code === "invalid_json");
    expect((await h.request({ type: "ping" })).type).toBe("reply");
    // A batch is queued as it is: the ledger holds one clip at a time on a plan without batch (see the HTTP test).
    const batch = await h.request({ type: "submit", session: { apiToken: FREE }, jobs: [clip(), clip()] });
    expect(batch).toMatchObject({
      type: "reply",
      value: { jobs: [{ id: expect.any(String) }, { id: expect.any(String) }] },
    });
    h.child.stdin.end();
    await h.exited;
    expect(h.stray).toEqual([]);
  });

  it("when the port closes mid-cut, ffmpeg is gone and the host has exited within 2 s, no partial file, hold released", async () => {
    const out = tempDir();
    const marker = `clipcut-native-${randomUUID()}`;
    const log = join(tempDir("clipcut-log-"), "host.log");
    const h = host(out, { CLIPCUT_TEST_MARKER: marker }, ["--log-file", log]);
    const reply = await h.request({
      type: "submit",
      session: { apiToken: PRO },
      jobs: [clip({ startSeconds: 0, endSeconds: 120, format: "webm", fileName: "quit-me" })],
    });
    const [job] = (reply as { value: { jobs: Job[] } }).value.jobs;
    await h.waitFor(
      (m) =>
        m.type === "event" && m.event.type === "progress" && m.event.jobId === job!.id && m.event.progress.percent > 5,
      60_000,
    );
    expect(readdirSync(out).some((f) => f.endsWith(".part"))).toBe(true);
    expect(processesWith(marker).some((p) => p.includes("ffmpeg"))).toBe(true);
    const closed = Date.now();
    h.child.stdin.end();
    const code = await h.exited;
    const took = Date.now() - closed;
    expect(code).toBe(0);
    expect(took).toBeLessThan(2000);
    expect(await waitUntilGone(marker, 500)).toEqual([]);
    expect(readdirSync(out)).toEqual([]);
    const hold = [...api.holds.values()].find((x) => x.clip.endSeconds === 120 && x.clip.format === "webm");
    expect(hold?.state).toBe("released");
    expect(readFileSync(log, "utf8")).toMatch(/the port closed: stopping 1 job\(s\)[\s\S]*stopped; exiting/);
    const last = h.messages
      .map(jobOf)
      .filter((j) => j?.id === job!.id)
      .pop();
    expect(last?.status).toBe("cancelled");
    expect(h.stray).toEqual([]);
  });
});
