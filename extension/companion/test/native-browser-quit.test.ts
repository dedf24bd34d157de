import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { DEFAULT_EXTENSION_ID } from "../../../app/domain/extension";
import { startFakeApi, type FakeApi } from "./fake-api";
import { tempDir } from "./helpers";
import { processesWith } from "./process-table";
import { startRangeServer, type RangeServer } from "./range-server";
import { FAKE_YTDLP, youtubeFormats } from "./ytdlp-fixture";

/**
 * The browser's own lifetime rules, which Playwright cannot show (CDP attached to the worker keeps it alive): raw
 * Chromium with the unpacked extension and no debugger, the companion installed as its native host, and the host's
 * own log as the witness. A site page hands the extension a clip; the background keeps its one native port for the
 * whole job, past the worker's 30 s idle stop; quitting the browser mid-cut stops ffmpeg, leaves no partial file and
 * releases the hold.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SITE_PORT = Number(process.env.NATIVE_QUIT_SITE_PORT ?? 9402);
const SITE = `http://localhost:${SITE_PORT}`;
const BUILD = join(ROOT, "extension/dist/native-quit/chrome-mv3");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TOKEN = "tok-native-quit-1234";
/** A slow link (each range answer waits this long): the cut's read lasts about a minute, while ffmpeg idles. */
const DELAY_MS = 3000;
/** Chrome stops an idle extension worker after 30 s: the job must outlive that with its port still open. */
const PAST_IDLE_MS = 35_000;

const dir = inject("mediaDir");
let api: FakeApi;
let media: RangeServer;
let browser: ChildProcess | null = null;

/** The site page: hands the extension the account's key and one clip, as the website's /clip page does. */
const page = (clip: Record<string, unknown>) => `<!doctype html><html lang="en"><title>ClipCut</title><script>
const send = (m) => new Promise((r) => chrome.runtime.sendMessage(${JSON.stringify(DEFAULT_EXTENSION_ID)}, m,
  (reply) => r(reply ?? { lastError: String(chrome.runtime.lastError && chrome.runtime.lastError.message) })));
// chrome.runtime appears on a page of a listed origin only once the extension is loaded: until then, load again.
if (!(window.chrome && chrome.runtime && chrome.runtime.sendMessage)) setTimeout(() => location.reload(), 500);
else (async () => {
  let ping = null;
  for (let i = 0; i < 100 && !(ping && ping.success); i++) {
    ping = await send({ action: "ping" });
    if (!ping.success) await new Promise((r) => setTimeout(r, 200));
  }
  const key = await send({ action: "setApiKey", apiKey: ${JSON.stringify(TOKEN)} });
  const clip = await send(${JSON.stringify({ action: "createClip", ...clip })});
  await fetch("/report", { method: "POST", body: JSON.stringify({ ping, key, clip }) });
})();
</script></html>`;

beforeAll(async () => {
  // The extension built for this site origin (its externally_connectable and API base).
  const built = spawnSync("npx", ["wxt", "build", "extension"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CLIPCUT_SITE_ORIGINS: `${SITE},http://127.0.0.1:${SITE_PORT}`,
      CLIPCUT_EXTENSION_OUT: "dist/native-quit",
    },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`extension build failed:\n${built.stdout}\n${built.stderr}`);
  media = await startRangeServer(dir, { delayMs: DELAY_MS });
  api = await startFakeApi([{ token: TOKEN, plan: "Pro", balance: 10_000 }], {
    port: SITE_PORT,
    pages: {
      "/clip": page({
        name: "Quit mid-cut",
        videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        startSeconds: 0,
        endSeconds: 140,
        // H.264 into WebM: ffmpeg reads the source (slowly) and re-encodes it.
        format: "webm",
        quality: "360p",
      }),
    },
  });
}, 300_000);

afterAll(async () => {
  if (browser?.pid && browser.exitCode === null) process.kill(-browser.pid, "SIGKILL");
  await api?.close();
  await media?.close();
});

it("keeps its native port for the whole job, and quitting the browser mid-cut stops the cut and releases the hold", async () => {
  const scratch = tempDir("clipcut-native-quit-");
  const profile = join(scratch, "profile");
  const home = join(scratch, "home");
  const tmp = join(scratch, "tmp");
  for (const d of [profile, home, tmp]) mkdirSync(d, { recursive: true });
  const outputDir = join(scratch, "out");
  const log = join(scratch, "host.log");
  const marker = `clipcut-native-quit-${process.pid}-${Date.now()}`;

  // `clipcut-companion install --user-data-dir`, as a creator runs it; the stand-in yt-dlp rides in a wrapper.
  const fixture = join(scratch, "yt-dlp.json");
  writeFileSync(
    fixture,
    JSON.stringify({
      id: "dQw4w9WgXcQ",
      title: "Stand-in video",
      duration: 150,
      // YouTube's progressive 360p format: src360.mp4 on the slow server.
      formats: youtubeFormats(media.url).filter((f) => f.format_id === "18"),
    }),
  );
  const ytDlp = join(scratch, "yt-dlp");
  writeFileSync(ytDlp, `#!/bin/sh\nFAKE_YTDLP_JSON='${fixture}' exec '${process.execPath}' '${FAKE_YTDLP}' "$@"\n`);
  chmodSync(ytDlp, 0o755);
  const installed = spawnSync(
    process.execPath,
    [
      ...["--import", "tsx", join(ROOT, "extension/companion/src/host/cli.ts"), "install"],
      ...["--user-data-dir", profile, "--output-dir", outputDir, "--api-base", SITE, "--allow-private-sources"],
      ...["--yt-dlp", ytDlp, "--log-file", log],
    ],
    {
      cwd: ROOT,
      env: { ...process.env, HOME: home, CLIPCUT_COMPANION_CONFIG_DIR: join(scratch, "config") },
      encoding: "utf8",
    },
  );
  expect(installed.status, installed.stderr).toBe(0);

  // Raw Chromium: no CDP, no Playwright. Its environment (the marker, the temp folder) reaches the host it starts.
  browser = spawn(
    CHROMIUM,
    [
      ...["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      ...["--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`],
      ...[`--disable-extensions-except=${BUILD}`, `--load-extension=${BUILD}`, `${SITE}/clip`],
    ],
    {
      env: { ...process.env, HOME: home, TMPDIR: tmp, CLIPCUT_TEST_MARKER: marker },
      detached: true,
      stdio: "ignore",
    },
  );
  const hostLog = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
  const until = async (what: string, ok: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}\nreports: ${api.reports}\n${hostLog()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  await until("the job to start", () => /job \w+ running/.test(hostLog()), 90_000);
  const running = Date.now();
  expect(JSON.parse(api.reports[0] ?? "{}")).toMatchObject({ key: { success: true }, clip: { success: true } });
  // The host that runs the job (the popup's first look may have started and closed an earlier one).
  const host = /\[clipcut-companion (\d+)\] job \w+ running/.exec(hostLog())![1]!;
  const own = (line: string) => `[clipcut-companion ${host}] ${line}`;
  // Past the worker's idle stop: the same host, its port never closed, ffmpeg still reading into the work folder.
  await until("the idle stop to pass", () => Date.now() - running > PAST_IDLE_MS, PAST_IDLE_MS + 5000);
  expect(hostLog()).not.toContain(own("the port closed"));
  expect(hostLog()).not.toMatch(/job \w+ (done|failed|cancelled)/);
  const ffmpegs = () => processesWith(marker).filter((p) => /ffmpeg/.test(p));
  expect(ffmpegs().length).toBeGreaterThan(0);
  expect(readdirSync(tmp).some((f) => f.startsWith("clipcut-"))).toBe(true);
  const [hold] = [...api.holds.values()];
  expect(hold?.state).toBe("held");

  // Quit the browser (SIGTERM to the browser process, as a desktop quit): the port closes under the running cut.
  process.kill(browser.pid!, "SIGTERM");
  await until("the host to stop", () => hostLog().includes(own("stopped; exiting")), 15_000);
  expect(hostLog()).toContain(own("the port closed: stopping 1 job(s)"));
  expect(hostLog()).toMatch(/job \w+ cancelled \(credits released\)/);
  await until("ffmpeg to end", () => ffmpegs().length === 0, 5000);
  expect(readdirSync(outputDir)).toEqual([]);
  expect(readdirSync(tmp).filter((f) => f.startsWith("clipcut-"))).toEqual([]);
  expect(hold?.state).toBe("released");
  const holdCalls = api.calls.filter((c) => c.path.startsWith("/api/v1/holds"));
  expect(holdCalls.map((c) => c.path.replace(/\/holds\/[^/]+\//, "/holds/:id/"))).toEqual([
    "/api/v1/holds",
    "/api/v1/holds/:id/release",
  ]);
}, 240_000);
