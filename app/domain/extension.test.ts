import { describe, expect, it } from "vitest";
import { DEFAULT_STORE_LISTINGS, siteMessageSchema, storeListings } from "./extension";

describe("extension contract", () => {
  it("store listings: a configured https URL wins, anything else falls back", () => {
    expect(storeListings({ chrome: "https://example.com/c", firefox: "", edge: "javascript:alert(1)" })).toEqual({
      chrome: "https://example.com/c",
      firefox: DEFAULT_STORE_LISTINGS.firefox,
      edge: DEFAULT_STORE_LISTINGS.edge,
    });
  });

  it("site messages: the five actions parse, extra fields and unknown actions do not", () => {
    expect(siteMessageSchema.safeParse({ action: "ping" }).success).toBe(true);
    expect(siteMessageSchema.safeParse({ action: "clearApiKey", apiKey: "x" }).success).toBe(false);
    expect(siteMessageSchema.safeParse({ action: "setApiKey", apiKey: "cc_12345678" }).success).toBe(true);
    expect(siteMessageSchema.safeParse({ action: "openTab", url: "https://evil.example" }).success).toBe(false);
    const clip = {
      action: "createClip",
      name: "Goal",
      videoUrl: "https://www.youtube.com/watch?v=abc",
      startSeconds: 1,
      endSeconds: 2,
      format: "mp4",
      quality: "720p",
    };
    expect(siteMessageSchema.safeParse(clip).success).toBe(true);
    expect(siteMessageSchema.safeParse({ ...clip, endSeconds: 1 }).success).toBe(false);
  });
});
