import { useEffect, useRef, useState } from "react";
import { isUsableFps } from "../../../../app/domain/frames";
import type { DryRunReport } from "../../../../app/domain/true-cut";
import { ask } from "../../lib/send";
import type { ClipOptions, ShortsFields } from "./use-clip-options";
import type { ClipRangeState } from "./use-clip-range";
import { reportHolds, type HeldReport } from "./report-reuse";

/** A report is asked for once the handles rest this long. */
const REPORT_DELAY_MS = 400;

/**
 * The true-cut report: asked of the companion once the handles rest, for the range as it would be sent and the
 * options it would be cut with. Its probe's frame rate becomes the range's frame grid.
 */
export function useDryRun(o: {
  signal: AbortSignal;
  pageUrl: string;
  /** The video is ready, the companion paired, the range one that can be cut (not audio only). */
  enabled: boolean;
  clip: Pick<ClipRangeState, "sent" | "fps" | "setFps" | "frames">;
  options: ClipOptions;
  /** The aspect, crop and captions the clip would be sent with: a crop or captions re-encode (the report says so). */
  shorts: ShortsFields;
  watermark: boolean;
}) {
  const [report, setReport] = useState<DryRunReport | null>(null);
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { sent, fps, setFps, frames } = o.clip;
  const { format, quality } = o.options;
  const asked = useRef(0);
  const held = useRef<HeldReport | null>(null);
  const shortsKey = JSON.stringify(o.shorts);
  // Everything the report depends on besides the range.
  const optionsKey = JSON.stringify([o.pageUrl, format, quality, shortsKey, o.watermark]);
  useEffect(() => {
    if (!o.enabled) return;
    const id = ++asked.current;
    if (reportHolds(held.current, optionsKey, frames)) return setPending(false);
    setPending(true);
    const timer = setTimeout(() => {
      void ask({
        type: "dryRun",
        ask: { videoUrl: o.pageUrl, ...sent, format, quality, watermark: o.watermark, thumbnails: true, ...o.shorts },
      }).then((result) => {
        if (id !== asked.current || o.signal.aborted) return;
        setPending(false);
        if (!result.ok) {
          setReport(null);
          held.current = null;
          return setProblem(`The companion could not plan this cut: ${result.failure.message}`);
        }
        setProblem(null);
        held.current = { options: optionsKey, report: result.value };
        if (!fps && isUsableFps(result.value.fps)) setFps(result.value.fps);
        setReport(result.value);
      });
    }, REPORT_DELAY_MS);
    return () => clearTimeout(timer);
    // `sent` is compared by its times, the options by their key; the rest is read when the answer comes.
  }, [o.enabled, sent.startSeconds, sent.endSeconds, optionsKey]);
  return { report, pending, problem };
}
