import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeVideoSource } from "../../../extension/companion/test/media";
import { startRangeServer, type RangeServer } from "../../../extension/companion/test/range-server";
import { BUILD_DIRS, COMPANION_PORT, SITE_PORT, TEST_BUILD_ENV } from "./test-build";

/**
 * The real parts of the extension journeys (Chromium under Playwright, Firefox under puppeteer): the unpacked build,
 * the companion with a stand-in yt-dlp, the media, the stand-in YouTube pages. No browser library here.
 */
const ROOT = process.cwd();
export { BUILD_DIRS, COMPANION_PORT, SITE_PORT } from "./test-build";
export const VIDEO_ID = "dQw4w9WgXcQ";
export const VIDEO_TITLE = "Stand-in video for ClipCut";
export const SOURCE_SECONDS = 70;
export const MEDIA_DIR = join(tmpdir(), "clipcut-extension-e2e-media");
export const SOURCE_FILE = join(MEDIA_DIR, "source-720p.mp4");

/**
 * The extension built for this run's site and companion ports (build-time config). `npm test` builds both once,
 * before the browser suites (tests/e2e/extension/build.ts), and tells them so with E2E_EXTENSION_BUILT=1: two specs
 * building into one folder at once could also hand a browser a half-written extension.
 */
export function buildExtension(browser: "chrome" | "firefox" = "chrome") {
  if (process.env.E2E_EXTENSION_BUILT === "1" && existsSync(join(BUILD_DIRS[browser], "manifest.json"))) return;
  const args = browser === "firefox" ? ["-b", "firefox", "--mv3"] : [];
  const result = spawnSync("npx", ["wxt", "build", "extension", ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...TEST_BUILD_ENV,
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

/** The file the stand-in yt-dlp hands out for the watch page (the 720p source unless a test brings its own). */
export interface StandInFormat {
  file: string;
  width: number;
  height: number;
  fps: number;
  seconds: number;
  /** Caption tracks written by people (yt-dlp's "subtitles"): WebVTT files on the media server. */
  captions?: { lang: string; name: string; file: string }[];
}
/** Several stand-in videos, each answered for its own watch page (https://www.youtube.com/watch?v=<id>). */
export interface StandInVideos {
  videos: Record<string, StandInFormat>;
}
export const DEFAULT_FORMAT: StandInFormat = {
  file: "source-720p.mp4",
  width: 1280,
  height: 720,
  fps: 25,
  seconds: SOURCE_SECONDS,
};

/** yt-dlp's info for one stand-in video: one progressive MP4 on the media server, and its caption tracks. */
function ytDlpInfo(media: RangeServer, id: string, format: StandInFormat) {
  return {
    id,
    title: VIDEO_TITLE,
    duration: format.seconds,
    http_headers: { "User-Agent": "Mozilla/5.0" },
    formats: [
      {
        format_id: "22",
        url: media.url(format.file),
        ext: "mp4",
        vcodec: "avc1.64001f",
        acodec: "mp4a.40.2",
        width: format.width,
        height: format.height,
        fps: format.fps,
        protocol: "https",
      },
    ],
    ...(format.captions && {
      subtitles: Object.fromEntries(
        format.captions.map((t) => [t.lang, [{ ext: "vtt", url: media.url(t.file), name: t.name }]]),
      ),
    }),
  };
}

/** The stand-in yt-dlp's answer for the stand-in watch page(s). */
function ytDlpFixture(media: RangeServer, dir: string, format: StandInFormat | StandInVideos = DEFAULT_FORMAT): string {
  const fixture = join(dir, "yt-dlp.json");
  writeFileSync(
    fixture,
    JSON.stringify(
      "videos" in format
        ? {
            byUrl: Object.fromEntries(
              Object.entries(format.videos).map(([id, f]) => [
                `https://www.youtube.com/watch?v=${id}`,
                ytDlpInfo(media, id, f),
              ]),
            ),
          }
        : ytDlpInfo(media, VIDEO_ID, format),
    ),
  );
  return fixture;
}

export interface NativeCompanion {
  outputDir: string;
  /** The host's own log (what it was started by, its jobs, how it stopped). */
  log: string;
  /**
   * Every host process started for this install, and each child it runs, carries this folder in its environment
   * (the launcher's CLIPCUT_YTDLP, which install's --yt-dlp wrote, lives in it).
   */
  marker: string;
}

/**
 * `clipcut-companion install` as a creator runs it, for a scratch browser: `--user-data-dir` for Chromium (which then
 * reads only <dir>/NativeMessagingHosts), a scratch HOME for Firefox. The browser starts the real companion itself.
 */
export function installNativeCompanion(
  media: RangeServer,
  target: { userDataDir: string } | { home: string; browser: "firefox" },
  format: StandInFormat | StandInVideos = DEFAULT_FORMAT,
): NativeCompanion {
  const dir = mkdtempSync(join(tmpdir(), "clipcut-native-companion-"));
  const outputDir = join(dir, "out");
  const log = join(dir, "host.log");
  // The launcher names the stand-in yt-dlp (install --yt-dlp); its fixture rides in a small wrapper.
  const ytDlp = join(dir, "yt-dlp");
  writeFileSync(
    ytDlp,
    `#!/bin/sh
FAKE_YTDLP_JSON='${ytDlpFixture(media, dir, format)}' exec '${process.execPath}' '${join(ROOT, "extension/companion/test/fake-yt-dlp.mjs")}' "$@"
`,
  );
  chmodSync(ytDlp, 0o755);
  const where = "userDataDir" in target ? ["--user-data-dir", target.userDataDir] : ["--browser", target.browser];
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      join(ROOT, "extension/companion/src/host/cli.ts"),
      "install",
      ...where,
      "--output-dir",
      outputDir,
      "--api-base",
      `http://localhost:${SITE_PORT}`,
      "--allow-private-sources",
      "--yt-dlp",
      ytDlp,
      "--log-file",
      log,
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...("home" in target ? { HOME: target.home, XDG_CONFIG_HOME: "" } : {}),
        CLIPCUT_COMPANION_CONFIG_DIR: join(dir, "config"),
      },
      encoding: "utf8",
    },
  );
  if (result.status !== 0) throw new Error(`install failed:\n${result.stdout}\n${result.stderr}`);
  return { outputDir, log, marker: dir };
}

/** `clipcut-companion serve` with temporary config and output folders, resolving pages through the fake yt-dlp. */
export async function startCompanion(media: RangeServer, format: StandInFormat = DEFAULT_FORMAT): Promise<Companion> {
  const dir = mkdtempSync(join(tmpdir(), "clipcut-ext-companion-"));
  const outputDir = join(dir, "out");
  const fixture = ytDlpFixture(media, dir, format);
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(ROOT, "extension/companion/src/host/cli.ts"),
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

/** A stand-in watch page with YouTube's landmarks (the panel anchors on them), playing `videoSrc`. */
export function standInWatchPage(id: string, videoSrc: string): string {
  return `<!doctype html><html lang="en"><head><title>${VIDEO_TITLE} - YouTube</title></head>
<body><main>
<div id="movie_player" class="html5-video-player"><video class="html5-main-video" muted preload="auto" width="640" height="360"
  src="${videoSrc}" data-video-id="${id}"></video></div>
<div id="above-the-fold"><div id="title"><h1>${VIDEO_TITLE}</h1></div></div>
</main></body></html>`;
}
