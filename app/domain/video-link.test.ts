import { describe, expect, it } from "vitest";
import { extractYouTubeId, youTubeEmbedUrl } from "./video-link";

const ID = "dQw4w9WgXcQ";

describe("extractYouTubeId", () => {
  it.each([
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?t=42`,
    `https://www.youtube.com/watch?v=${ID}`,
    `https://www.youtube.com/watch?v=${ID}&t=10s`,
    `https://www.youtube.com/watch?feature=share&v=${ID}`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube.com/v/${ID}`,
    `https://www.youtube.com/u/w/${ID}`,
    `https://m.youtube.com/watch?v=${ID}#comments`,
  ])("finds the id in %s", (url) => {
    expect(extractYouTubeId(url)).toBe(ID);
  });

  it.each([
    "",
    "not a link",
    "https://vimeo.com/123456789",
    `https://www.youtube.com/watch?v=${ID.slice(0, 10)}`,
    `https://www.youtube.com/watch?v=${ID}X`,
    "https://www.youtube.com/watch?v=abc$%^&*()x",
  ])("refuses %j", (url) => {
    expect(extractYouTubeId(url)).toBeNull();
  });

  it("builds a privacy-friendly embed URL with start and end", () => {
    const url = new URL(youTubeEmbedUrl(ID, 12.7, 30.2));
    expect(url.hostname).toBe("www.youtube-nocookie.com");
    expect(url.pathname).toBe(`/embed/${ID}`);
    expect(url.searchParams.get("start")).toBe("12");
    expect(url.searchParams.get("end")).toBe("31");
  });
});
