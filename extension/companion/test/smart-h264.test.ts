import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { keepRanges } from "../src/paths/staged/smart-h264";
import { checkCopiedOutput } from "../src/check/verify";
import { cut, tempDir, tools } from "./helpers";
import { cachedReading, run } from "./media";

const dir = inject("mediaDir");
const SRC = join(dir, "src360.mp4");

const FRAMEMD5 = ["-map", "0:v:0", "-f", "framemd5", "-"];

/** MD5 of every decoded picture, in display order, from ffmpeg's framemd5 output. */
const hashes = (framemd5: Buffer): string[] =>
  framemd5
    .toString()
    .split("\n")
    .filter((line) => /^\d/.test(line))
    .map((line) => line.split(",").pop()!.trim());
const pictureHashes = async (file: string) =>
  hashes((await run("ffmpeg", ["-v", "error", "-i", file, ...FRAMEMD5])).stdout);
/** The source's, decoded once and kept beside it (cachedReading). */
const sourceHashes = async () => hashes(await cachedReading(SRC, FRAMEMD5));

/** The drop value the `noise` expression gives packet n (evaluated here with the same arithmetic). */
function dropValue(filter: string, n: number): number {
  const expr = filter.replace("noise=drop=", "").replace(/abs\(/g, "Math.abs(").replace(/\bn\b/g, `(${n})`);
  return Number(new Function(`return ${expr};`)());
}

describe("keepRanges: the packet picker of the one-mux smart cut", () => {
  it("keeps exactly the packets in the ranges and never yields a negative (random-drop) value", () => {
    const filter = keepRanges([
      [0, 44],
      [105, 704],
      [900, 899], // empty: skipped
      [1000, 1014],
    ]);
    expect(filter).not.toContain(",");
    const kept: number[] = [];
    for (let n = 0; n < 1100; n++) {
      const drop = dropValue(filter, n);
      expect(drop).toBeGreaterThanOrEqual(0);
      if (drop === 0) kept.push(n);
    }
    const want = [
      ...Array.from({ length: 45 }, (_, i) => i),
      ...Array.from({ length: 600 }, (_, i) => 105 + i),
      ...Array.from({ length: 15 }, (_, i) => 1000 + i),
    ];
    expect(kept).toEqual(want);
    expect(keepRanges([[3, 2]])).toBe("noise=drop=1");
  });
});

describe("smart cut, H.264: only the frames that must be are encoded", () => {
  it("re-encodes the start frame up to the next keyframe, copies every later GOP bit-for-bit, and the clip is exact", async () => {
    // 10.5 s is frame 315; the next keyframe (2 s GOPs) is 12 s = frame 360: 45 frames to encode, no more.
    const result = await cut({ source: SRC, start: 10.5, end: 30.7, strategy: "smart" });
    expect(result.strategy).toBe("smart");
    expect(result.frames).toBe(606);
    const out = await pictureHashes(result.output);
    const src = (await sourceHashes()).slice(315, 315 + 606);
    expect(out).toHaveLength(606);
    const differs = out.map((hash, i) => hash !== src[i]);
    // The head: every one of its 45 pictures is a new encode (none is the source's own)…
    expect(differs.slice(0, 45).every(Boolean)).toBe(true);
    // …and from the keyframe at 12 s up to the last GOP (30 s = out frame 585) the pictures are the source's.
    expect(differs.slice(45, 585).some(Boolean)).toBe(false);
    // The end at 30.7 s is not a closed prefix of the last GOP: its longest closed prefix is copied (the source's
    // pictures) and only the frames after it, fewer than one B-frame group, are encoded.
    const tail = differs.slice(585);
    expect(tail).toHaveLength(21);
    const encoded = tail.filter(Boolean).length;
    expect(encoded).toBeGreaterThan(0);
    expect(encoded).toBeLessThanOrEqual(4);
    expect(tail.slice(0, 21 - encoded).some(Boolean)).toBe(false);
  });

  it("the folded final check refuses a clip that lost one video or one audio packet", async () => {
    const result = await cut({ source: SRC, start: 10.5, end: 30.7, strategy: "smart" });
    const { stdout } = await run("ffprobe", [
      ...["-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries", "stream=nb_read_packets"],
      ...["-of", "csv=p=0", result.output],
    ]);
    const audioPackets = Number(stdout.toString().trim());
    expect(audioPackets).toBeGreaterThan(900);
    // What the smart plan hands the check: the frame count it planned (sizes are rewritten by the MP4 muxer) and
    // the audio packets its encode listed.
    const known = {
      seconds: 20.2,
      width: 640,
      height: 360,
      videoSizes: new Array<number>(606).fill(0),
      sizesExact: false,
      audioPackets,
    };
    const decode = { ffmpeg: tools.ffmpeg };
    await expect(checkCopiedOutput(result.output, "mp4", known, decode)).resolves.toMatchObject({ frames: 606 });
    const work = tempDir();
    const remux = async (name: string, bsf: string[]) => {
      const file = join(work, name);
      await run("ffmpeg", ["-v", "error", "-y", "-i", result.output, "-map", "0", "-c", "copy", ...bsf, file]);
      return file;
    };
    const lostVideo = await remux("lost-video.mp4", ["-bsf:v", "noise=drop=not(n-300)"]);
    await expect(checkCopiedOutput(lostVideo, "mp4", known, decode)).rejects.toThrow(/605 video packets/);
    const lostAudio = await remux("lost-audio.mp4", ["-bsf:a", "noise=drop=not(n-500)"]);
    await expect(checkCopiedOutput(lostAudio, "mp4", known, decode)).rejects.toThrow(/audio packets/);
  });
});
