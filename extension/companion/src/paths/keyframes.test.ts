import { describe, expect, it } from "vitest";
import { copyEnd, isClosedPrefix, joinFrames, planFrames } from "./keyframes";
import type { Packet } from "../source/probe";

const F = 3000; // one frame at 30 fps in 90 kHz ticks

/** A closed-GOP stream with 2 B-frames (decode order I P B B P B B …), GOP of `gop` frames. */
function stream(gops: number, gop = 6): Packet[] {
  const packets: Packet[] = [];
  for (let g = 0; g < gops; g++) {
    const base = g * gop;
    const order = [0];
    for (let p = 3; p < gop; p += 3) order.push(p, p - 2, p - 1);
    for (let b = order.length; b < gop; b++) order.push(b);
    for (const i of order) packets.push({ pts: (base + i) * F + 2 * F, dts: 0, key: i === 0 });
  }
  return packets.map((p, i) => ({ ...p, dts: i * F }));
}

describe("planFrames", () => {
  const packets = stream(4);
  it("takes the frame shown at the start time and every frame before the end", () => {
    const plan = planFrames(packets, 2 * F + 7 * F + 100, 2 * F + 17 * F);
    expect(plan.startPts).toBe(9 * F);
    expect(plan.frameCount).toBe(10);
    expect(plan.endPts).toBe(19 * F);
    expect(plan.keyBefore).toBe(8 * F);
    expect(plan.keyAfterStart).toBe(14 * F);
    expect(plan.lastKey).toBe(14 * F);
    expect(plan.startOnKey).toBe(false);
    expect(plan.reorderDelayTicks).toBe(2 * F);
  });
  it("copies the last GOP's longest closed prefix and leaves fewer than a B-frame group to re-encode", () => {
    // Clip frames 9..19 (end 20): last GOP from frame 18 = I18 P21 B19 B20 in decode order; 18, 19 are in the clip.
    // Only I18 alone is a closed prefix within the clip (I18 P21 would need 19 and 20 first).
    const partial = planFrames(packets, 2 * F + 9 * F, 2 * F + 20 * F);
    expect(partial.lastKey).toBe(20 * F);
    expect(partial.tailFrames).toBe(2);
    expect(partial.tailCopyFrames).toBe(1);
    expect(partial.tailCopyable).toBe(false);
    // Ending after frame 21 (I18 P21 B19 B20 closed): the whole tail is copied.
    const whole = planFrames(packets, 2 * F + 9 * F, 2 * F + 22 * F);
    expect(whole.tailFrames).toBe(4);
    expect(whole.tailCopyFrames).toBe(4);
    expect(whole.tailCopyable).toBe(true);
  });
  it("knows when the start is a keyframe", () => {
    expect(planFrames(packets, 8 * F, 12 * F).startOnKey).toBe(true);
  });
});

describe("copy end with B-frames", () => {
  const packets = stream(2);
  it("stops only where no frame needs a missing reference", () => {
    expect(isClosedPrefix(packets, 2 * F, 1)).toBe(true); // I
    expect(isClosedPrefix(packets, 2 * F, 2)).toBe(false); // I P3: frames 1, 2 missing
    expect(isClosedPrefix(packets, 2 * F, 4)).toBe(true); // I P3 B1 B2
  });
  it("picks the closed prefix nearest the requested end", () => {
    const end = copyEnd(packets, 2 * F, 2 * F + 3 * F, F);
    expect(end.endPts).toBe(2 * F + 4 * F);
    expect(end.packets).toBe(4);
  });
});

describe("joinFrames", () => {
  // Frames 6–49 of ten 6-frame GOPs (shown 2 frames late): the first frame alone, and a reading of the end.
  const packets = stream(10);
  const whole = planFrames(packets, 8 * F, 52 * F);
  const head = planFrames(packets, 8 * F, 8 * F);
  const pick = (p: ReturnType<typeof planFrames>) => [p.startPts, p.endPts, p.frameCount, p.keyBefore, p.lastKey];

  it("is the whole clip's plan when the end's reading holds the last keyframe", () => {
    const joined = joinFrames(head, planFrames(packets, 47 * F, 52 * F), F);
    expect(pick(joined)).toEqual(pick(whole));
    expect([joined.tailFrames, joined.tailCopyFrames, joined.startOnKey]).toEqual([2, 1, true]);
  });

  it("takes the last keyframe from before the end's reading when none is inside it", () => {
    const joined = joinFrames(head, planFrames(packets, 51 * F, 52 * F), F);
    expect(pick(joined)).toEqual(pick(whole));
    expect(joined.tailFrames).toBe(2);
  });
});
