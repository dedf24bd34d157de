import { describe, expect, it } from "vitest";
import {
  assTime,
  captionLayout,
  captionsRequestSchema,
  clipCues,
  findTrack,
  firstFrameFrom,
  orderTracks,
  parseCaptions,
  parseSrt,
  parseVtt,
  phoneCues,
  srtTime,
  toAss,
  toSrt,
  toVtt,
  trackLabel,
  tracksFromYtDlp,
  wrapCaption,
  type CaptionTrack,
} from "./captions";
import { frameStart, toFrames } from "./frames";

/** What yt-dlp downloads for YouTube's automatic captions: rolling lines, word timings, 10 ms cues in between. */
const YOUTUBE_AUTO = `WEBVTT
Kind: captions
Language: en

00:00:00.000 --> 00:00:02.350 align:start position:0%
 
hello<00:00:00.480><c> world</c>

00:00:02.350 --> 00:00:02.360 align:start position:0%
hello world
 

00:00:02.360 --> 00:00:05.000 align:start position:0%
hello world
how<00:00:02.800><c> are</c><00:00:03.100><c> you</c>

00:00:05.000 --> 00:00:05.010 align:start position:0%
how are you
 

00:00:05.010 --> 00:00:07.000 align:start position:0%
how are you
i'm<00:00:05.500><c> fine</c><00:00:05.900><c> &amp;</c><00:00:06.000><c> you</c>
`;

const MANUAL_VTT = `\uFEFFWEBVTT

STYLE
::cue { color: yellow }

NOTE a comment --> with an arrow-free line

intro
00:01.000 --> 00:03.500 line:90%
<v Ann>First <i>line</i></v>
second line

00:00:04.000 --> 00:00:05.000
Fish &amp; chips &lt;3
`;

const SRT =
  '1\r\n00:00:01,000 --> 00:00:02,500\r\n<font color="#fff">Hello</font> there\r\n\r\n2\r\n00:00:02,500 --> 00:00:04,000\r\n{\\an8}General Kenobi\r\n\r\n';

describe("parsing caption files", () => {
  it("unrolls YouTube's automatic captions into the new words of each cue, without the 10 ms repeats", () => {
    expect(parseVtt(YOUTUBE_AUTO)).toEqual([
      { start: 0, end: 2.35, text: "hello world" },
      { start: 2.36, end: 5, text: "how are you" },
      { start: 5.01, end: 7, text: "i'm fine & you" },
    ]);
  });

  it("reads subtitles written by people: header blocks skipped, ids and settings ignored, markup and entities gone", () => {
    expect(parseCaptions(MANUAL_VTT)).toEqual([
      { start: 1, end: 3.5, text: "First line\nsecond line" },
      { start: 4, end: 5, text: "Fish & chips <3" },
    ]);
  });

  it("keeps a manual track's repeated line when the cues are apart, and joins it when they touch", () => {
    const vtt = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nYes\n\n00:00:03.000 --> 00:00:04.000\nYes\n\n00:00:04.000 --> 00:00:05.000\nYes\n`;
    expect(parseVtt(vtt)).toEqual([
      { start: 1, end: 2, text: "Yes" },
      { start: 3, end: 5, text: "Yes" },
    ]);
  });

  it("reads SRT with CRLF line ends, font tags and ASS position codes", () => {
    const cues = [
      { start: 1, end: 2.5, text: "Hello there" },
      { start: 2.5, end: 4, text: "General Kenobi" },
    ];
    expect(parseSrt(SRT)).toEqual(cues);
    expect(parseCaptions(SRT)).toEqual(cues);
  });

  it("drops cues that end before they start and blocks without a timing", () => {
    expect(parseSrt("1\n00:00:05,000 --> 00:00:04,000\nbackwards\n\ngarbage\n")).toEqual([]);
  });
});

describe("caption tracks", () => {
  const tracks: CaptionTrack[] = [
    { lang: "de", name: "German", auto: false },
    { lang: "en-orig", name: "English (Original)", auto: true },
    { lang: "fr", name: "French", auto: true },
    { lang: "de", name: "German", auto: true },
    { lang: "en-US", name: "English (United States)", auto: false },
    { lang: "en", name: "English", auto: true },
  ];

  it("puts the page's language first, people's subtitles before automatic captions, and leaves out machine translations", () => {
    expect(orderTracks(tracks, "en-GB").map((t) => `${t.auto ? "auto" : "manual"}:${t.lang}`)).toEqual([
      "manual:en-US",
      "auto:en-orig",
      "auto:en",
      "manual:de",
    ]);
    expect(orderTracks(tracks, "de").map((t) => `${t.auto ? "auto" : "manual"}:${t.lang}`)).toEqual([
      "manual:de",
      "auto:de",
      "manual:en-US",
      "auto:en-orig",
    ]);
    expect(orderTracks(tracks, null).map((t) => t.lang)).toEqual(["de", "en-US", "en-orig"]);
  });

  it("reads the tracks yt-dlp lists, only those with a WebVTT or SRT file, never the live chat", () => {
    const info = {
      title: "x",
      subtitles: {
        en: [
          { ext: "json3", url: "u" },
          { ext: "vtt", url: "u", name: "English" },
        ],
        live_chat: [{ ext: "json", url: "u" }],
        ja: [{ ext: "srv3", url: "u" }],
      },
      automatic_captions: { "en-orig": [{ ext: "vtt", url: "u", name: "English (Original)" }] },
    };
    expect(tracksFromYtDlp(info)).toEqual([
      { lang: "en", name: "English", auto: false },
      { lang: "en-orig", name: "English (Original)", auto: true },
    ]);
    expect(tracksFromYtDlp({ subtitles: "nope" })).toEqual([]);
    expect(tracksFromYtDlp(null)).toEqual([]);
  });

  it("labels automatic captions as such", () => {
    expect(trackLabel({ lang: "en", name: "English", auto: true })).toBe("English (automatic)");
    expect(trackLabel({ lang: "en", name: "English", auto: false })).toBe("English");
    expect(trackLabel({ lang: "pt-BR", auto: false })).toBe("pt-BR");
  });

  it("checks a captions request and finds its track, or none", () => {
    const req = captionsRequestSchema.parse({ lang: "en-US", auto: false, mode: "burn" });
    expect(req.srt).toBe(false);
    expect(findTrack(tracks, req)).toEqual(tracks[4]);
    expect(findTrack(tracks, { lang: "en-US", auto: true })).toBeNull();
    for (const bad of [
      { lang: "en US", auto: false, mode: "burn" },
      { lang: "../x", auto: false, mode: "soft" },
      { lang: "en", auto: false, mode: "overlay" },
      { lang: "en", auto: false, mode: "soft", extra: 1 },
    ])
      expect(captionsRequestSchema.safeParse(bad).success).toBe(false);
  });
});

describe("cues on the clip's clock", () => {
  const fps = 30;
  /** A cue from frame a to frame b (exclusive), its times written as a caption file writes them. */
  const cueOnFrames = (a: number, b: number, text = "x") => ({
    start: Math.floor(frameStart(a, fps) * 1000) / 1000,
    end: Math.floor(frameStart(b, fps) * 1000) / 1000,
    text,
  });

  it("reads a cue's millisecond start back as the frame it was written for, at the usual rates", () => {
    for (const rate of [24, 25, 30000 / 1001, 30, 50, 60])
      for (let n = 0; n < 3000; n++) {
        // As a caption file or the panel's label writes it (floored to the ms), and exactly.
        expect(firstFrameFrom(Math.floor(frameStart(n, rate) * 1000) / 1000, rate)).toBe(n);
        expect(firstFrameFrom(frameStart(n, rate), rate)).toBe(n);
      }
  });

  it("shifts cues by the clip's first frame, starts a cue already showing at 0, ends one with the clip", () => {
    // The clip: frames 45..104, sent as the panel sends them (the middles of its first and last frames).
    const frames = toFrames({ start: 45.5 / fps, end: 104.5 / fps }, fps);
    expect(frames).toEqual({ first: 45, last: 104 });
    const cues = [
      cueOnFrames(0, 20, "before"),
      cueOnFrames(30, 50, "across the start"),
      cueOnFrames(60, 75, "inside"),
      cueOnFrames(100, 130, "across the end"),
      cueOnFrames(105, 120, "after"),
    ];
    expect(clipCues(cues, frames, fps)).toEqual([
      { start: 0, end: 5 / fps, text: "across the start" },
      { start: 15 / fps, end: 30 / fps, text: "inside" },
      { start: 55 / fps, end: 60 / fps, text: "across the end" },
    ]);
  });

  it("puts a cue that starts inside a frame on the next frame (the first one drawn at or after its start)", () => {
    const frames = { first: 10, last: 40 };
    // 20.5 frames in: frame 20 is already on screen, frame 21 is the first drawn with the caption.
    expect(clipCues([{ start: 20.5 / fps, end: 30 / fps, text: "a" }], frames, fps)).toEqual([
      { start: 11 / fps, end: 20 / fps, text: "a" },
    ]);
  });

  it("drops a cue that shows on no frame (YouTube's 10 ms cues between two frames)", () => {
    expect(clipCues([{ start: 2.35, end: 2.36, text: "x" }], { first: 0, last: 200 }, fps)).toEqual([]);
  });
});

describe("phone layout", () => {
  it("sizes captions by the picture: large on a 9:16 crop, about 21 characters a line", () => {
    const l = captionLayout({ width: 1080, height: 1920 });
    expect(l.fontSize).toBe(76);
    expect(l.maxChars).toBeGreaterThanOrEqual(18);
    expect(l.maxChars).toBeLessThanOrEqual(24);
    // The text's bottom is in the lower third, above the last fifth.
    expect(1920 - l.marginV).toBeGreaterThan((1920 * 2) / 3);
    expect(captionLayout({ width: 1920, height: 1080 }).maxChars).toBeGreaterThan(l.maxChars);
  });

  it("wraps at word boundaries into at most two lines of at most the line length", () => {
    const text = "the quick brown fox jumps over the lazy dog and keeps on running far away from here";
    for (const max of [10, 16, 21, 32]) {
      const screens = wrapCaption(text, max);
      for (const screen of screens) {
        expect(screen.length).toBeLessThanOrEqual(2);
        for (const line of screen) expect(line.length).toBeLessThanOrEqual(max);
      }
      // No word is split and none is lost.
      expect(screens.flat().join(" ")).toBe(text);
    }
    expect(wrapCaption("short one", 21)).toEqual([["short one"]]);
    // Two lines balanced, the shorter on top.
    expect(wrapCaption("one two three four five six", 21)).toEqual([["one two three", "four five six"]]);
    expect(wrapCaption("Supercalifragilistic", 8)).toEqual([["Supercal", "ifragili"], ["stic"]]);
  });

  it("shows a long cue as screens in turn, each starting on a frame, together covering the cue", () => {
    const fps = 30;
    const cue = { start: 10 / fps, end: 100 / fps, text: "one two three four five six seven eight nine ten eleven" };
    const out = phoneCues([cue], 10, fps);
    expect(out.length).toBeGreaterThan(1);
    expect(out[0]?.start).toBe(cue.start);
    expect(out[out.length - 1]?.end).toBe(cue.end);
    for (let i = 1; i < out.length; i++) expect(out[i]?.start).toBe(out[i - 1]?.end);
    for (const c of out) {
      expect(Number.isInteger(Math.round(c.start * fps * 1e6) / 1e6)).toBe(true);
      expect(c.text.split("\n").length).toBeLessThanOrEqual(2);
    }
  });
});

describe("writing", () => {
  const fps = 30;
  const cues = [
    { start: 0, end: 31 / fps, text: "first <one> & more" },
    { start: 31 / fps, end: 3725.5, text: "two\nlines" },
  ];

  it("writes SRT and WebVTT that read back to the frames they were written for", () => {
    expect(srtTime(31 / fps)).toBe("00:00:01,033");
    expect(srtTime(3725.5)).toBe("01:02:05,500");
    for (const doc of [toSrt(cues), toVtt(cues)]) {
      const back = parseCaptions(doc);
      expect(back.map((c) => c.text)).toEqual(["first <one> & more", "two\nlines"]);
      expect(back.map((c) => [firstFrameFrom(c.start, fps), firstFrameFrom(c.end, fps)])).toEqual([
        [0, 31],
        [31, 3725.5 * fps],
      ]);
    }
    expect(toVtt(cues)).toContain("first &lt;one&gt; &amp; more");
  });

  it("writes ASS times a renderer draws on exactly the cue's frames (it truncates a frame's time to the ms)", () => {
    const csOf = (s: string) => {
      const m = /^(\d+):(\d{2}):(\d{2})\.(\d{2})$/.exec(s);
      if (!m) throw new Error(s);
      return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 100 + Number(m[4]);
    };
    for (const rate of [24, 25, 30000 / 1001, 30, 50, 60])
      for (let n = 1; n < 2000; n++) {
        const ms = csOf(assTime(n / rate, rate)) * 10;
        expect(ms).toBeLessThanOrEqual(Math.floor((n * 1000) / rate));
        expect(ms).toBeGreaterThan(Math.floor(((n - 1) * 1000) / rate));
      }
    expect(assTime(0, 30)).toBe("0:00:00.00");
  });

  it("writes an ASS document at the picture's resolution, centred at the bottom, literal braces", () => {
    const doc = toAss([{ start: 0, end: 1, text: "a {\\b1} b\nc" }], { width: 202, height: 360 }, fps, {
      borderStyle: 3,
    });
    expect(doc).toContain("PlayResX: 202\nPlayResY: 360");
    const style = doc.split("\n").find((l) => l.startsWith("Style: "));
    expect(style?.split(",")[15]).toBe("3");
    expect(style?.split(",")[18]).toBe("2");
    expect(doc).toContain("Dialogue: 0,0:00:00.00,0:00:00.98,Default,,0,0,0,,a (\\\u2060b1) b\\Nc");
  });
});
