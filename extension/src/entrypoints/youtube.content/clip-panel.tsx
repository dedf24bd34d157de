import { useEffect, useState } from "react";
import type { CaptionTrack } from "../../../../app/domain/captions";
import { ClipRangeEditor } from "../../../../app/components/clip-range/clip-range-editor";
import { frameRangeSeconds } from "../../../../app/domain/frames";
import { isAudioFormat } from "../../../../app/domain/media";
import { checkPlanLimits, effectivePlan } from "../../../../app/domain/plans";
import type { AccountStatus } from "../../lib/messages";
import { ask } from "../../lib/send";
import { BatchAndPresets } from "./batch-presets";
import { ClipOptionsFields } from "./clip-options-fields";
import { CropBox } from "./crop-box";
import { FrameControls } from "./frame-controls";
import { JobList } from "./job-list";
import { RangeNotice, SignedOutNotice, WatermarkNotice } from "./panel-notices";
import { isCropAspect } from "../../../../app/domain/crop";
import { TrueCutReport } from "./true-cut-report";
import { useAccount } from "./use-account";
import { useClipOptions } from "./use-clip-options";
import { useClipRange } from "./use-clip-range";
import { useCompanion } from "./use-companion";
import { useDryRun } from "./use-dry-run";
import { useFrameKeys } from "./use-frame-keys";
import { useJobs } from "./use-jobs";

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

/**
 * The panel: the range on the page's video (use-clip-range), the clip's options (use-clip-options), the account
 * (use-account), the companion (use-companion) with its true-cut report (use-dry-run), and the clips sent (use-jobs).
 * It only puts them together.
 */
function Panel({ signal, pageUrl, known }: { signal: AbortSignal; pageUrl: string; known: AccountStatus | null }) {
  const clip = useClipRange(signal);
  const { range, setRange, fps, length, tooShort, page } = clip;
  const { state, actions } = page;
  const clipOptions = useClipOptions(pageUrl, page.video);
  const { options } = clipOptions;
  const { jobs, running, busy, submit, failure } = useJobs(signal);
  const status = useAccount(signal, known, jobs);
  const companion = useCompanion(signal);
  const onKeyDown = useFrameKeys(clip);

  const account = status?.account ?? null;
  const limits = account?.limits;
  const audio = isAudioFormat(options.format);
  const limit =
    length > 0
      ? checkPlanLimits(effectivePlan(account?.user.plan), {
          durationSeconds: length,
          format: options.format,
          quality: options.quality,
        })
      : { ok: true as const };
  const ready = state.ready && status !== null;
  const paired = companion?.state === "paired";
  const dryRun = useDryRun({
    signal,
    pageUrl,
    enabled: state.ready && paired && !audio && !tooShort && range.end > range.start,
    clip,
    options,
    shorts: clipOptions.shorts(),
    watermark: limits?.watermark ?? false,
  });
  // What the companion said of this video's captions, kept while a new report is asked for.
  const [captionFacts, setCaptionFacts] = useState<{ tracks?: CaptionTrack[]; libass?: boolean }>({});
  useEffect(() => {
    const r = dryRun.report;
    if (r) setCaptionFacts({ tracks: r.captionTracks ?? [], libass: r.libass });
  }, [dryRun.report]);

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
      {status && !status.signedIn && <SignedOutNotice />}

      <ClipRangeEditor
        idPrefix="clipcut"
        player={state}
        actions={actions}
        range={range}
        onChange={setRange}
        loopNote={
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={clip.loop} onChange={(e) => clip.setLoop(e.target.checked)} />
            Loop the preview (off: it stops on the last frame)
          </label>
        }
      />
      <FrameControls
        fps={fps}
        frames={clip.frames}
        range={range}
        position={state.position}
        frame={page.frame}
        disabled={!state.ready}
        onStep={page.step}
      />
      {!audio && (
        <TrueCutReport
          report={dryRun.report}
          pending={dryRun.pending}
          problem={
            dryRun.problem ?? (companion && !paired ? "Pair the companion to see how it will cut this range." : null)
          }
          grabs={clip.grabs}
          onSnap={(key) =>
            fps && setRange((r) => ({ ...r, start: frameRangeSeconds({ first: key, last: key }, fps).start }))
          }
        />
      )}

      <ClipOptionsFields
        options={options}
        onChange={clipOptions.set}
        account={account}
        length={length}
        captionTracks={captionFacts.tracks}
        libass={captionFacts.libass}
      />
      {page.video && !audio && isCropAspect(options.aspect) && (
        <CropBox
          video={page.video}
          aspect={options.aspect}
          position={options.cropPosition}
          onChange={(cropPosition) => clipOptions.set({ cropPosition })}
        />
      )}

      {limits?.watermark && <WatermarkNotice />}
      {tooShort && <RangeNotice>{tooShort}</RangeNotice>}
      {!limit.ok && <RangeNotice>{limit.message}</RangeNotice>}

      {limits && (limits.batch || limits.presets) && (
        <BatchAndPresets
          limits={limits}
          options={options}
          length={length}
          onApplyPreset={(preset) => {
            clipOptions.applyPreset(preset);
            // A preset's clip length runs from the current start, within the video.
            const seconds = preset.clipSeconds;
            if (seconds)
              setRange((r) => ({ start: r.start, end: Math.min(r.start + seconds, state.duration || Infinity) }));
          }}
          current={() => clipOptions.job(range, fps)}
          disabled={!ready || busy}
          onSubmit={submit}
        />
      )}

      <button
        type="button"
        className="btn-primary w-full"
        disabled={!ready || busy || length <= 0 || tooShort !== null || options.name.trim() === "" || running}
        onClick={(event) => {
          // The page shares this DOM: only the user's own click spends credits, never a script's click().
          if (event.nativeEvent.isTrusted) void submit([clipOptions.job(range, fps, options.name.trim())]);
        }}
      >
        Create clip
      </button>

      <JobList jobs={jobs} failure={failure} companion={companion} />
    </section>
  );
}
