import { describe, expect, it } from "vitest";
import { describeEnd, describeStart, type DryRunReport } from "./true-cut";

const report = (o: Partial<DryRunReport>): DryRunReport => ({
  fps: 30,
  width: 640,
  height: 360,
  codec: "h264",
  firstFrame: 60,
  lastFrame: 80,
  frameCount: 21,
  strategy: "smart",
  reason: "frame-accurate",
  startOnKey: false,
  headFrames: 0,
  tailFrames: 0,
  keyBefore: 60,
  keyAfter: 120,
  sizeBytes: { low: 1, high: 2 },
  seconds: { low: 1, high: 2 },
  thumbnails: null,
  ...o,
});

describe("the report's sentences", () => {
  it("says a clip starting on a keyframe is copied, and a head re-encoded up to the next keyframe", () => {
    expect(describeStart(report({ startOnKey: true }))).toBe("Starts on a keyframe: copied.");
    expect(describeStart(report({ firstFrame: 110, headFrames: 10, frameCount: 30 }))).toBe(
      "Re-encodes the first 10 frames (0.33 s), then copies.",
    );
    expect(describeEnd(report({ tailFrames: 1 }))).toBe("Re-encodes the last 1 frame (0.03 s).");
  });

  it("says a smart cut with no keyframe after its first frame re-encodes every frame, from a keyframe too", () => {
    for (const startOnKey of [true, false]) {
      const r = report({ startOnKey, headFrames: 21, keyAfter: null });
      expect(describeStart(r)).toBe("Re-encodes all 21 frames (no keyframe after the first one).");
      expect(describeEnd(r)).toBeNull();
    }
  });
});
