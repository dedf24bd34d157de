import { describe, expect, it } from "vitest";
import {
  companionRange,
  companionSeconds,
  formatFrame,
  formatPrecise,
  frameAt,
  frameRangeSeconds,
  isUsableFps,
  seekTarget,
  snapRange,
  toFrames,
} from "./frames";

const RATES = [24, 25, 30000 / 1001, 30, 60];

/** Chromium keeps currentTime truncated to the microsecond. */
const chromiumTime = (seconds: number) => Math.floor(seconds * 1e6) / 1e6;

describe("frame times", () => {
  it("seeks to the middle of a frame, which every browser rule reads back as that frame", () => {
    for (const fps of RATES)
      for (let n = 0; n < 2000; n++) {
        const target = seekTarget(n, fps);
        // The browser shows the last frame starting at or before currentTime, with or without truncation.
        expect(Math.floor(chromiumTime(target) * fps)).toBe(n);
        expect(frameAt(chromiumTime(target), fps)).toBe(n);
        // rVFC: Chromium reports the frame's own start (truncated), Firefox the seek target.
        expect(frameAt(chromiumTime(n / fps), fps)).toBe(n);
        expect(frameAt(target, fps)).toBe(n);
      }
  });

  it("sends the companion a millisecond time inside the frame, away from both edges by more than 1 ms", () => {
    for (const fps of RATES)
      for (let n = 0; n < 2000; n++) {
        const sent = companionSeconds(n, fps);
        expect(sent * fps - n).toBeGreaterThan(0.001 * fps);
        expect(n + 1 - sent * fps).toBeGreaterThan(0.001 * fps);
      }
  });

  it("keeps a range's frames through seconds and back", () => {
    for (const fps of RATES) {
      const frames = { first: 101, last: 299 };
      expect(toFrames(frameRangeSeconds(frames, fps), fps)).toEqual(frames);
      const snapped = snapRange({ start: 3.3667, end: 10 }, fps);
      expect(toFrames(snapped, fps)).toEqual(toFrames({ start: 3.3667, end: 10 }, fps));
    }
    // 00:10–00:25 at 25 fps: frames 250 to 624, 15 s exactly.
    expect(toFrames({ start: 10, end: 25 }, 25)).toEqual({ first: 250, last: 624 });
    expect(companionRange({ first: 250, last: 624 }, 25)).toEqual({ startSeconds: 10.02, endSeconds: 24.98 });
  });

  it("labels a handle with its time to the millisecond and its frame number", () => {
    expect(formatFrame(250, 25)).toBe("00:00:10.000 · frame 250");
    expect(formatFrame(101, 30)).toBe("00:00:03.366 · frame 101");
    expect(formatPrecise(3725.5)).toBe("01:02:05.500");
  });

  it("trusts only plausible frame rates", () => {
    expect(isUsableFps(29.97)).toBe(true);
    expect(isUsableFps(0)).toBe(false);
    expect(isUsableFps(null)).toBe(false);
    expect(isUsableFps(1000)).toBe(false);
  });
});
