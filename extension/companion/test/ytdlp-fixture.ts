import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir, tools } from "./helpers";

/** The stand-in yt-dlp (see the comment at the top of fake-yt-dlp.mjs for its interface). */
export const FAKE_YTDLP = fileURLToPath(new URL("./fake-yt-dlp.mjs", import.meta.url));

export const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** yt-dlp's formats for one video, worst first, with each stream's own headers (as YouTube's answer has them). */
export function youtubeFormats(url: (name: string) => string) {
  const headers = (stream: string) => ({ "User-Agent": UA, Accept: "*/*", "X-Stream": stream });
  return [
    {
      format_id: "18",
      url: url("src360.mp4"),
      ext: "mp4",
      protocol: "https",
      vcodec: "avc1.42001E",
      acodec: "mp4a.40.2",
      width: 640,
      height: 360,
      http_headers: headers("progressive"),
    },
    {
      format_id: "140",
      url: url("dash1080-audio.m4a"),
      ext: "m4a",
      protocol: "https",
      vcodec: "none",
      acodec: "mp4a.40.2",
      http_headers: headers("audio"),
    },
    {
      format_id: "251",
      url: url("opus40.webm"),
      ext: "webm",
      protocol: "https",
      vcodec: "none",
      acodec: "opus",
      http_headers: headers("opus"),
    },
    {
      format_id: "137",
      url: url("dash1080-video.mp4"),
      ext: "mp4",
      protocol: "https",
      vcodec: "avc1.640028",
      acodec: "none",
      width: 1920,
      height: 1080,
      http_headers: headers("video"),
    },
  ];
}

export interface FakeYtDlp {
  tools: typeof tools;
  env: Record<string, string>;
  /** The argv of every invocation so far. */
  calls: () => string[][];
}

/** Writes a fixture (one info dict, or { byUrl }) and returns tools that run the stand-in with it. */
export function fakeYtDlp(fixture: unknown): FakeYtDlp {
  const dir = tempDir("clipcut-ytdlp-");
  const json = join(dir, "fixture.json");
  const log = join(dir, "calls.jsonl");
  writeFileSync(json, JSON.stringify(fixture));
  writeFileSync(log, "");
  const env = { FAKE_YTDLP_JSON: json, FAKE_YTDLP_LOG: log, CLIPCUT_YTDLP: FAKE_YTDLP };
  // Children inherit process.env: the stand-in finds its fixture there.
  Object.assign(process.env, { FAKE_YTDLP_JSON: json, FAKE_YTDLP_LOG: log });
  return {
    tools: { ...tools, ytDlp: FAKE_YTDLP },
    env,
    calls: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string[]),
  };
}
