import { describe, expect, it } from "vitest";
import { companionRange, frameAt, seekTarget } from "../../../../app/domain/frames";
import { planFrames, toTicks } from "./keyframes";
import { STAGE_OFFSET } from "./staged/plan";
import type { Packet } from "../source/probe";

/**
 * The panel's frame rule (app/domain/frames.ts) and the companion's plan agree on every frame: the times the panel
 * sends for frames first..last make the plan start on `first` and end after `last`, on the stage's clock.
 */
const RATES: [string, number, number][] = [
  // name, fps, 90 kHz ticks per frame
  ["24", 24, 3750],
  ["25", 25, 3600],
  ["29.97", 30000 / 1001, 3003],
  ["30", 30, 3000],
  ["60", 60, 1500],
];
const FRAMES = 620;

/**
 * A 2 s GOP with 2 B-frames (decode order I P B B …), frame n presented at n × tick (+ the stage offset, + `late`
 * ticks: a picture that starts off the grid).
 */
function stream(tick: number, gop: number, msClock: boolean, late = 0): Packet[] {
  const at = (n: number) => {
    const pts = n * tick + STAGE_OFFSET + late;
    // Matroska keeps milliseconds (VP9 stages, YouTube's WebM): frame times rounded to 90 ticks.
    return msClock ? Math.round(pts / 90) * 90 : pts;
  };
  const packets: Packet[] = [];
  for (let base = 0; base < FRAMES; base += gop) {
    const order = [0];
    for (let p = 3; p < gop; p += 3) order.push(p, p - 2, p - 1);
    for (let b = order.length; b < gop; b++) order.push(b);
    for (const i of order) if (base + i < FRAMES) packets.push({ pts: at(base + i), dts: 0, key: i === 0 });
  }
  return packets.map((p, i) => ({ ...p, dts: i * tick }));
}

describe("the panel's frames and the companion's plan", () => {
  for (const [name, fps, tick] of RATES)
    for (const msClock of [false, true])
      it(`agree on every first and last frame at ${name} fps${msClock ? " on a millisecond clock" : ""}`, () => {
        const packets = stream(tick, Math.round(2 * fps), msClock);
        const frameOf = (pts: number) => Math.round((pts - STAGE_OFFSET) / tick);
        for (let first = 0; first < FRAMES - 40; first++) {
          const last = first + (first % 37) + 1;
          const { startSeconds, endSeconds } = companionRange({ first, last }, fps);
          const plan = planFrames(packets, toTicks(startSeconds) + STAGE_OFFSET, toTicks(endSeconds) + STAGE_OFFSET);
          expect(frameOf(plan.startPts)).toBe(first);
          expect(frameOf(plan.endPts) - 1).toBe(last);
          expect(plan.frameCount).toBe(last - first + 1);
          // The browser seeks to the same middle and shows the same frame.
          expect(frameAt(seekTarget(first, fps), fps)).toBe(first);
        }
      });

  it("agree on every first and last frame at 59.94 fps on a millisecond clock, the picture 7 ms late (a WebM with Opus)", () => {
    // The middle of a frame is then 1.3 ms after its start, 1 or 2 ms once both are rounded to the millisecond.
    const [fps, tick, late] = [60000 / 1001, 1501.5, 630];
    const packets = stream(tick, 120, true, late);
    const frameOf = (pts: number) => Math.round((pts - STAGE_OFFSET - late) / tick);
    for (let first = 0; first < FRAMES - 40; first++) {
      const last = first + (first % 37) + 1;
      const { startSeconds, endSeconds } = companionRange({ first, last }, fps);
      const plan = planFrames(packets, toTicks(startSeconds) + STAGE_OFFSET, toTicks(endSeconds) + STAGE_OFFSET);
      expect([frameOf(plan.startPts), frameOf(plan.endPts - plan.frameTicks), plan.frameCount]).toEqual([
        first,
        last,
        last - first + 1,
      ]);
    }
  });

  it("fails with milliseconds of the frame's start, as the panel sent them before (the browser shows N − 1 there)", () => {
    // Frame 1 at 30 fps starts at 0.0333…: rounded to 0.033 the browser shows frame 0, the companion starts on 1.
    const packets = stream(3000, 60, false);
    const sent = Math.round((1 / 30) * 1000) / 1000;
    const plan = planFrames(packets, toTicks(sent) + STAGE_OFFSET, toTicks(1) + STAGE_OFFSET);
    expect(Math.floor(sent * 30)).toBe(0);
    expect((plan.startPts - STAGE_OFFSET) / 3000).toBe(1);
  });
});
