import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { CROP_ASPECTS, cropFor } from "../../app/domain/crop";
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
import {
  CAPTIONS_FILE,
  CAPTIONS_VTT,
  INDEX_FILE,
  SRC_FPS,
  SRC_H,
  SRC_SECONDS,
  SRC_W,
  captionPixels,
  cueFramesOnClip,
  expectedReading,
  grayFrames,
  makeIndexSource,
  readClip,
  shiftedCueTimes,
  softTrackTimes,
} from "./extension/index-source";
import { newUserOnDashboard } from "./helpers";

/**
 * The crop you see is the crop you get, in Chromium: the real extension and companion on a source whose pixels
 * carry their own frame number and column index (extension/index-source.ts, which the Firefox suite reads too). The
 * crop box is moved on the page with the keys, the clip cut, and the file's first and last frames read back column by
 * column; then the video's caption track (the stand-in yt-dlp lists a WebVTT file) is chosen in the panel, burned in
 * and as a subtitle track.
 */
const TIMEOUT_MS = 400_000;
test.describe.configure({ mode: "serial", timeout: TIMEOUT_MS });

const DIR = join(tmpdir(), "clipcut-shorts-e2e-v2");
const watchUrl = `https://www.youtube.com/watch?v=${VIDEO_ID}`;
const FIRST = 40;
const LAST = 70;

let media: RangeServer;
let companion: NativeCompanion;
let context: BrowserContext;
/** The watch page, its panel open with the handles on FIRST and LAST, from the first test on. */
let watch: Page;

const label = (page: Page, which: "current" | "first" | "last") => page.getByTestId(`clipcut-${which}-frame`);
const frameText = (n: number) => new RegExp(`· frame ${n}$`);

/** Clicks Create clip and waits for the job to end: the clip's path. */
async function cut(): Promise<string> {
  const before = new Set(readdirSync(companion.outputDir));
  await watch.getByRole("button", { name: "Create clip" }).click();
  const fresh = () => readdirSync(companion.outputDir).filter((f) => !before.has(f) && f.endsWith(".mp4"));
  await expect.poll(fresh, { timeout: 90_000 }).toHaveLength(1);
  await expect(watch.getByRole("button", { name: "Create clip" })).toBeEnabled({ timeout: 90_000 });
  return join(companion.outputDir, fresh()[0]!);
}

test.beforeAll(async () => {
  test.setTimeout(TIMEOUT_MS);
  buildExtension();
  mkdirSync(DIR, { recursive: true });
  await makeIndexSource(join(DIR, INDEX_FILE));
  writeFileSync(join(DIR, CAPTIONS_FILE), CAPTIONS_VTT);
  media = await startRangeServer(DIR);
  setMediaUrl(media.url(INDEX_FILE));
  ({ context } = await launchWithExtension((profile) => {
    companion = installNativeCompanion(
      media,
      { userDataDir: profile },
      {
        file: INDEX_FILE,
        width: SRC_W,
        height: SRC_H,
        fps: SRC_FPS,
        seconds: SRC_SECONDS,
        captions: [{ lang: "en", name: "English", file: CAPTIONS_FILE }],
      },
    );
  }));
});

test.afterAll(async () => {
  await context?.close();
  await media?.close();
});

test("9:16, 1:1 and 4:5 at the left edge, the centre and the right edge: the clip holds exactly the box's columns from the start handle's frame", async () => {
  const site = await context.newPage();
  await newUserOnDashboard(site, { name: "Shorts Creator" });
  await expect.poll(() => storedKey(context.serviceWorkers()[0]!), { timeout: 10_000 }).toMatch(/^cc_/);
  await site.close();

  watch = await context.newPage();
  await watch.goto(watchUrl);
  await openPanel(watch);
  await expect(label(watch, "first")).toHaveText(frameText(0), { timeout: 30_000 });
  await watch.getByLabel("Quality").selectOption("144p");
  // Handles on frames 40 (mid-GOP: keyframes every 30) and 70, set with the frame keys.
  await watch.getByRole("heading", { name: "Create a clip" }).click();
  // Each press waits for its frame, as the frame-stepping test does (the stepping itself is checked there).
  await watch.keyboard.press("Shift+Period");
  await expect(label(watch, "current")).toHaveText(frameText(SRC_FPS));
  for (let i = SRC_FPS + 1; i <= FIRST; i++) {
    await watch.keyboard.press("Period");
    await expect(label(watch, "current")).toHaveText(frameText(i));
  }
  await watch.keyboard.press("BracketLeft");
  await watch.keyboard.press("Shift+Period");
  await expect(label(watch, "current")).toHaveText(frameText(LAST));
  await watch.keyboard.press("BracketRight");
  await expect(label(watch, "first")).toHaveText(frameText(FIRST));
  await expect(label(watch, "last")).toHaveText(frameText(LAST));

  // The mouse: the box dragged far past the left edge stops there.
  await watch.getByLabel("Aspect").selectOption("9:16");
  const dragged = watch.getByRole("slider", { name: "Crop box (9:16)" });
  await expect(dragged).toHaveAttribute("aria-valuetext", "centre");
  const at = (await dragged.boundingBox())!;
  await watch.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await watch.mouse.down();
  await watch.mouse.move(at.x - 400, at.y + at.height / 2, { steps: 5 });
  await watch.mouse.up();
  await expect(dragged).toHaveAttribute("aria-valuetext", "left edge");
  await expect(dragged).toHaveAttribute("data-crop-x", "0");
  await expect(watch.getByTestId("clipcut-true-cut")).toContainText("Re-encoded for the crop", { timeout: 30_000 });
  await watch.screenshot({ path: "test-results/shorts-panel-9x16.png", fullPage: true });

  for (const aspect of CROP_ASPECTS) {
    await watch.getByLabel("Aspect").selectOption(aspect);
    const box = watch.getByRole("slider", { name: `Crop box (${aspect})` });
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
      const crop = cropFor({ width: SRC_W, height: SRC_H }, aspect, position)!;
      // The box drawn on the page is the rule's box for that position.
      await expect(box).toHaveAttribute("data-crop-x", String(crop.x));
      await expect(box).toHaveAttribute("data-crop-width", String(crop.width));
      const reading = await readClip(await cut(), crop);
      expect(reading, `${aspect} at the ${words}`).toEqual(expectedReading(crop, FIRST, LAST));
    }
  }
});

/** The 1:1 box at the left edge, with the video's caption track chosen in the panel. */
async function chooseCaptions(mode: "Burned in" | "Subtitle track") {
  await watch.getByLabel("Aspect").selectOption("1:1");
  const box = watch.getByRole("slider", { name: "Crop box (1:1)" });
  await box.focus();
  await box.press("Home");
  await expect(box).toHaveAttribute("aria-valuetext", "left edge");
  // The stand-in video's one track, listed by the companion's dry run.
  const track = watch.getByLabel("Caption track");
  await expect(track.locator("option")).toHaveText(["English", "None"], { timeout: 30_000 });
  await track.selectOption("en");
  await watch.getByRole("radio", { name: mode }).check();
  return cropFor({ width: SRC_W, height: SRC_H }, "1:1", 0)!;
}

test("captions burned in: the cue's text is on exactly its frames on the clip's clock (a cue under way at the start shows from the first frame)", async () => {
  const crop = await chooseCaptions("Burned in");
  const file = await cut();
  expect(await readClip(file, crop)).toEqual(expectedReading(crop, FIRST, LAST));
  const frames = await grayFrames(file, crop.width, crop.height);
  const bright = frames.flatMap((f, i) => (captionPixels(f, crop.width) > 20 ? [i] : []));
  // Cue A (frames 30–49) from the clip's frame 0, cue B (frames 55–64) from its frame 15.
  expect(bright).toEqual(cueFramesOnClip(FIRST, LAST));
});

test("captions as a subtitle track: the MP4's mov_text cues hold the cues' times shifted onto the clip's clock", async () => {
  const crop = await chooseCaptions("Subtitle track");
  const file = await cut();
  expect(await readClip(file, crop)).toEqual(expectedReading(crop, FIRST, LAST));
  // No text in the picture: the captions are a track of their own.
  const frames = await grayFrames(file, crop.width, crop.height);
  expect(frames.filter((f) => captionPixels(f, crop.width) > 20)).toHaveLength(0);
  const times = await softTrackTimes(file);
  const want = shiftedCueTimes(FIRST, LAST);
  expect(times).toHaveLength(want.length);
  times.forEach(([start, end], i) => {
    expect(start).toBeCloseTo(want[i]![0], 6);
    expect(end).toBeCloseTo(want[i]![1], 6);
  });
  await watch.close();
});
