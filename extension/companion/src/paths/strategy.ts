import { SOFT_CAPTION_FORMATS, SOFT_CAPTIONS_FORMAT } from "../../../../app/domain/clip-request";
import { isAudioFormat, qualityHeight } from "../../../../app/domain/media";
import { canCopyVideo } from "./encode";
import { ClipError } from "../errors";
import { copyEnd, toSeconds, type CutFrames } from "./keyframes";
import type { CutRequest } from "./request";

/** Which strategy a cut gets, and what it needs (known before any media is read). */

/** What the output needs, known before any media is read. */
export function reencodeReasons(
  req: Pick<CutRequest, "info" | "format" | "quality" | "watermark" | "crop" | "captions">,
): string[] {
  const reasons: string[] = [];
  const video = req.info.video;
  if (isAudioFormat(req.format)) return ["audio output"];
  if (!video) return reasons;
  if (req.format === "gif") reasons.push("GIF output");
  else if (!canCopyVideo(req.format, video.codec)) reasons.push(`${video.codec} cannot be copied into ${req.format}`);
  if (req.watermark) reasons.push("watermark");
  if (req.quality && qualityHeight(req.quality) < video.height) reasons.push(`scaling to ${req.quality}`);
  if (req.crop) reasons.push("crop");
  if (req.captions?.mode === "burn") reasons.push("captions burned in");
  // A subtitle track alone is muxed beside the copied picture (staged remux); copyRuledOut says when it cannot be.
  return reasons;
}

/** Throws the user-facing reason when the request cannot be cut as asked. */
export function validateCut(req: CutRequest): void {
  const { info } = req;
  if (req.startSeconds >= info.durationSeconds) {
    throw new ClipError(
      "invalid_range",
      `Start (${req.startSeconds}s) is past the end of the source (${info.durationSeconds.toFixed(2)}s).`,
      422,
    );
  }
  if (!isAudioFormat(req.format) && !info.video) {
    throw new ClipError("invalid_format", `The source has no video; choose MP3 or WAV instead of ${req.format}.`, 422);
  }
  if (isAudioFormat(req.format) && !info.audio) {
    throw new ClipError("invalid_format", "The source has no audio track.", 422);
  }
  // Known before the hold: the Shorts path writes video containers only (shorts/command.ts).
  if ((req.crop || req.captions) && req.format === "gif") {
    throw new ClipError(
      "invalid_format",
      "A cropped or captioned clip is a video: choose MP4, WebM, MKV, MOV or AVI.",
      422,
    );
  }
  if (req.captions?.mode === "soft" && !(SOFT_CAPTION_FORMATS as readonly string[]).includes(req.format)) {
    throw new ClipError("invalid_format", SOFT_CAPTIONS_FORMAT, 422);
  }
  const reasons = reencodeReasons(req);
  // No smart cut adds a track: captions are copied beside a copy, or re-encoded with the picture.
  if (req.strategy === "smart" && req.captions) reasons.push("captions track");
  if ((req.strategy === "copy" || req.strategy === "smart") && reasons.length > 0) {
    throw new ClipError(
      "strategy_unavailable",
      `The ${req.strategy} strategy cannot be used here (${reasons.join(", ")}); use reencode or auto.`,
      422,
    );
  }
  if (req.strategy === "smart" && info.video && !SMART_CODECS.has(info.video.codec)) {
    throw new ClipError(
      "strategy_unavailable",
      `Smart cut supports H.264 and VP9 sources; this one is ${info.video.codec}. Use copy, reencode or auto (auto re-encodes it).`,
      422,
    );
  }
}

export type Choice =
  | { kind: "copy"; packets: number; endPts: number; reason: string }
  | { kind: "smart"; reason: string }
  | { kind: "reencode"; reason: string };

/** What a copy plan says about its span (every in-process copy: mediabunny's, the MP4 and the Matroska byte copy). */
export function copySpan(frames: CutFrames, choice: Extract<Choice, { kind: "copy" }>) {
  return {
    strategy: "copy" as const,
    startSeconds: toSeconds(frames.keyBefore),
    endSeconds: toSeconds(choice.endPts),
    snapped: frames.keyBefore !== frames.startPts,
    reason: choice.reason,
    frames,
  };
}

/** Codecs whose partial GOPs can be re-encoded and joined to copied GOPs without a visible or decodable seam. */
export const SMART_CODECS = new Set(["h264", "vp9"]);

/** Known before any media is read: the clip will be a full re-encode (output needs, or a codec smart cut lacks). */
export function expectsFullEncode(req: CutRequest): boolean {
  if (isAudioFormat(req.format) || !req.info.video) return false;
  return reencodeReasons(req).length > 0 || copyRuledOut(req, false)?.kind === "reencode";
}

/**
 * Known before any media is read: the cut will be a smart cut (unless its start turns out to be a keyframe), so the
 * cut may start its head while the stage is read (early-head.ts): chooseStrategy's choice for a start inside a GOP.
 */
export function expectsSmartCut(req: CutRequest): boolean {
  const video = req.info.video;
  if (!video || isAudioFormat(req.format) || !SMART_CODECS.has(video.codec)) return false;
  return reencodeReasons(req).length === 0 && copyRuledOut(req, false)?.kind === "smart";
}

export function stagingFormat(req: CutRequest): "mpegts" | "matroska" {
  const video = req.info.video;
  if (video && !isAudioFormat(req.format)) return ["h264", "hevc"].includes(video.codec) ? "mpegts" : "matroska";
  return ["aac", "mp3", "ac3"].includes(req.info.audio?.codec ?? "") ? "mpegts" : "matroska";
}

/** A start inside a GOP, no snap allowed: smart when the codec allows, re-encode otherwise. */
function frameExact(codec: string): Exclude<Choice, { kind: "copy" }> {
  if (SMART_CODECS.has(codec)) {
    return { kind: "smart", reason: "frame-accurate: only the partial GOPs at the ends are re-encoded" };
  }
  return {
    kind: "reencode",
    reason: `${codec} cannot be joined safely by smart cut in this FFmpeg (H.264 and VP9 only), so the whole clip is re-encoded`,
  };
}

/** A captions track on a clip a copy cannot make exactly: no smart cut adds a track, so the clip is re-encoded. */
const WITH_TRACK = {
  kind: "reencode",
  reason: "a copy cannot start or end on these frames, and no smart cut adds a captions track: re-encoded",
} as const;

/**
 * What chooseStrategy chooses instead of a copy whatever the clip's end, known once the start's frame is: null
 * while a copy may still be chosen (asked for; auto with the start on its keyframe or a snap allowed). A byte copy's
 * walk stops there instead of reading the clip for nothing (the cut that follows reads it).
 */
export function copyRuledOut(req: CutRequest, startOnKey: boolean): Exclude<Choice, { kind: "copy" }> | null {
  if (req.strategy === "copy") return null;
  if (req.strategy === "smart") return { kind: "smart", reason: "smart asked" };
  if (req.strategy === "reencode") return { kind: "reencode", reason: "re-encode asked" };
  const needs = reencodeReasons(req);
  if (needs.length > 0) return { kind: "reencode", reason: `full re-encode: ${needs.join(", ")}` };
  if (startOnKey || req.allowSnap) return null;
  return req.captions ? WITH_TRACK : frameExact(req.info.video?.codec ?? "unknown");
}

/** auto: copy when it is exact, smart when the codec allows, re-encode otherwise. */
export function chooseStrategy(req: CutRequest, frames: CutFrames, packets: Parameters<typeof copyEnd>[0]): Choice {
  return chooseWith(req, frames, (reason) => ({
    kind: "copy" as const,
    ...copyEnd(packets, frames.keyBefore, frames.endPts, frames.frameTicks),
    reason,
  }));
}

/**
 * chooseStrategy's rule, given the copy a reading of the frames allows (where it ends): the true-cut report's, whose
 * reading of a long clip is two windows (paths/cut-frames.ts).
 */
export function chooseWith<C extends { kind: "copy"; endPts: number; reason: string }>(
  req: CutRequest,
  frames: CutFrames,
  copyAt: (reason: string) => C,
): C | Exclude<Choice, { kind: "copy" }> {
  const other = copyRuledOut(req, frames.startOnKey);
  if (other) return other;
  if (req.strategy === "copy") return copyAt("copy asked");
  if (!frames.startOnKey) return copyAt("snapping to the keyframe before the start was allowed");
  const copy = copyAt("the clip starts on a keyframe and ends cleanly: stream copy is exact");
  if (copy.endPts === frames.endPts) return copy;
  // The end is not where a copy can stop: the tail is re-encoded, or (allowed) the copy snaps there.
  const codec = req.info.video?.codec ?? "unknown";
  if (req.captions) return req.allowSnap ? copyAt("the end snaps to where a copy can stop (allowed)") : WITH_TRACK;
  if (SMART_CODECS.has(codec) || !req.allowSnap) return frameExact(codec);
  return copyAt("snapping to the keyframe before the start was allowed");
}
