import { describe, expect, it } from "vitest";
import { clipCost } from "./credits";

describe("clipCost", () => {
  it("keeps the admin rule exactly: 720p × 0.1 and 1080p × 0.2, rounded up", () => {
    expect(clipCost(30, "mp4", "720p")).toBe(3); // not 4 from float noise
    expect(clipCost(31, "mp4", "720p")).toBe(4);
    expect(clipCost(60, "mp4", "1080p")).toBe(12);
    expect(clipCost(15, "mp4", "720p")).toBe(2); // the public example: a short 720p clip costs 2
  });
  it("prices a long 4K clip at about 20 credits", () => {
    expect(clipCost(50, "mp4", "2160p")).toBe(20);
  });
  it("charges about 1 credit per 30 s for audio and low qualities", () => {
    expect(clipCost(30, "mp3", "2160p")).toBe(1);
    expect(clipCost(31, "wav", "720p")).toBe(2);
    expect(clipCost(90, "mp4", "480p")).toBe(3);
    expect(clipCost(90, "gif", "360p")).toBe(3);
  });
  it("charges GIF at its quality", () => {
    expect(clipCost(10, "gif", "1080p")).toBe(2);
  });
  it("costs at least 1 for any positive duration and 0 otherwise", () => {
    expect(clipCost(0.1, "mp4", "144p")).toBe(1);
    expect(clipCost(0, "mp4", "720p")).toBe(0);
    expect(clipCost(-5, "mp4", "720p")).toBe(0);
    expect(clipCost(Number.NaN, "mp4", "720p")).toBe(0);
    expect(clipCost(Number.POSITIVE_INFINITY, "mp4", "720p")).toBe(0);
  });
});
