import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { probeMedia } from "../src/source/probe";
import { resolveSource } from "../src/source/source";
import { bestMatch, decodeGray, sourceGray } from "./frames";
import { cut, tools } from "./helpers";
import { outputFacts } from "./probe-helpers";
import { startRangeServer, type RangeServer } from "./range-server";

const dir = inject("mediaDir");
let server: RangeServer;
let bytesPerSecond = 0;
let fileSize = 0;
let source: Buffer[] = [];

beforeAll(async () => {
  server = await startRangeServer(dir);
  const info = await probeMedia(tools.ffprobe, await resolveSource(tools, join(dir, "src1080.mp4")));
  bytesPerSecond = (info.bitRate ?? 0) / 8;
  fileSize = statSync(join(dir, "src1080.mp4")).size;
  expect(bytesPerSecond).toBeGreaterThan(300_000);
  source = await sourceGray(join(dir, "src1080.mp4"));
});
afterAll(() => server.close());

describe("direct media URL with range requests (1080p30, 2 s GOP)", () => {
  const CLIP = 8;
  // Decoding starts at the keyframe before start (≤ 2 s earlier) and reads ≤ 1 s past the end; on top come the
  // header/probe reads and one range chunk of read-ahead per request (measured ≈ 1.5–2.5 MB in total).
  const budget = () => bytesPerSecond * (CLIP + 2 + 1) + 2_500_000;

  for (const start of [4, 30.4]) {
    it(`smart cut at ${start}s reads about bitrate × duration and starts on the right frame`, async () => {
      server.reset();
      const result = await cut({ source: server.url("src1080.mp4"), start, end: start + CLIP });
      const sent = server.bytesSent();
      expect(result.strategy).toBe(start === 4 ? "copy" : "smart");
      expect(sent).toBeLessThan(budget());
      expect(sent).toBeGreaterThan(bytesPerSecond * CLIP * 0.8);
      expect(sent).toBeLessThan(fileSize * 0.45);
      // Measured 19–20 requests here (probe, header, seeks, 1 MB answers); "< 20" failed CI once. A request storm
      // would be hundreds, so 25 keeps the check meaningful with some headroom.
      expect(server.requests()).toBeLessThanOrEqual(25);
      const facts = await outputFacts(result.output);
      expect(facts.decodeErrors).toBe("");
      expect(facts.height).toBe(1080);
      expect(facts.framesIgnoringEditList).toBe(CLIP * 30);
      const out = await decodeGray(result.output);
      const firstIndex = Math.round(start * 30);
      expect(bestMatch(out[0]!, source, firstIndex).index).toBe(firstIndex);
      expect(bestMatch(out[out.length - 1]!, source, firstIndex + CLIP * 30 - 1).index).toBe(
        firstIndex + CLIP * 30 - 1,
      );
    });
  }
});
