import { z } from "zod";
import type { FrameRange } from "./frames";

/**
 * Captions cut with a clip: the rules once, for the companion (which fetches a track and writes it into the clip)
 * and the panel (which lists the tracks). Parses what yt-dlp downloads (WebVTT, SRT), picks tracks, keeps the cues
 * that overlap a clip on the clip's own clock, wraps them for a phone screen and writes SRT, WebVTT and an ASS
 * document for burning in.
 */

/** One caption: shown from `start` to `end` (exclusive), in seconds; lines separated by "\n". */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

/** hh:mm:ss.mmm, mm:ss.mmm (WebVTT), hh:mm:ss,mmm (SRT); fewer fraction digits are tenths or hundredths. */
const TIME = String.raw`(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}`);

function seconds(h: string | undefined, m: string, s: string, frac: string | undefined): number {
  const ms = frac ? Number(frac.padEnd(3, "0")) : 0;
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + ms / 1000;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  lrm: "",
  rlm: "",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : "";
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * A cue's payload as plain lines: markup gone (WebVTT's <c>, <v>, <i>, the word timings <00:00:01.234> of YouTube's
 * automatic captions, SRT's <font>, an SRT's {\an8}), entities decoded, spaces collapsed, empty lines dropped.
 */
const MARKUP = /<\/?(?:[ibu]|font|c|v|lang|ruby|rt|span)(?:[.\s][^>]*)?>|<\d[\d:.]*>/gi;

function plainLines(payload: string[]): string[] {
  return payload
    .map((line) =>
      decodeEntities(line.replace(MARKUP, "").replace(/\{\\[^}]*\}/g, ""))
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((line) => line.length > 0);
}

interface RawCue {
  start: number;
  end: number;
  lines: string[];
}

/** Blocks separated by empty lines; each block with a timing line is a cue (an id line before it is skipped). */
function rawCues(text: string): { cues: RawCue[]; karaoke: boolean } {
  const blocks = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    // Only an empty line ends a cue: YouTube's automatic captions hold lines of one space inside their cues.
    .split(/\n{2,}/);
  const cues: RawCue[] = [];
  let karaoke = false;
  for (const block of blocks) {
    const lines = block.split("\n");
    const at = lines.findIndex((l) => l.includes("-->"));
    if (at < 0) continue; // WEBVTT header, NOTE, STYLE, REGION
    const m = TIMING.exec(lines[at] ?? "");
    if (!m) continue;
    const start = seconds(m[1], m[2] ?? "0", m[3] ?? "0", m[4]);
    const end = seconds(m[5], m[6] ?? "0", m[7] ?? "0", m[8]);
    const payload = lines.slice(at + 1);
    if (payload.some((l) => /<\d+:\d{2}[:.]/.test(l))) karaoke = true;
    if (end > start) cues.push({ start, end, lines: plainLines(payload) });
  }
  cues.sort((a, b) => a.start - b.start || a.end - b.end);
  return { cues, karaoke };
}

/**
 * YouTube's automatic captions roll: each cue repeats the line before it above the new one, and a cue of 10 ms
 * between them holds the old line alone. Only what is new in each cue is kept: the leading lines that repeat the end
 * of the cue before are dropped (a cue left empty goes).
 */
function unroll(cues: RawCue[]): RawCue[] {
  const out: RawCue[] = [];
  let before: string[] = [];
  for (const cue of cues) {
    let drop = 0;
    for (let n = Math.min(cue.lines.length, before.length); n > 0; n--) {
      const tail = before.slice(before.length - n);
      if (tail.every((line, i) => line === cue.lines[i])) {
        drop = n;
        break;
      }
    }
    before = cue.lines;
    const lines = cue.lines.slice(drop);
    if (lines.length > 0) out.push({ ...cue, lines });
  }
  return out;
}

/** The same text again straight after (or overlapping) the cue before is one longer cue. */
function mergeRepeats(cues: RawCue[]): Cue[] {
  const out: Cue[] = [];
  for (const cue of cues) {
    if (cue.lines.length === 0) continue;
    const text = cue.lines.join("\n");
    const last = out[out.length - 1];
    if (last && last.text === text && cue.start <= last.end + 0.001) last.end = Math.max(last.end, cue.end);
    else out.push({ start: cue.start, end: cue.end, text });
  }
  return out;
}

/** Cues of a WebVTT file (YouTube's automatic captions unrolled into one line of new words each). */
export function parseVtt(text: string): Cue[] {
  const { cues, karaoke } = rawCues(text);
  return mergeRepeats(karaoke ? unroll(cues) : cues);
}

/** Cues of an SRT file. */
export function parseSrt(text: string): Cue[] {
  return mergeRepeats(rawCues(text).cues);
}

/** Cues of a caption file yt-dlp wrote, WebVTT or SRT (told apart by WebVTT's header). */
export function parseCaptions(text: string): Cue[] {
  return /^\uFEFF?WEBVTT/.test(text) ? parseVtt(text) : parseSrt(text);
}

// ---------------------------------------------------------------------------------------------------------------
// Tracks

/** A caption track as yt-dlp lists it: subtitles written by people, or YouTube's automatic captions. */
export interface CaptionTrack {
  /** yt-dlp's language key: "en", "en-US", "pt-BR", "en-orig" (the automatic captions' source language). */
  lang: string;
  /** Its name on the site ("English", "English (auto-generated)"), when given. */
  name?: string;
  auto: boolean;
}

/** A track's place in a list: "manual:en", "auto:en-orig"; and the choice of none. */
export const NO_CAPTIONS = "none";
export const trackId = (t: Pick<CaptionTrack, "lang" | "auto">) => `${t.auto ? "auto" : "manual"}:${t.lang}`;

/** The language a key or a page's lang attribute names: "en" for "en-US", "EN" and "en-orig". */
export const primaryLanguage = (lang: string) => (lang.toLowerCase().split(/[-_]/)[0] ?? "").trim();

const isOriginal = (t: CaptionTrack) => /-orig$/i.test(t.lang);

/**
 * The tracks to offer, in order: the page's language first, subtitles written by people before automatic captions.
 * Automatic captions come in every language YouTube can machine-translate into; only those in the page's language and
 * the spoken one ("-orig") are offered. The choice of none is the list's last entry, added by the panel.
 */
export function orderTracks(tracks: readonly CaptionTrack[], pageLang: string | null | undefined): CaptionTrack[] {
  const page = pageLang ? primaryLanguage(pageLang) : "";
  const inPageLanguage = (t: CaptionTrack) => page !== "" && primaryLanguage(t.lang) === page;
  const offered = tracks.filter((t) => !t.auto || inPageLanguage(t) || isOriginal(t));
  const seen = new Set<string>();
  const rank = (t: CaptionTrack) => (inPageLanguage(t) ? 0 : 4) + (t.auto ? 2 : 0) + (isOriginal(t) ? 0 : 1);
  return offered
    .map((t, i) => ({ t, i, r: rank(t) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ t }) => t)
    .filter((t) => {
      const id = trackId(t);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
}

/** What a track is called in a list: its own name, or its key, with "(automatic)" for automatic captions. */
export function trackLabel(t: CaptionTrack): string {
  const name = t.name?.trim() || t.lang;
  return t.auto && !/auto|automatic|original/i.test(name) ? `${name} (automatic)` : name;
}

/** The caption file formats the companion reads, in the order it asks yt-dlp for them. */
export const CAPTION_FILE_FORMATS = ["vtt", "srt"] as const;

const ytDlpTrackList = z.record(
  z.string(),
  z.array(
    z.object({ ext: z.string().optional(), url: z.string().optional(), name: z.string().optional() }).passthrough(),
  ),
);
/** The parts of yt-dlp's JSON that list caption tracks (anything else in it is ignored). */
export const ytDlpCaptionsSchema = z
  .object({
    subtitles: ytDlpTrackList.nullish(),
    automatic_captions: ytDlpTrackList.nullish(),
  })
  .passthrough();

/**
 * The tracks yt-dlp's JSON lists that the companion can read (a WebVTT or SRT rendition). A live stream's chat
 * replay is listed among the subtitles and is no caption track.
 */
export function tracksFromYtDlp(info: unknown): CaptionTrack[] {
  const parsed = ytDlpCaptionsSchema.safeParse(info);
  if (!parsed.success) return [];
  const out: CaptionTrack[] = [];
  const add = (list: z.infer<typeof ytDlpTrackList> | null | undefined, auto: boolean) => {
    for (const [lang, formats] of Object.entries(list ?? {})) {
      if (/^live_chat$/i.test(lang)) continue;
      if (!formats.some((f) => (CAPTION_FILE_FORMATS as readonly string[]).includes(f.ext ?? ""))) continue;
      const name = formats.find((f) => f.name)?.name;
      out.push(name ? { lang, name, auto } : { lang, auto });
    }
  };
  add(parsed.data.subtitles, false);
  add(parsed.data.automatic_captions, true);
  return out;
}

export const CAPTION_MODES = ["burn", "soft"] as const;
export type CaptionMode = (typeof CAPTION_MODES)[number];

export const CAPTIONS_NO_TRACK = "This video has no caption track in that language.";

/** Captions asked for a clip: which track, burned into the picture or as a track of its own, and an .srt beside it. */
export const captionsRequestSchema = z
  .object({
    lang: z
      .string()
      .min(1)
      .max(35)
      .regex(/^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/, "A caption language is a language key such as en or pt-BR."),
    auto: z.boolean(),
    mode: z.enum(CAPTION_MODES),
    srt: z.boolean().default(false),
  })
  .strict();
export type CaptionsRequest = z.infer<typeof captionsRequestSchema>;

/** The track a request names, among the video's; null when the video has no such track (a 4xx: CAPTIONS_NO_TRACK). */
export function findTrack(tracks: readonly CaptionTrack[], req: Pick<CaptionsRequest, "lang" | "auto">) {
  return tracks.find((t) => t.lang === req.lang && t.auto === req.auto) ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// The clip's clock

/**
 * The first frame that shows a cue starting at `seconds`: a caption is drawn on every frame whose presentation time
 * is at or after its start and before its end, the same rule (and tolerance) as frames.ts's exclusive end.
 */
export const firstFrameFrom = (seconds: number, fps: number) => Math.max(0, Math.ceil(seconds * fps - 1e-3));

/**
 * The cues that overlap a clip (frames `first`..`last`), on the clip's own clock: a cue's start and end are moved
 * onto the frames that show it, then shifted so the clip's first frame is 0. A cue that starts before the first
 * frame starts at 0, one that ends after the last frame ends with it; one that shows on no frame of the clip goes.
 * Times are exact frame starts (frame k of the clip starts at k / fps); the writers round them.
 */
export function clipCues(cues: readonly Cue[], frames: FrameRange, fps: number): Cue[] {
  const out: Cue[] = [];
  for (const cue of cues) {
    const from = Math.max(firstFrameFrom(cue.start, fps), frames.first);
    const to = Math.min(firstFrameFrom(cue.end, fps), frames.last + 1);
    if (to <= from) continue;
    out.push({ start: (from - frames.first) / fps, end: (to - frames.first) / fps, text: cue.text });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Phone layout

export interface PictureSize {
  width: number;
  height: number;
}

/** How captions sit in a picture (the crop, or the whole frame): sizes in its pixels. */
export interface CaptionLayout {
  fontSize: number;
  /** Characters a line holds at that size (a bold sans' average glyph is about 0.55 of the font size). */
  maxChars: number;
  outline: number;
  /** From the bottom edge to the text's bottom: the text stands in the lower third, above a phone app's buttons. */
  marginV: number;
  marginH: number;
}

/** Large for a phone: a 1080 × 1920 picture gets 76 px text, about 21 characters a line. */
export function captionLayout(picture: PictureSize): CaptionLayout {
  const fontSize = Math.max(8, Math.round(Math.min(picture.width, picture.height) * 0.07));
  const marginH = Math.round(picture.width * 0.08);
  const maxChars = Math.max(8, Math.floor((picture.width - 2 * marginH) / (fontSize * 0.55)));
  return {
    fontSize,
    maxChars,
    outline: Math.max(1, Math.round(fontSize / 14)),
    marginV: Math.round(picture.height * 0.2),
    marginH,
  };
}

/** Words no longer than a line: a word longer than a line is cut into line-long pieces. */
function words(text: string, maxChars: number): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const chars = [...word];
    for (let i = 0; i < chars.length; i += maxChars) out.push(chars.slice(i, i + maxChars).join(""));
  }
  return out;
}

const length = (s: string) => [...s].length;

/** Lines of at most `maxChars`, filled word by word. */
function fill(ws: string[], maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const w of ws) {
    if (line && length(line) + 1 + length(w) > maxChars) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/** Two lines as even as the words allow (the shorter one on top), each within `maxChars`. */
function balance(ws: string[], maxChars: number): string[] {
  let best: string[] = [ws.join(" ")];
  let bestLongest = Infinity;
  for (let i = 1; i < ws.length; i++) {
    const top = ws.slice(0, i).join(" ");
    const bottom = ws.slice(i).join(" ");
    const longest = Math.max(length(top), length(bottom));
    if (longest > maxChars) continue;
    if (longest < bestLongest || (longest === bestLongest && length(top) <= length(bottom))) {
      best = [top, bottom];
      bestLongest = longest;
    }
  }
  return best;
}

/**
 * A caption's text as screens of at most two lines of at most `maxChars`, broken at word boundaries: one screen when
 * it fits (two lines balanced), else as many as it takes.
 */
export function wrapCaption(text: string, maxChars: number): string[][] {
  const ws = words(text.replace(/\n/g, " "), Math.max(1, maxChars));
  if (ws.length === 0) return [];
  const whole = ws.join(" ");
  if (length(whole) <= maxChars) return [[whole]];
  const lines = fill(ws, maxChars);
  if (lines.length <= 2) return [balance(ws, maxChars)];
  const screens: string[][] = [];
  for (let i = 0; i < lines.length; i += 2) screens.push(lines.slice(i, i + 2));
  return screens;
}

/**
 * Cues laid out for a phone: each wrapped to at most two lines; a cue too long for one screen is shown as several in
 * turn, its time shared by their length, each screen starting on a frame (times on the clip's clock, as clipCues
 * gives them).
 */
export function phoneCues(cues: readonly Cue[], maxChars: number, fps: number): Cue[] {
  const out: Cue[] = [];
  for (const cue of cues) {
    const screens = wrapCaption(cue.text, maxChars);
    if (screens.length === 0) continue;
    const firstFrame = Math.round(cue.start * fps);
    const frames = Math.round(cue.end * fps) - firstFrame;
    const weights = screens.map((s) => s.reduce((n, line) => n + length(line), 0));
    const total = weights.reduce((a, b) => a + b, 0);
    let at = firstFrame;
    let sum = 0;
    screens.forEach((screen, i) => {
      sum += weights[i] ?? 0;
      const last = i === screens.length - 1;
      // Every screen gets at least a frame when the cue has enough; the last one ends where the cue ends.
      const end = last ? firstFrame + frames : Math.max(at + 1, firstFrame + Math.round((frames * sum) / total));
      if (end > at) out.push({ start: at / fps, end: end / fps, text: screen.join("\n") });
      at = Math.min(end, firstFrame + frames);
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** Whole units of `perSecond` at or before `t`: a frame's start never reads as a later unit than the frame. */
const floorTo = (t: number, perSecond: number) => Math.max(0, Math.floor(t * perSecond + 1e-6));

function clock(units: number, perSecond: number, digits: number, sep: string, hourDigits = 2): string {
  const whole = Math.floor(units / perSecond);
  const frac = units % perSecond;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(h, hourDigits)}:${p(m)}:${p(s)}${sep}${p(frac, digits)}`;
}

/** SRT's time: 00:00:01,033 (floored to the millisecond, as the panel labels a frame). */
export const srtTime = (t: number) => clock(floorTo(t, 1000), 1000, 3, ",");
/** WebVTT's time: 00:00:01.033. */
export const vttTime = (t: number) => clock(floorTo(t, 1000), 1000, 3, ".");

export function toSrt(cues: readonly Cue[]): string {
  return cues.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${c.text}\n`).join("\n");
}

const vttEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function toVtt(cues: readonly Cue[]): string {
  const body = cues.map((c) => `${vttTime(c.start)} --> ${vttTime(c.end)}\n${vttEscape(c.text)}\n`).join("\n");
  return `WEBVTT\n\n${body}`;
}

/**
 * ASS times are in hundredths. A renderer draws an event on a frame when the frame's time is at or after the event's
 * start: the hundredth nearest the middle between the frame before and this one keeps that true on both sides with
 * the most room (timestamps rounded to the millisecond by a container, float noise), for rates up to 100 fps.
 */
export function assTime(t: number, fps: number): string {
  const cs = Math.max(0, Math.round((t - 0.5 / fps) * 100));
  return clock(t <= 0 ? 0 : cs, 100, 2, ".", 1);
}

/** An ASS style's fields that differ between uses (the tests draw a solid bright box to find it in pixels). */
export interface AssStyle {
  fontName: string;
  fontSize: number;
  bold: boolean;
  /** &HAABBGGRR colours. */
  primaryColour: string;
  outlineColour: string;
  backColour: string;
  /** 1: outline and shadow; 3: an opaque box. */
  borderStyle: 1 | 3;
  outline: number;
  shadow: number;
  marginV: number;
  marginH: number;
}

/** Phone captions: white bold sans, a black outline, centred at the bottom of the lower third. */
export function phoneStyle(picture: PictureSize): AssStyle {
  const layout = captionLayout(picture);
  return {
    fontName: "DejaVu Sans",
    fontSize: layout.fontSize,
    bold: true,
    primaryColour: "&H00FFFFFF",
    outlineColour: "&H00000000",
    backColour: "&H80000000",
    borderStyle: 1,
    outline: layout.outline,
    shadow: 0,
    marginV: layout.marginV,
    marginH: layout.marginH,
  };
}

/** Text as an ASS event's: lines joined with \N; braces (override blocks) and backslash codes kept literal. */
function assText(text: string): string {
  return text.replace(/\\/g, "\\\u2060").replace(/\{/g, "(").replace(/\}/g, ")").split("\n").join("\\N");
}

/**
 * An ASS document for burning cues into a picture of `picture`'s size (the crop, after any scale): one style, the
 * script's resolution equal to the picture so sizes are pixels, no wrapping of its own (the cues are wrapped).
 */
export function toAss(cues: readonly Cue[], picture: PictureSize, fps: number, style: Partial<AssStyle> = {}): string {
  const s = { ...phoneStyle(picture), ...style };
  const fields = [
    "Default",
    s.fontName,
    s.fontSize,
    s.primaryColour,
    s.primaryColour,
    s.outlineColour,
    s.backColour,
    s.bold ? -1 : 0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    s.borderStyle,
    s.outline,
    s.shadow,
    2, // bottom centre
    s.marginH,
    s.marginH,
    s.marginV,
    1,
  ];
  const events = cues.map(
    (c) => `Dialogue: 0,${assTime(c.start, fps)},${assTime(c.end, fps)},Default,,0,0,0,,${assText(c.text)}`,
  );
  return [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${picture.width}`,
    `PlayResY: ${picture.height}`,
    "WrapStyle: 2",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, " +
      "Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, " +
      "MarginR, MarginV, Encoding",
    `Style: ${fields.join(",")}`,
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ...events,
    "",
  ].join("\n");
}
