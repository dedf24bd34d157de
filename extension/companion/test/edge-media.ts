import { existsSync, mkdirSync } from "node:fs";
import { rename } from "node:fs/promises";
import { dirname, extname } from "node:path";
import { BAND_BITS, BAND_HEIGHT, BAND_WIDTH } from "./frame-band";
import { run, tempBeside } from "./media";

/**
 * Small media on the edges of the frame rule, each frame's index in its pixels (frame-band.ts's band, drawn at this
 * picture's size so readBand and decodeBands read it): a VP9 WebM whose video starts off the frame grid, a fragmented
 * MP4 without an edit list, a variable-rate MP4. Low resolution and a few seconds: they are cut and played in a
 * browser, not measured.
 */

export interface BandVideoOptions {
  /** libx264 (MP4, AAC) or libvpx-vp9 (WebM, Opus). */
  codec: "h264" | "vp9";
  /** A frame rate as ffmpeg takes it ("30", "60000/1001"). */
  fps: string;
  seconds: number;
  /** Frames per GOP: keyframes exactly every `gop` frames. */
  gop: number;
  /** 256×144 unless given: a standard height, so that the report's 144p is no scaling. */
  width?: number;
  height?: number;
  /** Frames left out (`select`'s expression on the source's frame number n is true for those kept): variable rate. */
  keep?: string;
}

/** The band as a filter on a picture `width`×`height`: the top rows hold the frame number's bits (frame-band.ts). */
function bandFilter(width: number, height: number): string {
  const cell = (Math.floor(BAND_WIDTH / BAND_BITS) * width) / BAND_WIDTH;
  const rows = Math.round((32 * height) / BAND_HEIGHT);
  const bit = `255*mod(floor(N/pow(2,floor(X/${cell}))),2)`;
  return [
    `geq=lum='if(lt(Y,${rows}),if(lt(X,${cell * BAND_BITS}),${bit},0),lum(X,Y))'`,
    `cb='if(lt(Y,${rows}*SH),128,cb(X,Y))'`,
    `cr='if(lt(Y,${rows}*SH),128,cr(X,Y))'`,
  ].join(":");
}

/**
 * A pixel-indexed video with sound. VP9 goes into WebM with Opus, whose encoder's priming makes ffmpeg's muxer start
 * the picture 7 ms late on Matroska's millisecond clock (off the frame grid); H.264 into a progressive MP4 with AAC
 * (B-frames). Single-threaded VP9, so the packets are the same on every run.
 */
export async function makeBandVideo(path: string, o: BandVideoOptions): Promise<void> {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const width = o.width ?? 256;
  const height = o.height ?? 144;
  const keep = o.keep ? `,select='${o.keep}'` : "";
  const video =
    o.codec === "vp9"
      ? ["-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "8", "-threads", "1", "-crf", "30", "-b:v", "0"]
      : ["-c:v", "libx264", "-preset", "veryfast", "-crf", "22", "-bf", "2", "-sc_threshold", "0"];
  const audio = o.codec === "vp9" ? ["-c:a", "libopus", "-b:a", "48k"] : ["-c:a", "aac", "-b:a", "64k"];
  const tmp = tempBeside(path, extname(path));
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i"],
    `testsrc2=size=${width}x${height}:rate=${o.fps},${bandFilter(width, height)}${keep}`,
    ...["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", String(o.seconds)],
    ...["-map", "0:v", "-map", "1:a", ...video, "-g", String(o.gop), "-keyint_min", String(o.gop)],
    ...["-pix_fmt", "yuv420p", ...(o.keep ? ["-fps_mode", "vfr"] : []), ...audio],
    ...(o.codec === "h264" ? ["-movflags", "+faststart"] : []),
    tmp,
  ]);
  await rename(tmp, path);
}

/**
 * `source` (an H.264 MP4) remuxed as a fragmented MP4 without an edit list, as some DASH servers write it: its first
 * picture is presented after 0 (the B-frame delay), one fragment per keyframe. `videoOnly`: a DASH video stream;
 * `sidx`: with a segment index (the fragmented MP4 byte copy's source, where without one mediabunny's copy takes it).
 */
export async function makeFragmentedNoEditList(
  source: string,
  path: string,
  videoOnly = false,
  sidx = false,
): Promise<void> {
  if (existsSync(path)) return;
  const tmp = tempBeside(path, ".mp4");
  const flags = `frag_keyframe+empty_moov+default_base_moof${sidx ? "+global_sidx" : ""}`;
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-i", source, ...(videoOnly ? ["-map", "0:v"] : []), "-c", "copy", "-use_editlist", "0"],
    ...["-movflags", flags, tmp],
  ]);
  await rename(tmp, path);
}
