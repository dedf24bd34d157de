import type { FrameRange } from "../../../../app/domain/frames";
import type { DryRunReport } from "../../../../app/domain/true-cut";

/** The report shown, with what it was asked with besides the range (format, quality, crop, captions, watermark). */
export interface HeldReport {
  options: string;
  report: DryRunReport;
}

/**
 * The report shown already answers an ask: the same options, and the companion's first and last frame are the range's
 * on the frame grid. So when the first report teaches the panel its frame rate and the range snaps onto that grid, the
 * snapped range (the same frames) is not asked again: that second report, an ffprobe and two decoded thumbnails, ran
 * while the creator pressed Create and took the cut's CPU.
 */
export function reportHolds(held: HeldReport | null, options: string, frames: FrameRange | null): boolean {
  return (
    held !== null &&
    frames !== null &&
    held.options === options &&
    held.report.firstFrame === frames.first &&
    held.report.lastFrame === frames.last
  );
}
