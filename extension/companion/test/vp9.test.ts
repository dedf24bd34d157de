import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { bestMatch, decodeGray, sourceGray } from "./frames";
import { cut } from "./helpers";
import { outputFacts } from "./probe-helpers";

const dir = inject("mediaDir");
const SRC = join(dir, "vp9-360.webm");
let source: Buffer[] = [];

beforeAll(async () => {
  source = await sourceGray(SRC);
  expect(source.length).toBe(12 * 30);
});

describe("VP9 smart cut (2 s GOPs): re-encode the partial GOPs, copy the rest", () => {
  const cases = [
    { what: "across two keyframes, into MP4", start: 3.3, end: 6.1, format: "mp4", first: 99, frames: 84 },
    { what: "from a keyframe, into MKV", start: 4, end: 5.5, format: "mkv", first: 120, frames: 45 },
    { what: "inside one GOP, into WebM", start: 6.2, end: 7, format: "webm", first: 186, frames: 24 },
  ] as const;
  for (const c of cases) {
    it(`${c.what}: exact frames, VP9 kept, decodes cleanly`, async () => {
      const result = await cut({ source: SRC, start: c.start, end: c.end, format: c.format, strategy: "smart" });
      expect(result.strategy).toBe("smart");
      expect(result.startSeconds).toBeCloseTo(c.start, 3);
      const facts = await outputFacts(result.output);
      expect(facts.decodeErrors).toBe("");
      expect(facts.videoCodec).toBe("vp9");
      expect(facts.frames).toBe(c.frames);
      expect(facts.framesIgnoringEditList).toBe(c.frames);
      const out = await decodeGray(result.output);
      expect(bestMatch(out[0]!, source, c.first).index).toBe(c.first);
      expect(bestMatch(out[out.length - 1]!, source, c.first + c.frames - 1).index).toBe(c.first + c.frames - 1);
    });
  }
});
