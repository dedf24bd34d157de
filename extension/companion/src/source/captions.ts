import type { z } from "zod";
import {
  CAPTION_FILE_FORMATS,
  CAPTIONS_NO_TRACK,
  findTrack,
  parseCaptions,
  ytDlpCaptionsSchema,
  type CaptionTrack,
  type Cue,
} from "../../../../app/domain/captions";
import { ClipError } from "../errors";
import { pinnedGet, type Guard } from "./net-guard";

/**
 * A video's caption tracks, as yt-dlp's JSON lists them (subtitles written by people, then automatic captions), with
 * the file the companion reads for each (WebVTT, else SRT). The file is fetched like the media: every connection
 * checked by the source's guard (net-guard.ts), each redirect again, and connected to the checked address.
 */
export interface CaptionFile extends CaptionTrack {
  url: string;
  ext: (typeof CAPTION_FILE_FORMATS)[number];
  headers: Record<string, string>;
}

/** A caption file is text: a long video's automatic captions are a few hundred kB. */
const MAX_CAPTION_BYTES = 8 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/**
 * The tracks of yt-dlp's JSON the companion can read, each with its file (a live chat replay is no track), fetched
 * with `headers` (the video stream's: the site's user agent).
 */
export function captionFilesFromYtDlp(info: unknown, headers: Record<string, string>): CaptionFile[] {
  const parsed = ytDlpCaptionsSchema.safeParse(info);
  if (!parsed.success) return [];
  const out: CaptionFile[] = [];
  const add = (list: z.infer<typeof ytDlpCaptionsSchema>["subtitles"], auto: boolean) => {
    for (const [lang, formats] of Object.entries(list ?? {})) {
      if (/^live_chat$/i.test(lang)) continue;
      for (const ext of CAPTION_FILE_FORMATS) {
        const f = formats.find((x) => x.ext === ext && typeof x.url === "string" && /^https?:\/\//i.test(x.url));
        if (!f?.url) continue;
        const name = formats.find((x) => x.name)?.name;
        out.push({ lang, ...(name ? { name } : {}), auto, url: f.url, ext, headers });
        break;
      }
    }
  };
  add(parsed.data.subtitles, false);
  add(parsed.data.automatic_captions, true);
  return out;
}

/** The list the panel shows (no URLs: they stay in the companion). */
export const captionTracks = (files: readonly CaptionFile[] | undefined): CaptionTrack[] =>
  (files ?? []).map(({ lang, name, auto }) => (name ? { lang, name, auto } : { lang, auto }));

/**
 * The track a clip asks for by its language key: the one written by people when there is one, else the automatic
 * captions in that language. A video without it is a 400 that names the language.
 */
export function chooseCaptionFile(files: readonly CaptionFile[] | undefined, track: string): CaptionFile {
  const list = files ?? [];
  const found = findTrack(list, { lang: track, auto: false }) ?? findTrack(list, { lang: track, auto: true });
  if (!found) {
    const have = list.length > 0 ? ` It has: ${[...new Set(list.map((t) => t.lang))].join(", ")}.` : "";
    throw new ClipError("captions_no_track", `${CAPTIONS_NO_TRACK.replace(/\.$/, "")} (asked: ${track}).${have}`, 400);
  }
  return found as CaptionFile;
}

/** Fetches a track's file through the guard and parses it: the whole track, on the video's clock. */
export async function fetchCaptionCues(file: CaptionFile, guard: Guard, signal?: AbortSignal): Promise<Cue[]> {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const unavailable = () =>
    new ClipError("captions_unavailable", "The video's caption track could not be downloaded. Try again.", 502);
  const res = await pinnedGet(file.url, {
    ...guard,
    headers: file.headers,
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  }).catch((error: unknown) => {
    if (error instanceof ClipError) throw error;
    throw unavailable();
  });
  if ((res.statusCode ?? 0) !== 200) {
    res.resume();
    throw unavailable();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_CAPTION_BYTES) {
        res.destroy();
        throw new ClipError("captions_unavailable", "The caption track is too large to be a caption file.", 422);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ClipError) throw error;
    throw unavailable();
  }
  const cues = parseCaptions(Buffer.concat(chunks).toString("utf8"));
  if (cues.length === 0)
    throw new ClipError("captions_unavailable", "The caption track holds no captions ClipCut can read.", 422);
  return cues;
}
