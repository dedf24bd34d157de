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

describe("a picture keeps its own size unless a smaller quality is wanted", () => {
  const pro = planLimits("Pro");
  const terms = (asked: Parameters<typeof clipTerms>[0]["asked"], side: number) =>
    clipTerms({ format: "mp4", asked, sourceHeight: side, limits: pro });

  it("a 9:16 box of a 1080p video (608 wide) asked at 1080p is not shrunk, and is priced as the 480p it reaches", () => {
    expect(terms("1080p", 608)).toMatchObject({ quality: "480p", scaleTo: null });
  });
  it("a 9:16 box of a 360p video (202 wide) asked at 360p stays 202 wide, priced as 144p", () => {
    expect(terms("360p", 202)).toMatchObject({ quality: "144p", scaleTo: null });
  });
  it("a 9:16 box of a 4K video (1216 wide) asked at 1080p is scaled to 1080 wide", () => {
    expect(terms("1080p", 1216)).toMatchObject({ quality: "1080p", scaleTo: "1080p" });
  });
  it("a 1920x800 video asked at 1080p stays 800 lines, priced as 720p, as when nothing is asked", () => {
    expect(terms("1080p", 800)).toMatchObject({ quality: "720p", scaleTo: null });
    expect(terms(undefined, 800)).toMatchObject({ quality: "720p", scaleTo: null });
  });
  it("a 180-line video asked at 360p stays 180 lines, priced as 144p; asked at 144p it is scaled to 144", () => {
    expect(terms("360p", 180)).toMatchObject({ quality: "144p", scaleTo: null });
    expect(terms("144p", 180)).toMatchObject({ quality: "144p", scaleTo: "144p" });
  });
  it("the plan's maximum still scales a larger source down (Free: 720p)", () => {
    const free = planLimits("Free");
    expect(clipTerms({ format: "mp4", asked: undefined, sourceHeight: 800, limits: free })).toMatchObject({
      quality: "720p",
      scaleTo: "720p",
    });
  });
});
