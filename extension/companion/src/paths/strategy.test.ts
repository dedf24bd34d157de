import { describe, expect, it } from "vitest";
import { CUT_STRATEGIES } from "../../../../app/domain/companion";
import { planFrames } from "./keyframes";
import type { Packet } from "../source/probe";
import type { CutRequest } from "./request";
import {
  chooseStrategy,
  copyRuledOut,
  expectsFullEncode,
  expectsSmartCut,
  reencodeReasons,
  validateCut,
} from "./strategy";

const F = 3000; // one frame at 30 fps in 90 kHz ticks

/** Closed GOPs of 6 with 2 B-frames (decode order I P B B P B B …): copies stop cleanly only every third frame. */
function stream(): Packet[] {
  const packets: Packet[] = [];
  for (let g = 0; g < 4; g++) {
    for (const i of [0, 3, 1, 2, 5, 4]) packets.push({ pts: (g * 6 + i) * F, dts: 0, key: i === 0 });
  }
  return packets.map((p, i) => ({ ...p, dts: i * F }));
}

const request = (o: Partial<CutRequest> & { codec: string }): CutRequest =>
  ({
    info: { video: { codec: o.codec, height: 360 }, audio: null },
    format: o.format ?? (o.codec === "vp9" ? "webm" : "mp4"),
    quality: null,
    watermark: o.watermark ?? false,
    strategy: o.strategy ?? "auto",
    allowSnap: o.allowSnap ?? false,
  }) as unknown as CutRequest;

describe("copyRuledOut: what auto chooses instead of a copy, once the start's frame is known", () => {
  const packets = stream();
  // Starts on a keyframe or inside a GOP; ends where a copy stops cleanly or not.
  const ranges = [
    [6 * F, 12 * F],
    [6 * F, 13 * F],
    [8 * F, 12 * F],
    [8 * F, 13 * F],
  ];
  it("agrees with chooseStrategy for every strategy, snap, codec, output and range", () => {
    let ruledOut = 0;
    for (const strategy of CUT_STRATEGIES)
      for (const allowSnap of [false, true])
        for (const codec of ["h264", "vp9", "hevc"])
          for (const watermark of [false, true])
            for (const [start, end] of ranges) {
              const req = request({ codec, strategy, allowSnap, watermark });
              const frames = planFrames(packets, start!, end!);
              const early = copyRuledOut(req, frames.startOnKey);
              if (early) {
                // Ruled out: the very choice chooseStrategy makes, whatever the end.
                ruledOut++;
                expect(chooseStrategy(req, frames, packets)).toEqual(early);
              } else {
                // Not ruled out: with an end where a copy stops cleanly (12 frames), a copy is chosen.
                const clean = planFrames(packets, start!, 12 * F);
                expect(chooseStrategy(req, clean, packets).kind).toBe("copy");
              }
            }
    expect(ruledOut).toBeGreaterThan(0);
  });

  it("the cut expected before any media is read is chooseStrategy's for a start inside a GOP", () => {
    const frames = planFrames(packets, 8 * F, 13 * F);
    expect(frames.startOnKey).toBe(false);
    for (const strategy of CUT_STRATEGIES)
      for (const allowSnap of [false, true])
        for (const codec of ["h264", "vp9", "hevc"])
          for (const watermark of [false, true]) {
            const req = request({ codec, strategy, allowSnap, watermark });
            // validateCut refuses these before anything is expected.
            if ((strategy === "copy" || strategy === "smart") && watermark) continue;
            if (strategy === "smart" && codec === "hevc") continue;
            const kind = chooseStrategy(req, frames, packets).kind;
            expect(expectsSmartCut(req)).toBe(kind === "smart");
            expect(expectsFullEncode(req)).toBe(kind === "reencode");
          }
  });

  it("rules a copy out for auto only when the start is inside a GOP and no snap is allowed", () => {
    expect(copyRuledOut(request({ codec: "vp9" }), false)).toMatchObject({ kind: "smart" });
    expect(copyRuledOut(request({ codec: "hevc" }), false)).toMatchObject({ kind: "reencode" });
    expect(copyRuledOut(request({ codec: "vp9" }), true)).toBeNull();
    expect(copyRuledOut(request({ codec: "vp9", allowSnap: true }), false)).toBeNull();
    expect(copyRuledOut(request({ codec: "h264", strategy: "copy" }), false)).toBeNull();
    expect(copyRuledOut(request({ codec: "h264", watermark: true }), true)).toMatchObject({ kind: "reencode" });
  });
});

describe("validateCut: a crop or captions", () => {
  const shorts = (o: Partial<CutRequest>) =>
    ({
      info: { video: { codec: "h264", height: 360, width: 640 }, audio: null, durationSeconds: 10 },
      startSeconds: 1,
      format: "mp4",
      quality: null,
      watermark: false,
      strategy: "auto",
      allowSnap: false,
      crop: { x: 0, y: 0, width: 202, height: 360 },
      ...o,
    }) as unknown as CutRequest;

  it("is refused in a GIF, and for a copy or a smart cut, before anything is reserved", () => {
    expect(() => validateCut(shorts({}))).not.toThrow();
    expect(() => validateCut(shorts({ format: "gif" }))).toThrow(/cropped or captioned clip is a video/);
    expect(() => validateCut(shorts({ crop: null, captions: { cues: [], mode: "burn" }, format: "gif" }))).toThrow(
      /cropped or captioned clip is a video/,
    );
    expect(() => validateCut(shorts({ strategy: "copy" }))).toThrow(/copy strategy cannot be used here \(crop\)/);
    expect(() => validateCut(shorts({ strategy: "smart", captions: { cues: [], mode: "soft" } }))).toThrow(
      /smart strategy cannot be used here \(crop, captions track\)/,
    );
  });
});

describe("a captions track alone: copied beside the picture where a copy is exact, else re-encoded", () => {
  const packets = stream();
  const track = { cues: [], mode: "soft" as const };
  const withTrack = (o: Partial<CutRequest> & { codec: string }) =>
    ({
      ...request(o),
      captions: track,
      info: { video: { codec: o.codec, height: 360 }, audio: null, durationSeconds: 10 },
    }) as unknown as CutRequest;

  it("is not a re-encode by itself", () => {
    expect(reencodeReasons(withTrack({ codec: "h264" }))).toEqual([]);
    expect(reencodeReasons({ ...withTrack({ codec: "h264" }), captions: { cues: [], mode: "burn" } })).toEqual([
      "captions burned in",
    ]);
  });

  it("a start on a keyframe and a clean end: a copy (the remux adds the track)", () => {
    for (const codec of ["h264", "vp9", "hevc"])
      expect(chooseStrategy(withTrack({ codec }), planFrames(packets, 6 * F, 12 * F), packets).kind).toBe("copy");
  });

  it("a start inside a GOP or an end a copy cannot make: re-encoded, never a smart cut (none adds a track)", () => {
    for (const codec of ["h264", "vp9"])
      for (const [start, end] of [
        [8 * F, 12 * F],
        [6 * F, 14 * F],
      ]) {
        const frames = planFrames(packets, start!, end!);
        const choice = chooseStrategy(withTrack({ codec }), frames, packets);
        expect(choice).toMatchObject({ kind: "reencode", reason: expect.stringMatching(/no smart cut adds/) });
        expect(expectsSmartCut(withTrack({ codec }))).toBe(false);
        // Without the track the same range is a smart cut.
        expect(chooseStrategy(request({ codec }), frames, packets).kind).toBe("smart");
      }
  });

  it("a snap allowed, or a copy asked: the copy from the keyframe before the start", () => {
    const frames = planFrames(packets, 8 * F, 13 * F);
    expect(chooseStrategy(withTrack({ codec: "h264", allowSnap: true }), frames, packets).kind).toBe("copy");
    expect(chooseStrategy(withTrack({ codec: "h264", strategy: "copy" }), frames, packets).kind).toBe("copy");
  });

  it("validateCut: a smart cut cannot add it, AVI and GIF cannot hold it; a copy can", () => {
    const req = (o: Partial<CutRequest>) => ({ ...withTrack({ codec: "h264" }), startSeconds: 1, ...o }) as CutRequest;
    expect(() => validateCut(req({}))).not.toThrow();
    expect(() => validateCut(req({ strategy: "copy" }))).not.toThrow();
    expect(() => validateCut(req({ strategy: "smart" }))).toThrow(
      /smart strategy cannot be used here \(captions track\)/,
    );
    expect(() => validateCut(req({ format: "avi" }))).toThrow(/subtitle track needs MP4, MOV, MKV or WebM/);
  });
});
