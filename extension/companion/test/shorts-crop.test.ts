import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CROP_ASPECTS, cropFor, type Crop } from "../../../app/domain/crop";
import { companionRange } from "../../../app/domain/frames";
import type { Format } from "../../../app/domain/media";
import { inputArgs } from "../src/source/source";
import {
  captionPixels,
  columnIndices,
  decodeGrayFrames,
  frameIndex,
  makeIndexSource,
  probePackets,
  removeWorkDirs,
  probeStreams,
  runShorts,
  SRC_FPS,
  SRC_H,
  SRC_W,
  workDir,
} from "./shorts-media";

const source = join(inject("mediaDir"), "shorts-index-v1.mp4");
const fileInput = () => inputArgs({ url: source, kind: "file", headers: {}, title: "t", original: source });

beforeAll(() => makeIndexSource(source), 180_000);
afterAll(removeWorkDirs);

/** The frames the panel's handles stand on, sent as the panel sends them. */
const FIRST = 37;
const LAST = 66;

async function cut(crop: Crop | null, o: { format?: Format; watermark?: boolean } = {}) {
  const work = await workDir("crop");
  const format = o.format ?? "mp4";
  const command = await runShorts({
    videoInput: fileInput(),
    audioInput: fileInput(),
    audioCodec: "aac",
    ...companionRange({ first: FIRST, last: LAST }, SRC_FPS),
    fps: SRC_FPS,
    source: { width: SRC_W, height: SRC_H },
    crop,
    scaleTo: null,
    captions: null,
    watermark: o.watermark ?? false,
    format,
    output: join(work, `clip.${format}`),
    workDir: work,
  });
  const output = join(work, `clip.${format}`);
  const { frames } = await decodeGrayFrames(output, command.picture.width, command.picture.height);
  return { command, output, frames };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe("crop: the clip holds exactly the columns of the box, from the start handle's frame", () => {
  for (const aspect of CROP_ASPECTS)
    for (const [where, position] of [
      ["left edge", 0],
      ["centre", 0.5],
      ["right edge", 1],
    ] as const)
      it(`${aspect} at the ${where}`, async () => {
        const crop = cropFor({ width: SRC_W, height: SRC_H }, aspect, position);
        if (!crop) throw new Error("no crop");
        const { command, frames } = await cut(crop);
        expect(command.picture).toEqual({ width: crop.width, height: crop.height });
        expect(frames.length).toBe(LAST - FIRST + 1);
        const first = frames[0];
        const last = frames[frames.length - 1];
        if (!first || !last) throw new Error("no frames");
        expect(frameIndex(first, crop.width)).toBe(FIRST);
        expect(frameIndex(last, crop.width)).toBe(LAST);
        const columns = range(crop.x, crop.width);
        expect(columnIndices(first, crop.width)).toEqual(columns);
        expect(columnIndices(last, crop.width)).toEqual(columns);
        if (position === 0) expect(columns[0]).toBe(0);
        if (position === 1) expect(columns[columns.length - 1]).toBe(SRC_W - 1);
      });

  it("keeps every frame in order between the handles, and copies the sound into MP4 on the clip's clock", async () => {
    const crop = cropFor({ width: SRC_W, height: SRC_H }, "9:16", 0.3);
    const { command, output, frames } = await cut(crop);
    expect(frames.map((f) => frameIndex(f, crop?.width ?? 0))).toEqual(range(FIRST, LAST - FIRST + 1));
    expect(command.audio).toBe("copy");
    expect((await probeStreams(output)).map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual([
      "video:h264",
      "audio:aac",
    ]);
    // The sound starts with the picture (the first AAC packet at or after the first frame) and ends with it.
    const audio = await probePackets(output, "a");
    const video = await probePackets(output, "v");
    const audioEnd = Math.max(...audio.map((p) => p.pts + p.duration));
    const videoEnd = Math.max(...video.map((p) => p.pts + p.duration));
    expect(Math.min(...audio.map((p) => p.pts))).toBeLessThan(0.03);
    expect(Math.abs(audioEnd - videoEnd)).toBeLessThan(0.03);
  });

  it("WebM: the same columns and frames, the sound encoded (AAC does not go into WebM)", async () => {
    const crop = cropFor({ width: SRC_W, height: SRC_H }, "4:5", 1);
    if (!crop) throw new Error("no crop");
    const { command, output, frames } = await cut(crop, { format: "webm" });
    expect(command.audio).toBe("encode");
    expect((await probeStreams(output)).map((s) => s.codec_name)).toEqual(["vp9", "opus"]);
    expect(frames.map((f) => frameIndex(f, crop.width))).toEqual(range(FIRST, LAST - FIRST + 1));
    expect(columnIndices(frames[0] ?? Buffer.alloc(0), crop.width)).toEqual(range(crop.x, crop.width));
  });

  it("draws the Free plan's mark inside the crop, not at the edge of the whole frame", async () => {
    // The centre box is far from the frame's right edge, where the mark stands on an uncropped clip.
    const crop = cropFor({ width: SRC_W, height: SRC_H }, "9:16", 0.5);
    if (!crop) throw new Error("no crop");
    const plain = await cut(crop);
    const marked = await cut(crop, { watermark: true });
    const first = marked.frames[0];
    if (!first) throw new Error("no frames");
    expect(captionPixels(plain.frames[0] ?? Buffer.alloc(0), crop.width, crop.height)).toBe(0);
    // Bright text in the box's lower right quarter.
    let bright = 0;
    for (let y = Math.floor(crop.height * 0.75); y < crop.height; y++)
      for (let x = Math.floor(crop.width / 2); x < crop.width; x++)
        if ((first[y * crop.width + x] ?? 0) > 200) bright++;
    expect(bright).toBeGreaterThan(20);
  });
});
