import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, expect, type BrowserContext, type Page, type Worker } from "@playwright/test";
import { makeVideoSource } from "../../../extension/companion/test/media";
import { startRangeServer, type RangeServer } from "../../../extension/companion/test/range-server";
import { CHROMIUM_LAUNCH } from "../../chromium";

/** The real parts of the extension journey: the unpacked build, the companion with a stand-in yt-dlp, media. */
const ROOT = process.cwd();
export const SITE_PORT = Number(process.env.E2E_PORT ?? 8790);
export const COMPANION_PORT = Number(process.env.E2E_COMPANION_PORT ?? 8832);
const BUILD_DIR = join(ROOT, "extension/dist/e2e/chrome-mv3");
export const VIDEO_ID = "dQw4w9WgXcQ";
export const VIDEO_TITLE = "Stand-in video for ClipCut";
export const SOURCE_SECONDS = 70;
const MEDIA_DIR = join(tmpdir(), "clipcut-extension-e2e-media");
export const SOURCE_FILE = join(MEDIA_DIR, "source-720p.mp4");

/** The extension built for this run's site and companion ports (build-time config). */
export function buildExtension() {
  const result = spawnSync("npx", ["wxt", "build", "extension"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CLIPCUT_SITE_ORIGINS: `http://localhost:${SITE_PORT},http://127.0.0.1:${SITE_PORT}`,
      CLIPCUT_COMPANION_PORT: String(COMPANION_PORT),
      CLIPCUT_EXTENSION_OUT: "dist/e2e",
    },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`extension build failed:\n${result.stdout}\n${result.stderr}`);
}

export async function makeMedia(): Promise<RangeServer> {
  mkdirSync(MEDIA_DIR, { recursive: true });
  await makeVideoSource(SOURCE_FILE, {
    width: 1280,
    height: 720,
    seconds: SOURCE_SECONDS,
    videoBitrate: "1500k",
    fps: 25,
  });
  return startRangeServer(MEDIA_DIR);
}

export interface Companion {
  token: string;
  outputDir: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** `clipcut-companion serve` with temporary config and output folders, resolving pages through the fake yt-dlp. */
export async function startCompanion(media: RangeServer): Promise<Companion> {
  const dir = mkdtempSync(join(tmpdir(), "clipcut-ext-companion-"));
  const outputDir = join(dir, "out");
  const fixture = join(dir, "yt-dlp.json");
  writeFileSync(
    fixture,
    JSON.stringify({
      id: VIDEO_ID,
      title: VIDEO_TITLE,
      duration: SOURCE_SECONDS,
      http_headers: { "User-Agent": "Mozilla/5.0" },
      formats: [
        {
          format_id: "22",
          url: media.url("source-720p.mp4"),
          ext: "mp4",
          vcodec: "avc1.64001f",
          acodec: "mp4a.40.2",
          width: 1280,
          height: 720,
          fps: 25,
          protocol: "https",
        },
      ],
    }),
  );
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(ROOT, "extension/companion/src/cli.ts"),
      "serve",
      "--port",
      String(COMPANION_PORT),
      "--output-dir",
      outputDir,
      "--api-base",
      `http://localhost:${SITE_PORT}`,
      "--allow-private-sources",
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        CLIPCUT_YTDLP: join(ROOT, "extension/companion/test/fake-yt-dlp.mjs"),
        FAKE_YTDLP_JSON: fixture,
        CLIPCUT_COMPANION_CONFIG_DIR: join(dir, "config"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const token = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`companion did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Pairing token[^:]*: ([A-Za-z0-9_-]{43})/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`companion exited ${code}:\n${output}`)));
  });
  return {
    token,
    outputDir,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

export async function launchWithExtension(): Promise<{ context: BrowserContext; worker: Worker; extensionId: string }> {
  const profile = mkdtempSync(join(tmpdir(), "clipcut-ext-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_LAUNCH.executablePath,
    headless: false,
    baseURL: `http://localhost:${SITE_PORT}`,
    viewport: { width: 1280, height: 900 },
    args: [
      ...CHROMIUM_LAUNCH.args.filter((a) => a !== "--headless"),
      "--headless=new",
      `--disable-extensions-except=${BUILD_DIR}`,
      `--load-extension=${BUILD_DIR}`,
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  const extensionId = new URL(worker.url()).host;
  await routeYouTube(context);
  await routeEmbed(context);
  return { context, worker, extensionId };
}

/** YouTube is unreachable here: a stand-in watch page with YouTube's landmarks plays the loopback media. */
export async function routeYouTube(context: BrowserContext) {
  await context.route("https://www.youtube.com/**", async (route) => {
    const url = new URL(route.request().url());
    // Chromium blocks a public page from reading loopback (Local Network Access): the page asks its own origin,
    // and the route hands the byte ranges over from the loopback media server.
    if (url.pathname === "/stand-in/source.mp4")
      return route.fulfill({ response: await route.fetch({ url: mediaUrl, headers: route.request().headers() }) });
    if (route.request().resourceType() !== "document") return route.fulfill({ status: 204 });
    const id = url.searchParams.get("v") ?? url.pathname.split("/").pop() ?? "";
    await route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><title>${VIDEO_TITLE} - YouTube</title></head>
<body><main>
<div id="movie_player" class="html5-video-player"><video class="html5-main-video" muted preload="auto" width="640" height="360"
  src="/stand-in/source.mp4" data-video-id="${id}"></video></div>
<div id="above-the-fold"><div id="title"><h1>${VIDEO_TITLE}</h1></div></div>
</main></body></html>`,
    });
  });
}
/**
 * The /clip page drives a YouTube embed over postMessage. The stand-in embed answers the page's "listening"
 * handshake as the real one does: onReady, then infoDelivery with the video's duration.
 */
export async function routeEmbed(context: BrowserContext) {
  await context.route("https://www.youtube-nocookie.com/**", (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html><body><script>
addEventListener("message", (event) => {
  let m; try { m = JSON.parse(event.data); } catch { return; }
  if (m.event !== "listening") return;
  const say = (o) => parent.postMessage(JSON.stringify({ ...o, id: 1, channel: "widget" }), "*");
  say({ event: "onReady" });
  say({ event: "infoDelivery", info: { duration: ${SOURCE_SECONDS}, currentTime: 0, playerState: 5, volume: 50, muted: false } });
});
</script></body></html>`,
    }),
  );
}
let mediaUrl = "";
export function setMediaUrl(url: string) {
  mediaUrl = url;
}

export function storedKey(worker: Worker) {
  return worker.evaluate(async () => {
    const g = globalThis as unknown as {
      chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } };
    };
    return (await g.chrome.storage.local.get("apiKey")).apiKey ?? null;
  });
}

export async function openPanel(page: Page) {
  await page.getByRole("button", { name: "Clip", exact: true }).click();
  await expect(page.getByRole("button", { name: "Create clip" })).toBeEnabled({ timeout: 15_000 });
}
