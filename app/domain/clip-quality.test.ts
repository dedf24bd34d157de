import { describe, expect, it } from "vitest";
import { AUDIO_QUALITY } from "./clip-request";
import { clipTerms, decideQuality, effectiveQuality, fetchQualityBeforeAccount } from "./clip-quality";
import { planLimits } from "./plans";

describe("clip quality policy", () => {
  it("never upscales: the largest label not above the source", () => {
    expect(effectiveQuality("1080p", 720)).toBe("720p");
    expect(effectiveQuality("480p", 1080)).toBe("480p");
    expect(effectiveQuality(undefined, 1440)).toBe("1440p");
    expect(effectiveQuality("720p", 100)).toBe("144p");
  });

  it("caps an unasked quality at the plan's maximum, keeps the source's size when it fits", () => {
    expect(decideQuality({ format: "mp4", asked: undefined, planMax: "720p", sourceHeight: 1080 })).toEqual({
      charged: "720p",
      scaleTo: "720p",
      requested: null,
    });
    expect(decideQuality({ format: "mp4", asked: undefined, planMax: "1080p", sourceHeight: 720 })).toEqual({
      charged: "720p",
      scaleTo: null,
      requested: null,
    });
    expect(decideQuality({ format: "gif", asked: undefined, planMax: "1080p", sourceHeight: 1080 }).charged).toBe(
      "480p",
    );
  });

  it("audio is AUDIO_QUALITY whatever is asked, fetched and charged alike", () => {
    expect(decideQuality({ format: "mp3", asked: "1080p", planMax: "720p", sourceHeight: 1080 })).toEqual({
      charged: AUDIO_QUALITY,
      scaleTo: null,
      requested: null,
    });
    expect(fetchQualityBeforeAccount("wav", "1080p")).toBe(AUDIO_QUALITY);
    expect(fetchQualityBeforeAccount("mp4", undefined)).toBeNull();
    expect(fetchQualityBeforeAccount("gif", undefined)).toBe("480p");
  });

  it("a hold's terms: the quality decision on the plan's limits, and the plan's watermark on pictures only", () => {
    const free = planLimits("Free");
    expect(clipTerms({ format: "mp4", asked: undefined, sourceHeight: 1080, limits: free })).toEqual({
      quality: "720p",
      scaleTo: "720p",
      watermark: true,
      requested: null,
    });
    expect(clipTerms({ format: "mp3", asked: undefined, sourceHeight: 1080, limits: free }).watermark).toBe(false);
    expect(clipTerms({ format: "mp4", asked: "480p", sourceHeight: 1080, limits: planLimits("Pro") })).toEqual({
      quality: "480p",
      scaleTo: "480p",
      watermark: false,
      requested: "480p",
    });
  });
});

describe("a crop box keeps its own size unless a smaller quality is wanted", () => {
  const pro = planLimits("Pro");
  const terms = (asked: Parameters<typeof clipTerms>[0]["asked"], side: number, cropped: boolean) =>
    clipTerms({ format: "mp4", asked, sourceHeight: side, cropped, limits: pro });

  it("a 9:16 box of a 1080p video (608 wide) asked at 1080p is not shrunk, and is priced as the 480p it reaches", () => {
    expect(terms("1080p", 608, true)).toMatchObject({ quality: "480p", scaleTo: null });
  });
  it("a 9:16 box of a 360p video (202 wide) asked at 360p stays 202 wide, priced as 144p", () => {
    expect(terms("360p", 202, true)).toMatchObject({ quality: "144p", scaleTo: null });
  });
  it("a 9:16 box of a 4K video (1216 wide) asked at 1080p is scaled to 1080 wide", () => {
    expect(terms("1080p", 1216, true)).toMatchObject({ quality: "1080p", scaleTo: "1080p" });
  });
  it("an uncropped picture keeps today's rule: a 1000-line source asked at 1080p is made at 720p", () => {
    expect(terms("1080p", 1000, false)).toMatchObject({ quality: "720p", scaleTo: "720p" });
  });
});
