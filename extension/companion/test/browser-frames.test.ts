import { createReadStream, existsSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { FilePathSource, Input, MP4, WEBM } from "mediabunny";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companionRange, seekTarget } from "../../../app/domain/frames";
import { CHROMIUM_LAUNCH } from "../../../tests/chromium";
import { makeBandVideo, makeFragmentedNoEditList } from "./edge-media";
import { BAND_BITS, BAND_HEIGHT, BAND_WIDTH, decodeBands } from "./frame-band";
import { cut, tempDir } from "./helpers";

/**
 * The clip holds exactly the handles' frames as the browser's own decoder shows them: in Chromium, each source is
 * played with MediaSource (as YouTube plays it), a handle is the frame shown at the panel's seek target (the middle
 * of the frame) and its number is read from the pixels; the clip cut with the times the panel sends for those handles
 * (companionRange) is then played as a file, and its first and last pictures must be those frames (and ffmpeg must
 * decode every frame between, once). One browser for every case; tiny media (edge-media.ts, 144p, 3 s).
 */
const DIR = join(tmpdir(), "clipcut-edge-media-v2");
/** The clips, served beside the sources and removed at the end. */
const OUT = tempDir("clipcut-browser-frames-");
const FRAG = "frag-no-elst-144.mp4";
const VP9 = "vp9-5994-late.webm";

interface Case {
  what: string;
  source: string;
  fps: number;
  first: number;
  last: number;
  format: "mp4" | "webm";
  watermark?: boolean;
}

const CASES: Case[] = [
  // No edit list: picture n is presented at (n + 2) / fps; the handles on the two frames before the keyframe shown
  // at frame 32, and on it with the end inside its GOP (every frame re-encoded).
  { what: "fragmented MP4 without an edit list", source: FRAG, fps: 30, first: 30, last: 50, format: "mp4" },
  {
    what: "the same, the Free plan's watermark",
    source: FRAG,
    fps: 30,
    first: 31,
    last: 50,
    format: "mp4",
    watermark: true,
  },
  { what: "a keyframe start, the end in the same GOP", source: FRAG, fps: 30, first: 32, last: 50, format: "mp4" },
  // The picture 7 ms late on a millisecond clock: the end handle's frame starts 1 ms before the time sent for it.
  { what: "WebM off the frame grid, a copy", source: VP9, fps: 60000 / 1001, first: 60, last: 90, format: "webm" },
  { what: "WebM off the frame grid, a smart cut", source: VP9, fps: 60000 / 1001, first: 33, last: 44, format: "webm" },
  { what: "a one-frame VP9 head", source: VP9, fps: 60000 / 1001, first: 59, last: 80, format: "webm" },
];

/** The page's helpers: a source in MediaSource, a clip as a file, and the frame number a <video> shows at a time. */
const CELL = Math.floor(BAND_WIDTH / BAND_BITS);
const PAGE = `<!doctype html><meta charset="utf-8"><body><script>
const canvas = Object.assign(document.createElement("canvas"), { width: ${BAND_WIDTH}, height: ${BAND_HEIGHT} });
const context = canvas.getContext("2d", { willReadFrequently: true });
function read(video) {
  context.drawImage(video, 0, 0, ${BAND_WIDTH}, ${BAND_HEIGHT});
  const row = context.getImageData(0, 16, ${BAND_WIDTH}, 1).data;
  let n = 0;
  for (let b = 0; b < ${BAND_BITS}; b++) if (row[Math.floor(b * ${CELL} + ${CELL} / 2) * 4] > 128) n |= 1 << b;
  return n;
}
const once = (target, name) => new Promise((resolve, reject) => {
  target.addEventListener(name, resolve, { once: true });
  target.addEventListener("error", () => reject(new Error(name + ": " + (target.error?.message ?? "error"))), { once: true });
});
const videos = {};
async function video(name) {
  const v = document.createElement("video");
  v.muted = true;
  document.body.append(v);
  videos[name] = v;
  return v;
}
/** The whole file appended to one SourceBuffer (YouTube appends its segments the same way). */
window.mse = async (name, url, mime) => {
  const v = await video(name);
  const source = new MediaSource();
  v.src = URL.createObjectURL(source);
  await once(source, "sourceopen");
  const buffer = source.addSourceBuffer(mime);
  buffer.appendBuffer(await (await fetch(url)).arrayBuffer());
  await once(buffer, "updateend");
  source.endOfStream();
  if (v.readyState < 2) await once(v, "loadeddata");
  return { start: buffer.buffered.start(0), end: buffer.buffered.end(0) };
};
/** A clip played as a downloaded file. */
window.file = async (name, url) => {
  const v = await video(name);
  v.src = URL.createObjectURL(await (await fetch(url)).blob());
  await once(v, "loadeddata");
  return { duration: v.duration };
};
/**
 * Seeks and reads the frame shown once the seek is done and its frame presented: "seeked" alone can come before the
 * sought frame reaches the compositor on a loaded machine (the end of a clip read as its first frame), so the read
 * also waits for the video's next presented frame (a second at most, for a seek that presents none).
 */
window.frameAt = async (name, time) => {
  const v = videos[name];
  const presented = new Promise((resolve) => {
    v.requestVideoFrameCallback(resolve);
    setTimeout(resolve, 1000);
  });
  v.currentTime = time;
  await once(v, "seeked");
  await presented;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return read(v);
};
</script>`;

let server: Server;
let origin: string;
let browser: Browser;
let page: Page;

/** The test page and the media folder over loopback HTTP: MediaSource fetches its bytes from the page's origin. */
async function startServer(): Promise<void> {
  server = createServer((req, res) => {
    const name = basename(decodeURIComponent((req.url ?? "/").split("?")[0]!));
    if (name === "" || name === "page.html") return void res.writeHead(200, { "Content-Type": "text/html" }).end(PAGE);
    const path = [join(DIR, name), join(OUT, name)].find((p) => existsSync(p));
    if (!path) return void res.writeHead(404).end();
    const type = name.endsWith(".webm") ? "video/webm" : "video/mp4";
    res.writeHead(200, { "Content-Type": type, "Content-Length": String(statSync(path).size) });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The MediaSource type of a file: its container and its tracks' codec strings. */
async function mimeOf(file: string): Promise<string> {
  const input = new Input({ formats: [MP4, WEBM], source: new FilePathSource(file) });
  try {
    const codecs = await Promise.all((await input.getTracks()).map((t) => t.getCodecParameterString()));
    return `${await input.getMimeType()}; codecs="${codecs.filter(Boolean).join(", ")}"`;
  } finally {
    input.dispose();
  }
}

beforeAll(async () => {
  const progressive = join(DIR, "h264-144-g30.mp4");
  await makeBandVideo(progressive, { codec: "h264", fps: "30", seconds: 3, gop: 30 });
  await makeFragmentedNoEditList(progressive, join(DIR, FRAG), true);
  await makeBandVideo(join(DIR, VP9), { codec: "vp9", fps: "60000/1001", seconds: 3, gop: 60 });
  await startServer();
  browser = await puppeteer.launch({ ...CHROMIUM_LAUNCH, headless: true });
  page = await browser.newPage();
  await page.goto(`${origin}/page.html`);
  for (const name of [FRAG, VP9])
    await page.evaluate(`mse(${JSON.stringify(name)}, "/${name}", ${JSON.stringify(await mimeOf(join(DIR, name)))})`);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(OUT, { recursive: true, force: true });
});

describe("Chromium shows the handles' frames first and last in the clip", () => {
  for (const c of CASES) {
    it(`${c.what}: frames ${c.first}–${c.last}`, async () => {
      const at = (name: string, time: number) =>
        page.evaluate(`frameAt(${JSON.stringify(name)}, ${time})`) as Promise<number>;
      // The handles as the panel sets them: the source sought to the middle of each frame.
      const first = await at(c.source, seekTarget(c.first, c.fps));
      const last = await at(c.source, seekTarget(c.last, c.fps));
      const range = companionRange({ first: c.first, last: c.last }, c.fps);
      const clip = await cut({
        source: join(DIR, c.source),
        start: range.startSeconds,
        end: range.endSeconds,
        format: c.format,
        watermark: c.watermark ?? false,
        outputDir: OUT,
        baseName: `${basename(c.source)}-${c.first}-${c.last}`,
      });
      const name = basename(clip.output);
      const { duration } = (await page.evaluate(`file(${JSON.stringify(name)}, "/${name}")`)) as { duration: number };
      expect([await at(name, 0), await at(name, duration)]).toEqual([first, last]);
      // Every frame between, once, as ffmpeg decodes the clip.
      expect(await decodeBands(clip.output)).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    });
  }
});
