import { describe, expect, it } from "vitest";
import { clipRequestSchema } from "./api";
import { AUDIO_QUALITY, clipQuality, clipRangeError, CLIP_TOO_SHORT_MESSAGE } from "./clip-request";
import { ZERO_DURATION_MESSAGE } from "./credits";
import { cropFor } from "./crop";
import { clipJobRequestSchema } from "./companion";
import { createClipMessageSchema } from "./extension";

const clip = {
  name: "Goal",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25,
  format: "mp4",
  quality: "720p",
} as const;

const crop11 = cropFor({ width: 1920, height: 1080 }, "1:1", 1)!;

/** The API (clips and holds), the site → extension message and a companion job: one request, one set of rules. */
const boundaries = {
  api: (c: Record<string, unknown>) => clipRequestSchema.safeParse(c),
  siteMessage: (c: Record<string, unknown>) => createClipMessageSchema.safeParse({ action: "createClip", ...c }),
  companionJob: (c: Record<string, unknown>) => clipJobRequestSchema.safeParse({ source: c.videoUrl, ...c }),
};

describe("one clip request at every boundary", () => {
  const cases: [string, Record<string, unknown>, boolean][] = [
    ["a 15 s clip", {}, true],
    ["exactly 0.1 s (10.1 − 10 is below 0.1 in binary)", { startSeconds: 10, endSeconds: 10.1 }, true],
    ["0.0000001 s", { startSeconds: 10, endSeconds: 10.0000001 }, false],
    ["0.09 s", { startSeconds: 10, endSeconds: 10.09 }, false],
    ["end before start", { startSeconds: 10, endSeconds: 5 }, false],
    ["past the 24-hour cap", { startSeconds: 0, endSeconds: 24 * 3600 + 1 }, false],
    ["a negative start", { startSeconds: -1, endSeconds: 5 }, false],
    ["a javascript: URL", { videoUrl: "javascript:alert(1)" }, false],
    ["an ftp: URL", { videoUrl: "ftp://example.com/a.mp4" }, false],
    ["credentials in the URL", { videoUrl: "https://user:pw@example.com/a.mp4" }, false],
    ["a direct http media link", { videoUrl: "http://cdn.example.com/a.mp4" }, true],
    ["an empty name", { name: "  " }, false],
    ["an unknown quality", { quality: "999p" }, false],
    // Short videos: the options are optional, strict, and agree with each other and the format.
    ["9:16, centred by default", { aspect: "9:16" }, true],
    ["Original said out loud", { aspect: "original", crop: null, captions: null }, true],
    ["9:16 at the right edge", { aspect: "9:16", cropPosition: 1 }, true],
    ["a position past the edge", { aspect: "9:16", cropPosition: 1.5 }, false],
    ["a position without an aspect", { cropPosition: 0.5 }, false],
    ["an unknown aspect", { aspect: "16:9" }, false],
    ["the panel's crop", { aspect: "1:1", crop: crop11 }, true],
    ["a crop of another aspect", { aspect: "9:16", crop: crop11 }, false],
    ["a crop and a position", { aspect: "1:1", crop: crop11, cropPosition: 0 }, false],
    ["a crop outside the frame", { aspect: "1:1", crop: { ...crop11, x: 842 } }, false],
    ["a crop with odd sizes", { aspect: "1:1", crop: { ...crop11, width: 1079, height: 1079 } }, false],
    ["a crop whose box is not its aspect", { aspect: "1:1", crop: { ...crop11, x: 0, width: 1200 } }, false],
    ["an aspect on an audio clip", { format: "mp3", aspect: "9:16" }, false],
    ["burned-in captions with an .srt", { captions: { track: "en", mode: "burn", srt: true } }, true],
    ["a subtitle track in WebM", { format: "webm", captions: { track: "pt-BR", mode: "soft" } }, true],
    ["a subtitle track in a GIF", { format: "gif", captions: { track: "en", mode: "soft" } }, false],
    ["captions on an audio clip", { format: "mp3", captions: { track: "en", mode: "burn" } }, false],
    ["a caption track that is not a code", { captions: { track: "../en", mode: "burn" } }, false],
    ["an unknown caption mode", { captions: { track: "en", mode: "karaoke" } }, false],
    ["an extra caption field", { captions: { track: "en", mode: "burn", colour: "red" } }, false],
  ];
  for (const [what, over, ok] of cases) {
    it(`${what}: ${ok ? "accepted" : "refused"} everywhere`, () => {
      const results = Object.fromEntries(
        Object.entries(boundaries).map(([name, parse]) => [name, parse({ ...clip, ...over }).success]),
      );
      expect(results).toEqual({ api: ok, siteMessage: ok, companionJob: ok });
    });
  }

  it("says why a range is too short, on endSeconds", () => {
    expect(clipRangeError(10, 10.05)).toBe(CLIP_TOO_SHORT_MESSAGE);
    expect(clipRangeError(0, 0.1)).toBeNull();
    const parsed = clipRequestSchema.safeParse({ ...clip, endSeconds: 10.05 });
    expect(parsed.error?.issues[0]).toMatchObject({ message: CLIP_TOO_SHORT_MESSAGE, path: ["endSeconds"] });
  });

  it("says the duration must be greater than zero when the end is not after the start", () => {
    expect(clipRangeError(10, 10)).toBe(ZERO_DURATION_MESSAGE);
    expect(clipRangeError(10, 5)).toBe(ZERO_DURATION_MESSAGE);
    expect(clipRangeError(0, 0)).toBe(ZERO_DURATION_MESSAGE);
    const parsed = clipRequestSchema.safeParse({ ...clip, endSeconds: 10 });
    expect(parsed.error?.issues[0]).toMatchObject({ message: ZERO_DURATION_MESSAGE, path: ["endSeconds"] });
  });

  it("audio has one quality for the site, the API and the companion", () => {
    expect(clipQuality("mp3", "1080p")).toBe(AUDIO_QUALITY);
    expect(clipQuality("wav", "360p")).toBe(AUDIO_QUALITY);
    expect(clipQuality("mp4", "1080p")).toBe("1080p");
  });
});
