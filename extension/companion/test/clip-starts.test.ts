import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { checkClipStarts, checkWrittenClip } from "../src/check/written-clip";
import { cut, tempDir } from "./helpers";
import { run } from "./media";

/**
 * A smart cut's clip is read back before it is handed over: its first picture is a keyframe at 0 and its sound starts
 * within one audio frame of it (plus the encoder's priming), as for the in-process copy; anything else is refused.
 */
const dir = inject("mediaDir");
const SRC = join(dir, "src360.mp4");

/** Two seconds of the source, re-encoded (AAC with its priming), then the picture or the sound shifted later. */
async function shifted(name: string, o: { video?: number; audio?: number }): Promise<string> {
  const work = tempDir();
  const clip = join(work, "clip.mp4");
  await run(
    "ffmpeg",
    ["-v", "error", "-y", "-ss", "20", "-t", "2", "-i", SRC, "-c:v", "libx264"].concat([
      "-preset",
      "ultrafast",
      "-c:a",
      "aac",
      clip,
    ]),
  );
  const out = join(work, name);
  const args = ["-v", "error", "-y", ...(o.video ? ["-itsoffset", String(o.video)] : []), "-i", clip];
  args.push(...(o.audio ? ["-itsoffset", String(o.audio)] : []), "-i", clip);
  await run("ffmpeg", [...args, "-map", "0:v:0", "-map", "1:a:0", "-c", "copy", out]);
  return out;
}

describe("the start check of encoded clips", () => {
  it("passes a smart cut's own clip: a re-encoded first keyframe at 0, its sound primed by the encoder", async () => {
    const result = await cut({ source: SRC, start: 12.5, end: 18, outputDir: tempDir() });
    expect(result.strategy).toBe("smart");
    await expect(checkClipStarts(result.output, { keyBytes: null, audioStart: 0, slack: 0.025 })).resolves.toBe(
      undefined,
    );
  });

  it("refuses a clip whose first picture is not at 0, or whose sound starts frames late", async () => {
    const late = await shifted("late-picture.mp4", { video: 0.5 });
    await expect(checkClipStarts(late, { keyBytes: null, audioStart: null })).rejects.toMatchObject({
      code: "verify_failed",
    });
    const mute = await shifted("late-sound.mp4", { audio: 0.2 });
    await expect(checkClipStarts(mute, { keyBytes: null, audioStart: 0, slack: 0.025 })).rejects.toMatchObject({
      code: "verify_failed",
    });
    // The same file's picture is fine: only the sound is refused.
    await expect(checkClipStarts(mute, { keyBytes: null, audioStart: null })).resolves.toBe(undefined);
  });
});

describe("the written clip's two checks together", () => {
  it("refuses a clip whose packets are the planned ones when its picture starts late; a wrong count is named first", async () => {
    const late = await shifted("late-picture-packets.mp4", { video: 0.5 });
    const { stdout } = await run("ffprobe", [
      ...["-v", "error", "-select_streams", "v:0", "-count_packets"],
      ...["-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", late],
    ]);
    const frames = Number(stdout.toString().trim());
    expect(frames).toBeGreaterThan(40);
    const known = {
      seconds: 2,
      width: 640,
      height: 360,
      videoSizes: new Array<number>(frames).fill(0),
      sizesExact: false,
      audioPackets: null,
    };
    const decode = { ffmpeg: "ffmpeg" };
    await expect(checkWrittenClip(late, "mp4", known, null, decode)).resolves.toMatchObject({ frames });
    const starts = { keyBytes: null, audioStart: null };
    await expect(checkWrittenClip(late, "mp4", known, starts, decode)).rejects.toMatchObject({
      code: "verify_failed",
      message: "The written clip does not start on the planned keyframe.",
    });
    const fewer = { ...known, videoSizes: known.videoSizes.slice(1) };
    await expect(checkWrittenClip(late, "mp4", fewer, starts, decode)).rejects.toMatchObject({
      code: "verify_failed",
      message: expect.stringContaining(`${frames} video packets written, ${frames - 1} chosen`) as unknown,
    });
  });
});
