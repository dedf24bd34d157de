import { describe, expect, it } from "vitest";
import { downscaleSteps, picturesDiffer, type RgbaPicture } from "./picture-compare";

/**
 * The true-cut report compares the browser's own grab of a handle's frame with the companion's thumbnail of it. Here
 * both are rendered as the browsers and ffmpeg render them:
 * - the browser's canvas draw (drawImage with the default smoothing): 4-tap bilinear, no prefilter, so a large
 *   downscale samples a picture instead of averaging it;
 * - the grab: the video's frame drawn down through `downscaleSteps` to 160 px wide, each step one such draw;
 * - ffmpeg's `scale` (the thumbnail, 180 px tall): filtered, i.e. each output pixel the mean of what it covers (an
 *   upscale, as for a 128-row source, interpolates).
 */
type Gray = { width: number; height: number; gray: Float64Array };

const at = (p: Gray, x: number, y: number) =>
  p.gray[Math.min(p.height - 1, Math.max(0, y)) * p.width + Math.min(p.width - 1, Math.max(0, x))]!;

function canvasDraw(p: Gray, width: number, height: number): Gray {
  const gray = new Float64Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const fx = ((x + 0.5) * p.width) / width - 0.5;
      const fy = ((y + 0.5) * p.height) / height - 0.5;
      const [x0, y0] = [Math.floor(fx), Math.floor(fy)];
      const [ax, ay] = [fx - x0, fy - y0];
      gray[y * width + x] =
        (1 - ay) * ((1 - ax) * at(p, x0, y0) + ax * at(p, x0 + 1, y0)) +
        ay * ((1 - ax) * at(p, x0, y0 + 1) + ax * at(p, x0 + 1, y0 + 1));
    }
  return { width, height, gray };
}

function ffmpegScale(p: Gray, width: number, height: number): Gray {
  if (width >= p.width) return canvasDraw(p, width, height);
  const gray = new Float64Array(width * height);
  const [sx, sy] = [p.width / width, p.height / height];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let [sum, weight] = [0, 0];
      for (let yy = Math.floor(y * sy); yy < Math.ceil((y + 1) * sy); yy++)
        for (let xx = Math.floor(x * sx); xx < Math.ceil((x + 1) * sx); xx++) {
          const w =
            (Math.min(xx + 1, (x + 1) * sx) - Math.max(xx, x * sx)) *
            (Math.min(yy + 1, (y + 1) * sy) - Math.max(yy, y * sy));
          sum += w * at(p, xx, yy);
          weight += w;
        }
      gray[y * width + x] = sum / weight;
    }
  return { width, height, gray };
}

/** JPEG's rounding, give or take: a deterministic ±3 on every pixel. */
function rgba(p: Gray, seed = 1): RgbaPicture {
  const data = new Uint8ClampedArray(p.width * p.height * 4);
  let s = seed;
  p.gray.forEach((v, i) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const g = v + ((s % 7) - 3);
    data.set([g, g, g, 255], i * 4);
  });
  return { width: p.width, height: p.height, data };
}

/** The browser's grab (160 wide) and the companion's thumbnail (180 tall) of a frame, as the rule gets them. */
function grab(frame: Gray): RgbaPicture {
  let picture = frame;
  for (const step of downscaleSteps(frame, 160)) picture = canvasDraw(picture, step.width, step.height);
  return rgba(picture, 7);
}
const thumbnail = (frame: Gray) =>
  rgba(ffmpegScale(frame, Math.round((180 * frame.width) / frame.height / 2) * 2, 180), 11);

function picture(width: number, height: number, lum: (x: number, y: number) => number): Gray {
  const gray = new Float64Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) gray[y * width + x] = lum(x, y);
  return { width, height, gray };
}

/** The e2e suites' pixel-indexed source (640 x 128): Gray-coded column stripes, the frame's bits, black below. */
const striped = (frame: number, shift = 0) =>
  picture(640, 128, (x, y) => {
    const b = Math.floor(y / 6);
    if (y < 60) return 255 * ((Math.floor((x + shift) / 2 ** b) + Math.floor((x + shift) / 2 ** (b + 1))) % 2);
    if (y < 88) return 255 * (Math.floor(frame / 2 ** Math.floor((y - 60) / 4)) % 2);
    return 16;
  });

/** The companion's test source (640 x 360): the frame's bits on top, 14-row column stripes, black below. */
const indexed = (frame: number) =>
  picture(640, 360, (x, y) => {
    if (y < 80) return 255 * (Math.floor(frame / 2 ** Math.floor(y / 10)) % 2);
    const b = Math.floor((y - 80) / 14);
    if (y < 220) return 255 * ((Math.floor(x / 2 ** b) + Math.floor(x / 2 ** (b + 1))) % 2);
    return 16;
  });

/** A plain scene (1280 x 720): a sky-to-ground gradient with a bright disc. */
const scene = (discX: number) =>
  picture(1280, 720, (x, y) => ((x - discX) ** 2 + (y - 300) ** 2 < 120 ** 2 ? 230 : 40 + (y / 720) * 120));

describe("picturesDiffer: is the browser's frame the companion's frame?", () => {
  it("two renderings of the same high-contrast striped frame are the same picture", () => {
    for (const frame of [striped(40), striped(93), indexed(40), indexed(93)])
      expect(picturesDiffer(grab(frame), thumbnail(frame))).toBe(false);
  });

  it("two renderings of the same plain scene are the same picture", () => {
    expect(picturesDiffer(grab(scene(400)), thumbnail(scene(400)))).toBe(false);
  });

  it("another frame, another framing or another scene is not the same picture", () => {
    // One frame later (one bit of the frame's index flips), a picture cropped 8 columns further, another scene.
    expect(picturesDiffer(grab(striped(41)), thumbnail(striped(40)))).toBe(true);
    expect(picturesDiffer(grab(indexed(41)), thumbnail(indexed(40)))).toBe(true);
    expect(picturesDiffer(grab(striped(40, 8)), thumbnail(striped(40)))).toBe(true);
    expect(picturesDiffer(grab(scene(400)), thumbnail(scene(460)))).toBe(true);
    expect(picturesDiffer(grab(scene(400)), thumbnail(indexed(40)))).toBe(true);
  });
});

describe("downscaleSteps: the grab halves the frame until one more draw reaches its width", () => {
  it("halves a 1080p frame to 240 wide, then draws it at 160", () => {
    expect(downscaleSteps({ width: 1920, height: 1080 }, 160)).toEqual([
      { width: 960, height: 540 },
      { width: 480, height: 270 },
      { width: 240, height: 135 },
      { width: 160, height: 90 },
    ]);
  });

  it("draws a frame already small in one step", () => {
    expect(downscaleSteps({ width: 200, height: 100 }, 160)).toEqual([{ width: 160, height: 80 }]);
  });
});
