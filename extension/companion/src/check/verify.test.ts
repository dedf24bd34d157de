import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../test/media";
import { checkCopiedOutput } from "./verify";

const dir = mkdtempSync(join(tmpdir(), "clipcut-verify-"));
// 30 packets of unknown size: only the count is compared (these files have no audio).
const known = {
  seconds: 1,
  width: 64,
  height: 36,
  videoSizes: new Array<number>(30).fill(0),
  sizesExact: false,
  audioPackets: null,
};
const decode = { ffmpeg: "ffmpeg" };

async function make(ext: string): Promise<string> {
  const file = join(dir, `one.${ext}`);
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x36:rate=30", "-t", "1"],
    ...(ext === "webm" ? ["-c:v", "libvpx-vp9", "-deadline", "realtime"] : ["-c:v", "libx264"]),
    ...(ext === "mp4" ? ["-movflags", "+faststart"] : []),
    file,
  ]);
  return file;
}

describe("checkCopiedOutput: a copied clip is a whole container", () => {
  it("accepts a complete MP4 and refuses a truncated one", async () => {
    const file = await make("mp4");
    await expect(checkCopiedOutput(file, "mp4", known, decode)).resolves.toMatchObject({
      frames: 30,
      durationSeconds: 1,
    });
    const bytes = readFileSync(file);
    const cut = join(dir, "cut.mp4");
    writeFileSync(cut, bytes.subarray(0, bytes.length - 100));
    await expect(checkCopiedOutput(cut, "mp4", known, decode)).rejects.toMatchObject({ code: "verify_failed" });
    // The header alone (moov, no media) is not a clip either.
    writeFileSync(cut, bytes.subarray(0, 2000));
    await expect(checkCopiedOutput(cut, "mp4", known, decode)).rejects.toMatchObject({ code: "verify_failed" });
  });

  it("accepts a complete WebM and refuses a file that is not Matroska", async () => {
    const file = await make("webm");
    await expect(checkCopiedOutput(file, "webm", known, decode)).resolves.toMatchObject({ frames: 30 });
    const other = join(dir, "other.webm");
    writeFileSync(other, Buffer.alloc(5000));
    await expect(checkCopiedOutput(other, "webm", known, decode)).rejects.toMatchObject({ code: "verify_failed" });
  });
});
