import { useEffect, useRef, useState } from "react";
import { ClipRangeEditor } from "../../../../app/components/clip-range/clip-range-editor";
import { dragEnd, dragStart, type ClipRange } from "../../../../app/domain/clip-range";
import { clipRangeError } from "../../../../app/domain/clip-request";
import { clipCost } from "../../../../app/domain/credits";
import {
  companionRange,
  frameRangeSeconds,
  isUsableFps,
  snapRange,
  toFrames,
  type FrameRange,
} from "../../../../app/domain/frames";
import {
  FORMATS,
  FORMAT_LABELS,
  QUALITIES,
  QUALITY_LABELS,
  compareQuality,
  isAudioFormat,
  type Format,
  type Quality,
} from "../../../../app/domain/media";
import { PLAN_LIST, checkPlanLimits, effectivePlan } from "../../../../app/domain/plans";
import { formatTimecode } from "../../../../app/domain/time";
import type { DryRunReport } from "../../../../app/domain/true-cut";
import { JobProgress, isActive } from "../../components/job-progress";
import { SITE_ORIGIN } from "../../lib/config";
import { jobFailure } from "../../lib/failures";
import type { Account, AccountStatus, ClipJob, CompanionState, Failure, Job } from "../../lib/messages";
import { applyJobEvent } from "../../lib/job-feed";
import { ask } from "../../lib/send";
import { useJobFeed } from "../../lib/use-job-feed";
import { TITLE } from "../../lib/youtube-page";
import { BatchAndPresets } from "./batch-presets";
import { FrameControls, frameKeyHandler } from "./frame-controls";
import { TrueCutReport } from "./true-cut-report";
import { pageVideoDuration, usePageVideo } from "./use-page-video";

/** The times sent for a range: the middles of its first and last frames once the frame rate is known. */
function sentRange(range: ClipRange, fps: number | null) {
  if (fps) return companionRange(toFrames(range, fps), fps);
  return { startSeconds: Math.round(range.start * 1000) / 1000, endSeconds: Math.round(range.end * 1000) / 1000 };
}

/** The panel's frame grabs are this wide (the companion's thumbnails are compared with them). */
const GRAB_WIDTH = 160;
const GRAB_KEPT = 12;
/** A report is asked for once the handles rest this long. */
const REPORT_DELAY_MS = 400;

/** The plan that first unlocks a format or quality, named on locked options. */
const unlockFormat = (format: Format) => PLAN_LIST.find((p) => p.formats.includes(format))?.name;
const unlockQuality = (quality: Quality) => PLAN_LIST.find((p) => compareQuality(quality, p.maxQuality) <= 0)?.name;

/** The "Clip" button and, once opened, the panel for the video on this page. */
export function ClipPanel({ signal, pageUrl }: { signal: AbortSignal; pageUrl: string }) {
  const [open, setOpen] = useState(false);
  // The account, asked as the button appears (the background answers from what it remembers): the panel then opens
  // on it without a round trip to the site, and checks it again beside.
  const [known, setKnown] = useState<AccountStatus | null>(null);
  useEffect(() => {
    void ask({ type: "account" }).then((result) => !signal.aborted && result.ok && setKnown(result.value));
  }, [signal]);
  return (
    <div className="my-3 font-sans text-slate-900">
      <button
        type="button"
        className="btn-primary"
        aria-expanded={open}
        aria-controls="clipcut-panel"
        onClick={() => setOpen((o) => !o)}
      >
        Clip
      </button>
      {open && <Panel signal={signal} pageUrl={pageUrl} known={known} />}
    </div>
  );
}

function Panel({ signal, pageUrl, known }: { signal: AbortSignal; pageUrl: string; known: AccountStatus | null }) {
  // The whole video when its duration is already known: the first render is then a usable range.
  const [range, setRawRange] = useState<ClipRange>(() => ({ start: 0, end: pageVideoDuration() }));
  // The frame rate of the format the companion will cut (its dry run's probe); until then, seconds.
  const [fps, setFps] = useState<number | null>(null);
  const [loop, setLoop] = useState(true);
  const [report, setReport] = useState<DryRunReport | null>(null);
  const [reportPending, setReportPending] = useState(false);
  const [reportProblem, setReportProblem] = useState<string | null>(null);
  const [grabs, setGrabs] = useState<ReadonlyMap<number, string>>(new Map());
  const frames: FrameRange | null = fps ? toFrames(range, fps) : null;
  // Every change of the range lands on the frame grid once the grid is known.
  const setRange = (update: (r: ClipRange) => ClipRange) =>
    setRawRange((r) => (fps ? snapRange(update(r), fps) : update(r)));
  const grab = (frame: number, video: HTMLVideoElement) => {
    if (!fps || grabs.has(frame) || !video.videoWidth) return;
    const canvas = document.createElement("canvas");
    canvas.width = GRAB_WIDTH;
    canvas.height = Math.round((GRAB_WIDTH * video.videoHeight) / video.videoWidth);
    try {
      canvas.getContext("2d")?.drawImage(video, 0, 0, canvas.width, canvas.height);
      const url = canvas.toDataURL("image/jpeg", 0.85);
      // The last few paused frames: a handle set on one of them has the browser's picture at hand.
      setGrabs((g) => new Map([...g].slice(1 - GRAB_KEPT)).set(frame, url));
    } catch {
      // A protected or cross-origin video cannot be read: the panel then shows the companion's frames alone.
    }
  };
  const { video, state, actions, frame, step } = usePageVideo(signal, range, fps, loop, grab);
  const [status, setStatus] = useState<AccountStatus | null>(known);
  const [companion, setCompanion] = useState<CompanionState | null>(null);
  const [name, setName] = useState(
    () => document.querySelector(TITLE)?.textContent?.trim() || document.title.replace(/ - YouTube$/, ""),
  );
  const [format, setFormat] = useState<Format>("mp4");
  const [quality, setQuality] = useState<Quality>("720p");
  const [jobs, setJobs] = useState<Job[]>([]);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  // The account (plan, limits, available credits): the page's early answer until the site's own, asked on opening
  // (a revoked token then shows as signed out) and again after each finished job. The companion's state comes on
  // its own: the browser may have to start it, and the panel is usable meanwhile.
  const finished = jobs.filter((j) => !isActive(j)).length;
  const checked = useRef(false);
  useEffect(() => {
    if (known && !checked.current) setStatus(known);
  }, [known]);
  useEffect(() => {
    void ask({ type: "account", fresh: true }).then((result) => {
      if (signal.aborted) return;
      checked.current = true;
      setStatus(result.ok ? result.value : null);
    });
  }, [signal, finished]);
  useEffect(() => {
    void ask({ type: "companion" }).then((result) => !signal.aborted && setCompanion(result.ok ? result.value : null));
  }, [signal]);

  // The end defaults to the whole video once its duration is known.
  useEffect(() => {
    if (state.duration > 0) setRange((r) => (r.end === 0 ? { start: 0, end: state.duration } : r));
  }, [state.duration]);

  // A frame rate learned from the companion puts the range on its frame grid.
  useEffect(() => {
    if (fps) setRawRange((r) => (r.end > r.start ? snapRange(r, fps) : r));
  }, [fps]);

  // Follow the submitted jobs until they finish: the companion pushes each change (no polling). When the feed starts
  // or stops, read each running job once: a job that ended before the feed listened, or a stopped companion, then
  // shows as what it is, not as a frozen bar.
  const running = jobs.some(isActive) && !signal.aborted;
  const jobsRef = useRef(jobs);
  jobsRef.current = jobs;
  useJobFeed(
    running,
    (event) => setJobs((list) => applyJobEvent(list, event)),
    () =>
      void Promise.all(
        jobsRef.current.map(async (job) => {
          if (!isActive(job)) return job;
          const fresh = await ask({ type: "job", id: job.id });
          if (fresh.ok) return fresh.value;
          if (fresh.failure.kind === "stopped") setFailure(fresh.failure);
          return job;
        }),
      ).then(
        (read) =>
          !signal.aborted &&
          setJobs((list) => read.reduce((merged, job) => applyJobEvent(merged, { type: "job", job }), list)),
      ),
  );

  const account: Account | null = status?.account ?? null;
  const plan = effectivePlan(account?.user.plan);
  const limits = account?.limits;
  const length = Math.max(0, range.end - range.start);
  const audio = isAudioFormat(format);
  const cost = clipCost(length, format, quality);
  const limit =
    length > 0 ? checkPlanLimits(plan, { durationSeconds: length, format, quality }) : { ok: true as const };
  const ready = state.ready && status !== null;
  const sent = sentRange(range, fps);
  const tooShort = length > 0 ? clipRangeError(sent.startSeconds, sent.endSeconds) : null;

  // The true-cut report: asked of the companion once the handles rest, for the range as it would be sent.
  const paired = companion?.state === "paired";
  const watermark = limits?.watermark ?? false;
  const asked = useRef(0);
  useEffect(() => {
    if (!state.ready || !paired || audio || tooShort || !(range.end > range.start)) return;
    const id = ++asked.current;
    setReportPending(true);
    const timer = setTimeout(() => {
      void ask({
        type: "dryRun",
        ask: { videoUrl: pageUrl, ...sent, format, quality, watermark, thumbnails: true },
      }).then((result) => {
        if (id !== asked.current || signal.aborted) return;
        setReportPending(false);
        if (!result.ok) {
          setReport(null);
          return setReportProblem(`The companion could not plan this cut: ${result.failure.message}`);
        }
        setReportProblem(null);
        if (!fps && isUsableFps(result.value.fps)) setFps(result.value.fps);
        setReport(result.value);
      });
    }, REPORT_DELAY_MS);
    return () => clearTimeout(timer);
    // `sent` follows from range and fps.
  }, [state.ready, paired, audio, tooShort, sent.startSeconds, sent.endSeconds, format, quality, watermark, pageUrl]);

  const job = (r: ClipRange, n: string): ClipJob => ({
    name: n,
    videoUrl: pageUrl,
    ...sentRange(r, fps),
    format,
    quality,
  });

  const onKeyDown = frameKeyHandler({
    step,
    setFirst: () => video && setRange((r) => ({ ...r, start: dragStart(video.currentTime, r) })),
    setLast: () => video && setRange((r) => ({ ...r, end: dragEnd(video.currentTime, r, state.duration) })),
  });

  async function submit(list: ClipJob[]) {
    setBusy(true);
    setFailure(null);
    const result =
      list.length === 1 && list[0]
        ? await ask({ type: "createJob", job: list[0] })
        : await ask({ type: "batch", jobs: list });
    setBusy(false);
    if (signal.aborted) return;
    if (!result.ok) return setFailure(result.failure);
    setJobs(result.value);
  }

  // A job the API refused fails inside the companion: show it like any other refusal.
  const refused = jobs.find((j) => j.status === "failed" && j.error)?.error;
  const shownFailure: Failure | null = failure ?? (refused ? jobFailure(refused) : null);

  return (
    // The panel takes focus when clicked anywhere (tabIndex −1) so that its frame keys work; it is a region, not a control.
    <section
      id="clipcut-panel"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      aria-labelledby="clipcut-panel-heading"
      className="mt-3 max-w-3xl space-y-5 rounded-2xl border border-slate-200 bg-white p-4 text-left shadow-lg"
    >
      <h2 id="clipcut-panel-heading" className="text-base font-bold">
        Create a clip
      </h2>
      {!state.ready && (
        <p role="status" className="text-sm text-slate-600">
          Waiting for the video to load…
        </p>
      )}
      {status && !status.signedIn && (
        <p role="alert" className="alert-error">
          You are signed out.{" "}
          <a href={`${SITE_ORIGIN}/signin`} target="_blank" rel="noreferrer" className="font-semibold underline">
            Sign in to ClipCut
          </a>{" "}
          to create clips with your credits.
        </p>
      )}

      <ClipRangeEditor
        idPrefix="clipcut"
        player={state}
        actions={actions}
        range={range}
        onChange={setRange}
        loopNote={
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={loop} onChange={(e) => setLoop(e.target.checked)} />
            Loop the preview (off: it stops on the last frame)
          </label>
        }
      />
      <FrameControls
        fps={fps}
        frames={frames}
        range={range}
        position={state.position}
        frame={frame}
        disabled={!state.ready}
        onStep={step}
      />
      {!audio && (
        <TrueCutReport
          report={report}
          pending={reportPending}
          problem={
            reportProblem ?? (companion && !paired ? "Pair the companion to see how it will cut this range." : null)
          }
          grabs={grabs}
          onSnap={(key) =>
            fps && setRange((r) => ({ ...r, start: frameRangeSeconds({ first: key, last: key }, fps).start }))
          }
        />
      )}

      <div className="grid gap-4 sm:grid-cols-3">
        <div className="sm:col-span-3">
          <label htmlFor="clipcut-name" className="label">
            Name
          </label>
          <input
            id="clipcut-name"
            className="input"
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="clipcut-format" className="label">
            Format
          </label>
          <select
            id="clipcut-format"
            className="input"
            value={format}
            onChange={(e) => setFormat(e.target.value as Format)}
          >
            {FORMATS.map((f) => {
              const locked = limits ? !limits.formats.includes(f) : false;
              return (
                <option key={f} value={f} disabled={locked}>
                  {FORMAT_LABELS[f]}
                  {locked ? ` (${unlockFormat(f)} plan)` : ""}
                </option>
              );
            })}
          </select>
        </div>
        <div>
          <label htmlFor="clipcut-quality" className="label">
            Quality
          </label>
          <select
            id="clipcut-quality"
            className="input"
            value={quality}
            disabled={audio}
            onChange={(e) => setQuality(e.target.value as Quality)}
          >
            {QUALITIES.map((q) => {
              const locked = limits ? compareQuality(q, limits.maxQuality) > 0 : false;
              return (
                <option key={q} value={q} disabled={locked}>
                  {QUALITY_LABELS[q]}
                  {locked ? ` (${unlockQuality(q)} plan)` : ""}
                </option>
              );
            })}
          </select>
        </div>
        <dl className="grid grid-cols-2 gap-2 rounded-xl bg-slate-50 p-3 text-sm">
          <div>
            <dt className="text-slate-600">Length</dt>
            <dd className="font-mono font-semibold tabular-nums">{formatTimecode(length)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Cost</dt>
            <dd className="font-semibold" data-testid="clipcut-cost">
              {cost} {cost === 1 ? "credit" : "credits"}
            </dd>
          </div>
          {account && (
            <div className="col-span-2">
              <dt className="sr-only">Available credits</dt>
              <dd className="text-slate-600">{account.credits.available} credits available</dd>
            </div>
          )}
        </dl>
      </div>

      {limits?.watermark && (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          Clips on the Free plan carry a small ClipCut watermark.{" "}
          <a href={`${SITE_ORIGIN}/pricing`} target="_blank" rel="noreferrer" className="font-semibold underline">
            Upgrade
          </a>{" "}
          for clean exports.
        </p>
      )}
      {tooShort && <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{tooShort}</p>}
      {!limit.ok && <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{limit.message}</p>}

      {limits && (limits.batch || limits.presets) && (
        <BatchAndPresets
          limits={limits}
          format={format}
          quality={quality}
          length={length}
          onApplyPreset={(preset) => {
            setFormat(preset.format);
            setQuality(preset.quality);
            // A preset's clip length runs from the current start, within the video.
            const seconds = preset.clipSeconds;
            if (seconds)
              setRange((r) => ({ start: r.start, end: Math.min(r.start + seconds, state.duration || Infinity) }));
          }}
          current={() => job(range, name)}
          disabled={!ready || busy}
          onSubmit={submit}
        />
      )}

      <button
        type="button"
        className="btn-primary w-full"
        disabled={!ready || busy || length <= 0 || tooShort !== null || name.trim() === "" || running}
        onClick={(event) => {
          // The page shares this DOM: only the user's own click spends credits, never a script's click().
          if (event.nativeEvent.isTrusted) void submit([job(range, name.trim())]);
        }}
      >
        Create clip
      </button>

      <div aria-live="polite" className="space-y-3">
        {shownFailure && <FailureNotice failure={shownFailure} />}
        {jobs.map((j) => (
          <JobProgress key={j.id} job={j} label={j.request.name ?? "Clip"} />
        ))}
        {jobs.some((j) => j.status === "done") && companion?.state === "paired" && (
          <p className="text-sm text-slate-600">
            Show in folder: open <code className="break-all font-mono text-xs">{companion.outputDir}</code>.
          </p>
        )}
      </div>
    </section>
  );
}

function FailureNotice({ failure }: { failure: Failure }) {
  const link = (href: string, text: string) => (
    <a href={href} target="_blank" rel="noreferrer" className="ml-1 font-semibold underline">
      {text}
    </a>
  );
  return (
    <p role="alert" className="alert-error">
      {failure.message}
      {failure.kind === "credits" || failure.kind === "plan_limit" ? link(`${SITE_ORIGIN}/pricing`, "Upgrade") : null}
      {failure.kind === "signed_out" ? link(`${SITE_ORIGIN}/signin`, "Sign in") : null}
    </p>
  );
}
