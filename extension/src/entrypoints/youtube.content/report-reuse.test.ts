import { describe, expect, it } from "vitest";
import { companionRange, snapRange, toFrames } from "../../../../app/domain/frames";
import type { DryRunReport } from "../../../../app/domain/true-cut";
import { reportHolds } from "./report-reuse";

const fps = 25;
/** The companion's report for 00:10–00:25 asked in seconds, before the panel knew the frame rate: frames 250..624. */
const report = { fps, firstFrame: 250, lastFrame: 624 } as DryRunReport;
const options = JSON.stringify(["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "mp4", "720p", "{}", true]);

describe("a report already shown answers the same frames", () => {
  it("is not asked again when the range snaps onto the grid the report taught (the same frames)", () => {
    const snapped = snapRange({ start: 10, end: 25 }, fps);
    const frames = toFrames(snapped, fps);
    // What would be sent changes (the frames' middles) while the frames do not.
    expect(companionRange(frames, fps)).toEqual({ startSeconds: 10.02, endSeconds: 24.98 });
    expect(reportHolds({ options, report }, options, frames)).toBe(true);
  });

  it("is asked again for other frames, other options, or with no report or frame grid yet", () => {
    expect(reportHolds({ options, report }, options, { first: 251, last: 624 })).toBe(false);
    expect(reportHolds({ options, report }, options, { first: 250, last: 625 })).toBe(false);
    const other = JSON.stringify(["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "mkv", "720p", "{}", true]);
    expect(reportHolds({ options, report }, other, { first: 250, last: 624 })).toBe(false);
    expect(reportHolds(null, options, { first: 250, last: 624 })).toBe(false);
    expect(reportHolds({ options, report }, options, null)).toBe(false);
  });
});
