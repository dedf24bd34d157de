import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { cropFor } from "../../app/domain/crop";
import { run } from "../../extension/companion/test/media";
import { columnIndices, decodeGrayFrames, frameIndex } from "../../extension/companion/test/shorts-media";
import { startRangeServer, type RangeServer } from "../../extension/companion/test/range-server";
import {
  VIDEO_ID,
  buildExtension,
  installNativeCompanion,
  launchWithExtension,
  openPanel,
  setMediaUrl,
  storedKey,
  type NativeCompanion,
} from "./extension/harness";
import { newUserOnDashboard } from "./helpers";

/**
 * The crop you see is the crop you get, in Chromium: the real extension and companion on a source whose pixels
 * carry their own frame number and column index (extension/companion/test/shorts-media.ts). The crop box is moved
 * on the page with the keys, the clip cut, and the file's first and last frames read back column by column.
 */
const TIMEOUT_MS = 400_000;
test.describe.configure({ mode: "serial", timeout: TIMEOUT_MS });

const DIR = join(tmpdir(), "clipcut-shorts-e2e-v1");
const FILE = "index-columns-640x256.mp4";
/**
 * 640 × 256: the 9:16 box is 144 × 256, whose short side is a quality's height (144p), so the clip keeps the box's
 * pixels as they are (a box between two qualities is scaled down to the lower one, and columns could not be read
 * one by one). In the page's 640 × 360 <video> the picture is letterboxed: bars above and below.
 */
const SRC_W = 640;
const SRC_H = 256;
const SRC_FPS = 30;
const SRC_SECONDS = 4;
const watchUrl = `https://www.youtube.com/watch?v=${VIDEO_ID}`;
const FIRST = 40;
const LAST = 70;

/**
 * The pixel-indexed source of the companion's Shorts tests (extension/companion/test/shorts-media.ts, read back with
 * its columnIndices and frameIndex), at this test's size: rows 0–79 the frame's index in 8 stripes, rows 80–219 the
 * column's index in a 10-bit Gray code, black below.
 */
async function makeIndexSource(path: string) {
  const bit = (value: string, b: string) => `mod(floor(${value}/pow(2,${b})),2)`;
  const colBit = "floor((Y-80)/14)";
  const lum = `if(lt(Y,80),255*${bit("N", "floor(Y/10)")},if(lt(Y,220),255*mod(floor(X/pow(2,${colBit}))+floor(X/pow(2,${colBit}+1)),2),16))`;
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i"],
    `testsrc2=size=${SRC_W}x${SRC_H}:rate=${SRC_FPS},format=gray,geq=lum='${lum}',format=yuv420p`,
    ...["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", String(SRC_SECONDS)],
    // B-frames and 1 s GOPs, as a download has them: the start handle's frame is not a keyframe.
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-bf", "2", "-g", "30", "-keyint_min", "30"],
    ...["-sc_threshold", "0", "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", path],
  ]);
}

let media: RangeServer;
let companion: NativeCompanion;
let context: BrowserContext;

const label = (page: Page, which: "current" | "first" | "last") => page.getByTestId(`clipcut-${which}-frame`);
const frameText = (n: number) => new RegExp(`· frame ${n}$`);

test.beforeAll(async () => {
  test.setTimeout(TIMEOUT_MS);
  buildExtension();
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(join(DIR, FILE))) await makeIndexSource(join(DIR, FILE));
  media = await startRangeServer(DIR);
  setMediaUrl(media.url(FILE));
  ({ context } = await launchWithExtension((profile) => {
    companion = installNativeCompanion(
      media,
      { userDataDir: profile },
      { file: FILE, width: SRC_W, height: SRC_H, fps: SRC_FPS, seconds: SRC_SECONDS },
    );
  }));
});

test.afterAll(async () => {
  await context?.close();
  await media?.close();
});

test("9:16 at the left edge, the centre and the right edge: the clip holds exactly the box's columns from the start handle's frame", async () => {
  const site = await context.newPage();
  await newUserOnDashboard(site, { name: "Shorts Creator" });
  await expect.poll(() => storedKey(context.serviceWorkers()[0]!), { timeout: 10_000 }).toMatch(/^cc_/);

  const watch = await context.newPage();
  await watch.goto(watchUrl);
  await openPanel(watch);
  await expect(label(watch, "first")).toHaveText(frameText(0), { timeout: 30_000 });
  await watch.getByLabel("Quality").selectOption("144p");
  // Handles on frames 40 (mid-GOP: keyframes every 30) and 70, set with the frame keys.
  await watch.getByRole("heading", { name: "Create a clip" }).click();
  await watch.keyboard.press("Shift+Period");
  for (let i = 0; i < FIRST - SRC_FPS; i++) await watch.keyboard.press("Period");
  await expect(label(watch, "current")).toHaveText(frameText(FIRST));
  await watch.keyboard.press("BracketLeft");
  await watch.keyboard.press("Shift+Period");
  await expect(label(watch, "current")).toHaveText(frameText(LAST));
  await watch.keyboard.press("BracketRight");
  await expect(label(watch, "first")).toHaveText(frameText(FIRST));
  await expect(label(watch, "last")).toHaveText(frameText(LAST));

  await watch.getByLabel("Aspect").selectOption("9:16");
  const box = watch.getByRole("slider", { name: "Crop box (9:16)" });
  await expect(box).toBeVisible();
  await expect(box).toHaveAttribute("aria-valuetext", "centre");
  await expect(watch.getByTestId("clipcut-true-cut")).toContainText("Re-encoded for the crop", { timeout: 30_000 });
  await watch.screenshot({ path: "test-results/shorts-panel-9x16.png", fullPage: true });

  const positions: [string, () => Promise<void>, number][] = [
    ["left edge", () => box.press("Home"), 0],
    [
      "centre",
      async () => {
        for (let i = 0; i < 10; i++) await box.press("ArrowRight");
      },
      0.5,
    ],
    ["right edge", () => box.press("End"), 1],
  ];
  for (const [words, move, position] of positions) {
    await box.focus();
    await move();
    await expect(box).toHaveAttribute("aria-valuetext", words);
    const crop = cropFor({ width: SRC_W, height: SRC_H }, "9:16", position)!;
    // The box drawn on the page is the rule's box for that position.
    await expect(box).toHaveAttribute("data-crop-x", String(crop.x));
    await expect(box).toHaveAttribute("data-crop-width", String(crop.width));

    const before = new Set(readdirSync(companion.outputDir));
    await watch.getByRole("button", { name: "Create clip" }).click();
    await expect(watch.getByRole("progressbar").last()).toHaveAttribute("aria-valuenow", "100", { timeout: 90_000 });
    const fresh = () => readdirSync(companion.outputDir).filter((f) => !before.has(f) && f.endsWith(".mp4"));
    await expect.poll(fresh).toHaveLength(1);
    const { frames, width } = await decodeGrayFrames(join(companion.outputDir, fresh()[0]!), crop.width, crop.height);
    const columns = Array.from({ length: crop.width }, (_, i) => crop.x + i);
    expect(frames).toHaveLength(LAST - FIRST + 1);
    expect(frameIndex(frames[0]!, width)).toBe(FIRST);
    expect(frameIndex(frames[frames.length - 1]!, width)).toBe(LAST);
    expect(columnIndices(frames[0]!, width)).toEqual(columns);
    expect(columnIndices(frames[frames.length - 1]!, width)).toEqual(columns);
  }
  await Promise.all([site.close(), watch.close()]);
});
