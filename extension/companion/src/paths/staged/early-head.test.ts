import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitForHead } from "./early-head";

const F = 3000; // one frame at 30 fps, 90 kHz
const HEADER = "#tb 0: 1/90000\n#media_type 0: video\n";

/**
 * framecrc lines of a closed-GOP stream with 2 B-frames (decode order I P B B …), GOPs of 6 frames, a reorder delay
 * of one frame: stream, dts, pts, duration, size, crc[, flags].
 */
function lines(gops: number): string[] {
  const out: string[] = [];
  let n = 0;
  for (let g = 0; g < gops; g++) {
    for (const i of [0, 3, 1, 2, 4, 5]) {
      const pts = (g * 6 + i + 1) * F;
      const dts = n++ * F;
      out.push(`0, ${dts}, ${pts}, ${F}, 1000, 0x00000000${i === 0 ? "" : ", F=0x0"}`);
    }
  }
  return out;
}

describe("waitForHead: the head's frames known from a listing still being written", () => {
  it("waits for the keyframe after the start and for every frame shown before it, then answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clipcut-early-head-"));
    const listing = join(dir, "stage.crc");
    const all = lines(3);
    // I1 and P4 only: the keyframe is the last frame at or before the start listed so far, but the start frame (3,
    // a B-frame decoded later) is not listed yet, so this is no "start on a keyframe".
    writeFileSync(listing, `${HEADER}${all.slice(0, 2).join("\n")}\n`);
    let stageEnded: () => void = () => undefined;
    const stageDone = new Promise<void>((resolve) => (stageEnded = resolve));
    let answered = false;
    const waiting = waitForHead({ listing, clockTicks: 1, startTick: 3 * F, endTick: 17 * F, stageDone }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(answered).toBe(false);
    // Up to and including the second GOP's keyframe (frame 7 at 7F, decoded 6th): its dts 6F < 7F, so a frame
    // shown before it could still follow in decode order.
    appendFileSync(listing, `${all.slice(2, 7).join("\n")}\n`);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(answered).toBe(false);
    appendFileSync(listing, `${all.slice(7, 9).join("\n")}\n`); // the next packet is decoded at 7F
    const found = await waiting;
    stageEnded();
    expect(found?.frames.startPts).toBe(3 * F);
    expect(found?.frames.keyAfterStart).toBe(7 * F);
    expect(found?.frames.keyBefore).toBe(F);
  });

  it("answers null when the stage ends first, and at once for a start on a keyframe", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clipcut-early-head-"));
    const listing = join(dir, "stage.crc");
    writeFileSync(listing, `${HEADER}${lines(1).join("\n")}\n`); // one GOP: no keyframe after the start
    await expect(
      waitForHead({ listing, clockTicks: 1, startTick: 3 * F, endTick: 6 * F, stageDone: Promise.resolve() }),
    ).resolves.toBeNull();
    const never = new Promise<void>(() => undefined);
    await expect(
      waitForHead({ listing, clockTicks: 1, startTick: F, endTick: 6 * F, stageDone: never }),
    ).resolves.toBeNull();
  });
});
