import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { run } from "../../extension/companion/test/media";
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
import { newUserOnDashboard } from "./helpers";

/**
 * The crop you see is the crop you get, in Chromium: the real extension and companion on a source whose pixels
 * carry their own frame number and column index (extension/companion/test/shorts-media.ts). The crop box is moved
 * on the page with the keys, the clip cut, and the file's first and last frames read back column by column.
 */
const TIMEOUT_MS = 400_000;
test.describe.configure({ mode: "serial", timeout: TIMEOUT_MS });

const DIR = join(tmpdir(), "clipcut-shorts-e2e-v2");
const FILE = "index-columns-640x128.mp4";
/**
 * 640 × 128: every aspect's box has a short side below 144 px (9:16: 72 × 128, 1:1: 128 × 128, 4:5: 102 × 128), so no
 * clip is scaled (a box is scaled down to the quality its short side reaches, 144p at the least) and each column can
 * be read one by one. In the page's 640 × 360 <video> the picture is letterboxed: bars above and below.
 */
const SRC_W = 640;
const SRC_H = 128;
const SRC_FPS = 30;
const SRC_SECONDS = 4;
const watchUrl = `https://www.youtube.com/watch?v=${VIDEO_ID}`;
const FIRST = 40;
const LAST = 70;
/** Rows 0–79: the column's index in a 10-bit Gray code, 8 rows a bit (no stripe narrower than 2 px: even crops). */
const COLUMN_BITS = 10;
const COLUMN_ROWS = 8;
/** Rows 80–127: the frame's index, 8 bits of 6 rows, read at the left edge (the Free plan's mark is bottom right). */
const FRAME_TOP = 80;
const FRAME_BITS = 8;
const FRAME_ROWS = 6;

/** The pixel-indexed source (the idea of extension/companion/test/shorts-media.ts, in 128 rows). */
async function makeIndexSource(path: string) {
  const bit = (value: string, b: string) => `mod(floor(${value}/pow(2,${b})),2)`;
  const colBit = `floor(Y/${COLUMN_ROWS})`;
  const lum =
    `if(lt(Y,${FRAME_TOP}),255*mod(floor(X/pow(2,${colBit}))+floor(X/pow(2,${colBit}+1)),2),` +
    `255*${bit("N", `floor((Y-${FRAME_TOP})/${FRAME_ROWS})`)})`;
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i"],
    `testsrc2=size=${SRC_W}x${SRC_H}:rate=${SRC_FPS},format=gray,geq=lum='${lum}',format=yuv420p`,
    ...["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", String(SRC_SECONDS)],
    // B-frames and 1 s GOPs, as a download has them: the start handle's frame is not a keyframe.
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-bf", "2", "-g", "30", "-keyint_min", "30"],
    ...["-sc_threshold", "0", "-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart", path],
  ]);
}

/** Every frame of a clip's picture as 8-bit gray. */
async function grayFrames(file: string, width: number, height: number): Promise<Buffer[]> {
  const { stdout } = await run("ffmpeg", [
    ...["-v", "error", "-i", file, "-map", "0:v:0", "-vf", "format=gray", "-fps_mode", "passthrough"],
    ...["-f", "rawvideo", "pipe:1"],
  ]);
  const size = width * height;
  const frames: Buffer[] = [];
  for (let i = 0; i + size <= stdout.length; i += size) frames.push(stdout.subarray(i, i + size));
  return frames;
}

const isSet = (frame: Buffer, width: number, x: number, y: number) => (frame[y * width + x] ?? 0) > 128;

/** The source column each column of a picture shows. */
function columnIndices(frame: Buffer, width: number): number[] {
  return Array.from({ length: width }, (_, x) => {
    let gray = 0;
    for (let b = 0; b < COLUMN_BITS; b++) if (isSet(frame, width, x, b * COLUMN_ROWS + COLUMN_ROWS / 2)) gray |= 1 << b;
    let n = gray;
    for (let shift = gray >> 1; shift; shift >>= 1) n ^= shift;
    return n;
  });
}

/** The source frame a picture shows. */
function frameIndex(frame: Buffer, width: number): number {
  let n = 0;
  for (let b = 0; b < FRAME_BITS; b++)
    if (isSet(frame, width, 2, FRAME_TOP + b * FRAME_ROWS + FRAME_ROWS / 2)) n |= 1 << b;
  return n;
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

test("9:16, 1:1 and 4:5 at the left edge, the centre and the right edge: the clip holds exactly the box's columns from the start handle's frame", async () => {
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

      const before = new Set(readdirSync(companion.outputDir));
      await watch.getByRole("button", { name: "Create clip" }).click();
      const fresh = () => readdirSync(companion.outputDir).filter((f) => !before.has(f) && f.endsWith(".mp4"));
      await expect.poll(fresh, { timeout: 90_000 }).toHaveLength(1);
      await expect(watch.getByRole("button", { name: "Create clip" })).toBeEnabled({ timeout: 90_000 });
      const frames = await grayFrames(join(companion.outputDir, fresh()[0]!), crop.width, crop.height);
      const columns = Array.from({ length: crop.width }, (_, i) => crop.x + i);
      const where = `${aspect} at the ${words}`;
      expect(frames, where).toHaveLength(LAST - FIRST + 1);
      expect(frameIndex(frames[0]!, crop.width), where).toBe(FIRST);
      expect(frameIndex(frames[frames.length - 1]!, crop.width), where).toBe(LAST);
      expect(columnIndices(frames[0]!, crop.width), where).toEqual(columns);
      expect(columnIndices(frames[frames.length - 1]!, crop.width), where).toEqual(columns);
    }
  }
  await Promise.all([site.close(), watch.close()]);
});
