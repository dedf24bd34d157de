import { readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { decodeBands, makeFrameBandSource } from "../../extension/companion/test/frame-band";
import { startRangeServer, type RangeServer } from "../../extension/companion/test/range-server";
import { VIDEO_FRAME, imageFrame, playAndSample } from "./extension/frame-band-page";
import {
  VIDEO_ID,
  buildExtension,
  launchWithExtension,
  openPanel,
  installNativeCompanion,
  setMediaUrl,
  storedKey,
  type NativeCompanion,
} from "./extension/harness";
import { newUserOnDashboard } from "./helpers";

/**
 * The frame you see is the frame you get, in Chromium: the real extension and companion on a 30 fps H.264 file
 * (keyframes every 60 frames) whose frame number is written in a pixel band, read back from the page's <video>,
 * from the companion's thumbnails and from the cut files.
 */
// Each step is a seek and a read (20–50 ms alone); a loaded 2-core machine needs the generous limit.
const TIMEOUT_MS = 400_000;
test.describe.configure({ mode: "serial", timeout: TIMEOUT_MS });

const DIR = join(tmpdir(), "clipcut-frame-band-e2e-v1");
const FILE = "band30-g60.mp4";
const FPS = 30;
const watchUrl = `https://www.youtube.com/watch?v=${VIDEO_ID}`;

let media: RangeServer;
let companion: NativeCompanion;
let context: BrowserContext;

const label = (page: Page, which: "current" | "first" | "last") => page.getByTestId(`clipcut-${which}-frame`);
const frameText = (n: number) => new RegExp(`· frame ${n}$`);

/** The watch page with the panel open, on the companion's frame grid (its dry run told the frame rate). */
async function panelOnFrames(): Promise<Page> {
  const watch = await context.newPage();
  await watch.goto(watchUrl);
  await openPanel(watch);
  await expect(label(watch, "first")).toHaveText(frameText(0), { timeout: 30_000 });
  await watch.getByRole("heading", { name: "Create a clip" }).click();
  return watch;
}

/** Presses a key and checks that the label and the picture both show `expected`. */
async function pressAndCheck(watch: Page, key: string, expected: number) {
  await watch.keyboard.press(key);
  await expect(label(watch, "current")).toHaveText(frameText(expected));
  expect(await watch.evaluate(VIDEO_FRAME)).toBe(expected);
}

test.beforeAll(async () => {
  // The set-up (a build, the source encoded, a browser and the companion started) gets the tests' budget.
  test.setTimeout(TIMEOUT_MS);
  buildExtension();
  await makeFrameBandSource(join(DIR, FILE), { fps: String(FPS), seconds: 20, gop: 60 });
  media = await startRangeServer(DIR);
  setMediaUrl(media.url(FILE));
  // The companion the browser starts itself (native messaging): no pairing, no port.
  ({ context } = await launchWithExtension((profile) => {
    companion = installNativeCompanion(
      media,
      { userDataDir: profile },
      { file: FILE, width: 640, height: 360, fps: FPS, seconds: 20 },
    );
  }));
});

test.afterAll(async () => {
  await context?.close();
  await media?.close();
});

test("60 presses of . and of , each land on the next frame, and the label names the frame shown", async () => {
  const watch = await panelOnFrames();
  for (let s = 1; s <= 3; s++) await pressAndCheck(watch, "Shift+Period", s * FPS);
  for (let i = 1; i <= 60; i++) await pressAndCheck(watch, "Period", 90 + i);
  for (let i = 1; i <= 60; i++) await pressAndCheck(watch, "Comma", 150 - i);
  // The buttons step the same way.
  await watch.getByRole("button", { name: "Forward one frame" }).click();
  await expect(label(watch, "current")).toHaveText(frameText(91));
  expect(await watch.evaluate(VIDEO_FRAME)).toBe(91);
  await watch.close();
});

test("[ and ] set the handles; the report and the companion's thumbnails name the same frames; the preview holds the last frame", async () => {
  const watch = await panelOnFrames();
  for (let s = 1; s <= 3; s++) await pressAndCheck(watch, "Shift+Period", s * FPS);
  for (let i = 1; i <= 5; i++) await pressAndCheck(watch, "Period", 90 + i);
  await watch.keyboard.press("BracketLeft");
  await expect(label(watch, "first")).toHaveText("00:00:03.166 · frame 95");
  for (let s = 1; s <= 2; s++) await pressAndCheck(watch, "Shift+Period", 95 + s * FPS);
  for (let i = 1; i <= 5; i++) await pressAndCheck(watch, "Period", 155 + i);
  await watch.keyboard.press("BracketRight");
  await expect(label(watch, "last")).toHaveText("00:00:05.333 · frame 160");

  // Keyframes at 60 and 120: the head 95..119 is re-encoded, the rest copied.
  const report = watch.getByTestId("clipcut-true-cut");
  await expect(report).toContainText("Re-encodes the first 25 frames (0.83 s), then copies.", { timeout: 30_000 });
  await expect(report).toContainText("66 frames at 30 fps");
  await expect(watch.getByRole("button", { name: "Snap the start to the previous keyframe (frame 60)" })).toBeVisible();
  await expect(watch.getByRole("button", { name: "Snap the start to the next keyframe (frame 120)" })).toBeVisible();
  await expect(watch.getByText("First frame · 00:00:03.166 · frame 95")).toBeVisible();
  const thumbs = [
    [watch.getByTestId("clipcut-thumb-first"), 95],
    [watch.getByTestId("clipcut-thumb-last"), 160],
  ] as const;
  for (const [thumb, frame] of thumbs)
    expect(await watch.evaluate(imageFrame((await thumb.getAttribute("src"))!))).toBe(frame);
  // The browser's own pictures of both handle frames were kept when they were on screen: the same pictures, no warning.
  await expect(watch.getByRole("img", { name: "This frame as your browser shows it" })).toHaveCount(2);
  await expect(watch.getByText("is not the picture you see")).toHaveCount(0);

  // Loop on: every frame the preview presents lies inside the range.
  await watch.getByRole("button", { name: "Play preview" }).click();
  // Three loops' worth of presented frames (the range is 66 frames), however slowly a loaded machine presents them.
  const shown = (await watch.evaluate(playAndSample(FPS, 200, 40_000))) as number[];
  expect(shown.length).toBeGreaterThan(30);
  // The loop stops from the frame callback. A loaded machine skips callbacks (the sample then jumps frames): only
  // then can a frame past the end show, and never further past it than the largest jump the sample itself saw.
  const jumps = shown
    .slice(1)
    .map((f, i) => f - shown[i]!)
    .filter((d) => d > 0);
  const slack = Math.max(1, ...jumps) - 1;
  expect(shown.filter((f) => f < 95 || f > 160 + slack)).toEqual([]);
  // It plays up to the last frame (on an idle machine, shows frame 160 itself).
  expect(Math.max(...shown)).toBeGreaterThanOrEqual(160 - slack);

  // Loop off: the preview stops on the last frame and holds it.
  await watch.getByLabel(/Loop the preview/).uncheck();
  await watch.getByRole("button", { name: "Play preview" }).click();
  await expect(watch.getByRole("button", { name: "Play preview" })).toBeVisible({ timeout: 10_000 });
  await expect(label(watch, "current")).toHaveText(frameText(160));
  expect(await watch.evaluate(VIDEO_FRAME)).toBe(160);
  await watch.close();
});

test("the cut file's first and last frames are the handles' frames, from mid-GOP and from a keyframe", async () => {
  const site = await context.newPage();
  await newUserOnDashboard(site, { name: "Frame Creator" });
  await expect.poll(() => storedKey(context.serviceWorkers()[0]!), { timeout: 10_000 }).toMatch(/^cc_/);
  const watch = await panelOnFrames();
  await watch.getByLabel("Quality").selectOption("360p");
  // Handles set with the keys (the time fields keep whole seconds when they lose focus): 95..160, then 120..150.
  const cuts: [() => Promise<void>, number, number, string][] = [
    [
      async () => {
        for (let s = 1; s <= 3; s++) await pressAndCheck(watch, "Shift+Period", s * FPS);
        for (let i = 1; i <= 5; i++) await pressAndCheck(watch, "Period", 90 + i);
        await watch.keyboard.press("BracketLeft");
        for (let s = 1; s <= 2; s++) await pressAndCheck(watch, "Shift+Period", 95 + s * FPS);
        for (let i = 1; i <= 5; i++) await pressAndCheck(watch, "Period", 155 + i);
        await watch.keyboard.press("BracketRight");
      },
      95,
      160,
      "Re-encodes all 66 frames",
    ],
    [
      async () => {
        for (let i = 1; i <= 10; i++) await pressAndCheck(watch, "Comma", 160 - i);
        await watch.keyboard.press("BracketRight");
        await pressAndCheck(watch, "Shift+Comma", 120);
        await watch.keyboard.press("BracketLeft");
      },
      120,
      150,
      "Re-encodes all 31 frames",
    ],
  ];
  for (const [setHandles, first, last, says] of cuts) {
    await watch.getByRole("heading", { name: "Create a clip" }).click();
    await setHandles();
    await expect(label(watch, "first")).toHaveText(frameText(first));
    await expect(label(watch, "last")).toHaveText(frameText(last));
    // The Free plan's watermark re-encodes every frame: the report says so.
    await expect(watch.getByTestId("clipcut-true-cut")).toContainText(says, { timeout: 30_000 });
    const before = new Set(readdirSync(companion.outputDir));
    await watch.getByRole("button", { name: "Create clip" }).click();
    await expect(watch.getByRole("progressbar").last()).toHaveAttribute("aria-valuenow", "100", { timeout: 60_000 });
    await expect
      .poll(() => readdirSync(companion.outputDir).filter((f) => !before.has(f) && f.endsWith(".mp4")))
      .toHaveLength(1);
    const file = readdirSync(companion.outputDir).find((f) => !before.has(f) && f.endsWith(".mp4"))!;
    const path = join(companion.outputDir, file);
    expect(statSync(path).size).toBeGreaterThan(0);
    const frames = await decodeBands(path);
    expect(frames[0]).toBe(first);
    expect(frames[frames.length - 1]).toBe(last);
    expect(frames).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
  }
  await Promise.all([site.close(), watch.close()]);
});
