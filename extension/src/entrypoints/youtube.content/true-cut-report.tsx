import { useEffect, useState } from "react";
import { formatFrame } from "../../../../app/domain/frames";
import { picturesDiffer, type RgbaPicture } from "../../../../app/domain/picture-compare";
import { describeEnd, describeStart, type DryRunReport } from "../../../../app/domain/true-cut";

/** A picture decoded at its own size (the rule averages it itself), or null when it cannot be read. */
async function pixels(src: string): Promise<RgbaPicture | null> {
  const image = new Image();
  image.src = src;
  try {
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext("2d");
    if (!context) return null;
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, canvas.width, canvas.height);
  } catch {
    return null;
  }
}

/** Null when the pictures cannot be compared (a frame not grabbed yet, or a protected video). */
async function notSamePicture(a: string | undefined, b: string | undefined): Promise<boolean | null> {
  if (!a || !b) return null;
  const [x, y] = await Promise.all([pixels(a), pixels(b)]);
  return x && y ? picturesDiffer(x, y) : null;
}

const megabytes = (bytes: number) => (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0);
const secondsText = (s: number) => (s < 10 ? s.toFixed(1) : Math.round(s).toString());

/**
 * What the cut will do, said before Create: copy or re-encode at each end, size and time as ranges, and the
 * companion's own first and last frames beside the frames the browser showed. When they are not the same picture
 * (YouTube plays another rendition than the one the companion downloads), the panel says so instead of promising.
 */
export function TrueCutReport({
  report,
  pending,
  problem,
  grabs,
  onSnap,
}: {
  report: DryRunReport | null;
  pending: boolean;
  problem: string | null;
  /** The browser's own pictures of the handles' frames, by frame number. */
  grabs: ReadonlyMap<number, string>;
  onSnap: (frame: number) => void;
}) {
  const [differs, setDiffers] = useState<{ first: boolean | null; last: boolean | null }>({ first: null, last: null });
  const firstGrab = report ? grabs.get(report.firstFrame) : undefined;
  const lastGrab = report ? grabs.get(report.lastFrame) : undefined;
  useEffect(() => {
    let stale = false;
    if (!report?.thumbnails) return setDiffers({ first: null, last: null });
    void Promise.all([
      notSamePicture(firstGrab, report.thumbnails.first),
      notSamePicture(lastGrab, report.thumbnails.last),
    ]).then(([first, last]) => {
      if (!stale) setDiffers({ first, last });
    });
    return () => {
      stale = true;
    };
  }, [report, firstGrab, lastGrab]);

  const mismatch = differs.first === true || differs.last === true;
  return (
    <section aria-labelledby="clipcut-true-cut-heading" className="space-y-3 rounded-xl border border-slate-200 p-3">
      <h3 id="clipcut-true-cut-heading" className="text-sm font-bold">
        True cut
      </h3>
      {!report && (
        <p role="status" className="text-sm text-slate-600">
          {problem ??
            (pending ? "Asking the companion how it will cut this range…" : "The plan appears once the range is set.")}
        </p>
      )}
      {report && (
        <div className="space-y-2 text-sm" aria-busy={pending}>
          <ul data-testid="clipcut-true-cut" className="list-disc space-y-1 pl-5">
            <li>{describeStart(report)}</li>
            {describeEnd(report) && <li>{describeEnd(report)}</li>}
            <li>
              {report.frameCount} frames at {Number(report.fps.toFixed(3))} fps ({report.codec} {report.height}p), about{" "}
              {megabytes(report.sizeBytes.low)}–{megabytes(report.sizeBytes.high)} MB, ready in about{" "}
              {secondsText(report.seconds.low)}–{secondsText(report.seconds.high)} s.
            </li>
          </ul>
          {!report.startOnKey && report.strategy !== "reencode" && (
            <div className="flex flex-wrap gap-2">
              <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={() => onSnap(report.keyBefore)}>
                Snap the start to the previous keyframe (frame {report.keyBefore})
              </button>
              {report.keyAfter !== null && report.keyAfter <= report.lastFrame && (
                <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={() => onSnap(report.keyAfter!)}>
                  Snap the start to the next keyframe (frame {report.keyAfter})
                </button>
              )}
            </div>
          )}
          {mismatch && (
            <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
              The companion&apos;s {differs.first ? "first" : "last"} frame is not the picture you see: YouTube plays
              another version of this video here. The file will hold the frames shown on the right; check them before
              you create the clip.
            </p>
          )}
          {report.thumbnails && (
            <div className="grid grid-cols-2 gap-3">
              <FramePair
                title={`First frame · ${formatFrame(report.firstFrame, report.fps)}`}
                mine={firstGrab}
                file={report.thumbnails.first}
                testId="clipcut-thumb-first"
              />
              <FramePair
                title={`Last frame · ${formatFrame(report.lastFrame, report.fps)}`}
                mine={lastGrab}
                file={report.thumbnails.last}
                testId="clipcut-thumb-last"
              />
            </div>
          )}
        </div>
      )}
    </section>
  );
}

function FramePair({ title, mine, file, testId }: { title: string; mine?: string; file: string; testId: string }) {
  return (
    <figure className="space-y-1">
      <figcaption className="text-xs text-slate-600">{title}</figcaption>
      <div className="grid grid-cols-2 gap-1">
        {mine ? (
          <img src={mine} alt="This frame as your browser shows it" className="w-full rounded" />
        ) : (
          <p className="rounded bg-slate-50 p-1 text-xs text-slate-600">Step to this frame to compare.</p>
        )}
        <img src={file} alt="This frame as the file will hold it" data-testid={testId} className="w-full rounded" />
      </div>
    </figure>
  );
}
