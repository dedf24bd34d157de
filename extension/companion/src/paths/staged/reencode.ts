import { audioCodecArgs, containerArgs, videoCodecArgs } from "../encode";
import { toSeconds, type CutFrames } from "../keyframes";
import { audioTrim, sec, STAGE_OFFSET, videoScaleFilters, type Plan } from "./plan";
import type { CutRequest } from "../request";

/** Full re-encode of the exact frames (scaling, watermark, GIF palette, or a codec smart cut cannot join). */
export function reencodePlan(req: CutRequest, stage: string, out: string, frames: CutFrames): Plan {
  const { startPts, endPts, frameTicks } = frames;
  const hasAudio = req.info.audio !== null && req.format !== "gif";
  const vTrim = `trim=start=${sec(startPts - frameTicks / 4)}:end=${sec(endPts - frameTicks / 2)},setpts=PTS-STARTPTS`;
  const scale = videoScaleFilters(req);
  let graph: string;
  let fpsArgs: string[];
  if (req.format === "gif") {
    const fps = Math.min(15, req.info.video?.frameRate ?? 15);
    graph =
      `[0:v:0]${[vTrim, `fps=${fps}`, ...scale.map((f) => f.replace("bicubic", "lanczos"))].join(",")},split[g1][g2];` +
      `[g1]palettegen=stats_mode=diff[pal];[g2][pal]paletteuse=dither=bayer:bayer_scale=3[v]`;
    fpsArgs = [];
  } else {
    graph = `[0:v:0]${[vTrim, ...scale].join(",")}[v]`;
    fpsArgs = ["-fps_mode", "passthrough"];
  }
  if (hasAudio) graph += `;[0:a:0]${audioTrim(startPts, endPts, true)}[a]`;
  return {
    strategy: "reencode",
    startSeconds: toSeconds(startPts - STAGE_OFFSET),
    endSeconds: toSeconds(endPts - STAGE_OFFSET),
    snapped: false,
    expectVideo: true,
    expectAudio: hasAudio,
    steps: [
      {
        args: [
          "-copyts",
          "-i",
          stage,
          "-filter_complex",
          graph,
          "-map",
          "[v]",
          ...(hasAudio ? ["-map", "[a]", ...audioCodecArgs(req.format)] : []),
          ...(req.format === "gif" ? ["-loop", "0"] : videoCodecArgs(req.format)),
          ...fpsArgs,
          ...containerArgs(req.format),
          out,
        ],
        mediaSeconds: toSeconds(endPts - startPts),
        origin: 0,
        weight: 4,
      },
    ],
  };
}
