import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { cut, tempDir } from "./helpers";
import { run } from "./media";

const dir = inject("mediaDir");

/** Bytes of plain ffmpeg's stream copy of the same range (input-seeked: from the keyframe before, with a lead-in). */
async function plainCopyBytes(source: string, start: number, end: number, ext: string): Promise<number> {
  const out = join(tempDir(), `floor.${ext}`);
  await run(
    "ffmpeg",
    ["-v", "error", "-y", "-ss", String(start), "-t", String(end - start), "-i", source].concat(["-c", "copy", out]),
  );
  return statSync(out).size;
}

describe("a smart cut stays the size of a copy: the re-encoded ends are capped at the source's rate", () => {
  const cases = [
    { what: "H.264 into MP4", source: "src360.mp4", start: 10.5, end: 30.7, format: "mp4" },
    { what: "VP9 into WebM", source: "vp9-360.webm", start: 2.5, end: 10.4, format: "webm" },
  ] as const;
  for (const c of cases) {
    it(`${c.what}: at most 1.1x the plain copy's bytes`, async () => {
      const source = join(dir, c.source);
      const result = await cut({ source, start: c.start, end: c.end, format: c.format, strategy: "smart" });
      expect(result.strategy).toBe("smart");
      const floor = await plainCopyBytes(source, c.start, c.end, c.format);
      expect(result.sizeBytes / floor).toBeLessThanOrEqual(1.1);
    });
  }
});
