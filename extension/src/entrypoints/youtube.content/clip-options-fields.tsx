import { NO_CAPTIONS, type CaptionMode, type CaptionTrack } from "../../../../app/domain/captions";
import { SOFT_CAPTION_FORMATS } from "../../../../app/domain/clip-request";
import { clipCost } from "../../../../app/domain/credits";
import { ASPECTS, ASPECT_LABELS, type Aspect } from "../../../../app/domain/crop";
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
import { PLAN_LIST } from "../../../../app/domain/plans";
import { formatTimecode } from "../../../../app/domain/time";
import type { Account } from "../../lib/messages";
import { captionChoices } from "./caption-choices";
import type { ClipOptions } from "./use-clip-options";

/** The plan that first unlocks a format or quality, named on locked options. */
const unlockFormat = (format: Format) => PLAN_LIST.find((p) => p.formats.includes(format))?.name;
const unlockQuality = (quality: Quality) => PLAN_LIST.find((p) => compareQuality(quality, p.maxQuality) <= 0)?.name;

/**
 * The clip's options (name, format, quality), the plan's locked ones named with the plan that unlocks them, and what
 * the clip costs against the credits available. A new option of ClipOptions gets its control here.
 */
export function ClipOptionsFields({
  options,
  onChange,
  account,
  length,
  captionTracks,
  libass,
}: {
  options: ClipOptions;
  onChange: (patch: Partial<ClipOptions>) => void;
  account: Account | null;
  length: number;
  /** The video's caption tracks as the companion's dry run lists them; none known yet (or no companion): undefined. */
  captionTracks?: readonly CaptionTrack[];
  /** Whether the companion's ffmpeg can burn captions in; unknown: undefined. */
  libass?: boolean;
}) {
  const limits = account?.limits;
  const audio = isAudioFormat(options.format);
  const cost = clipCost(length, options.format, options.quality);
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div className="sm:col-span-3">
        <label htmlFor="clipcut-name" className="label">
          Name
        </label>
        <input
          id="clipcut-name"
          className="input"
          value={options.name}
          maxLength={200}
          onChange={(e) => onChange({ name: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor="clipcut-format" className="label">
          Format
        </label>
        <select
          id="clipcut-format"
          className="input"
          value={options.format}
          onChange={(e) => onChange({ format: e.target.value as Format })}
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
          value={options.quality}
          disabled={audio}
          onChange={(e) => onChange({ quality: e.target.value as Quality })}
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
      {!audio && <ShortsFields options={options} onChange={onChange} captionTracks={captionTracks} libass={libass} />}
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
            <dd className="text-slate-600" data-testid="clipcut-available">
              {account.credits.available} credits available
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

const MODE_LABELS: Record<CaptionMode, string> = { burn: "Burned in", soft: "Subtitle track" };

/**
 * Aspect and captions, for short videos. The crop box itself is drawn over the page's video (crop-box.tsx). The
 * tracks are the video's own, in the page's language first; burned-in captions need libass in the companion's
 * ffmpeg, and a subtitle track a format that carries one.
 */
function ShortsFields({
  options,
  onChange,
  captionTracks,
  libass,
}: {
  options: ClipOptions;
  onChange: (patch: Partial<ClipOptions>) => void;
  captionTracks?: readonly CaptionTrack[];
  libass?: boolean;
}) {
  const tracks = captionChoices(captionTracks ?? [], document.documentElement.lang);
  const chosen = options.captions;
  // A preset's track this video does not have stays visible (the companion refuses it by name).
  const missing = chosen && captionTracks && !tracks.some((t) => t.value === chosen.track) ? chosen.track : null;
  const soft = (SOFT_CAPTION_FORMATS as readonly string[]).includes(options.format);
  const canMode = (mode: CaptionMode) => (mode === "burn" ? libass !== false : soft);
  const mode: CaptionMode = chosen?.mode ?? (libass === false ? "soft" : "burn");
  return (
    <>
      <div>
        <label htmlFor="clipcut-aspect" className="label">
          Aspect
        </label>
        <select
          id="clipcut-aspect"
          className="input"
          value={options.aspect}
          onChange={(e) => onChange({ aspect: e.target.value as Aspect })}
        >
          {ASPECTS.map((a) => (
            <option key={a} value={a}>
              {ASPECT_LABELS[a]}
            </option>
          ))}
        </select>
        {options.aspect !== "original" && (
          <p className="mt-1 text-xs text-slate-600" id="clipcut-aspect-hint">
            Drag the box on the video, or focus it and use the arrow keys (Home and End for the edges).
          </p>
        )}
      </div>
      <fieldset className="space-y-2 sm:col-span-2">
        <legend className="label">Captions</legend>
        <label htmlFor="clipcut-captions" className="sr-only">
          Caption track
        </label>
        <select
          id="clipcut-captions"
          className="input"
          value={chosen?.track ?? NO_CAPTIONS}
          onChange={(e) => {
            const track = e.target.value;
            if (track === NO_CAPTIONS) return onChange({ captions: null });
            const usable: CaptionMode = canMode(mode) ? mode : mode === "burn" ? "soft" : "burn";
            onChange({ captions: { track, mode: usable, srt: chosen?.srt ?? false } });
          }}
        >
          {tracks.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
          {missing && <option value={missing}>{missing} (not on this video)</option>}
          <option value={NO_CAPTIONS}>None</option>
        </select>
        {captionTracks === undefined && (
          <p className="text-xs text-slate-600">The video&apos;s caption tracks appear once the companion answers.</p>
        )}
        {chosen && (
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            {(["burn", "soft"] as const).map((m) => (
              <label key={m} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="clipcut-caption-mode"
                  value={m}
                  checked={chosen.mode === m}
                  disabled={!canMode(m)}
                  onChange={() => onChange({ captions: { ...chosen, mode: m } })}
                />
                {MODE_LABELS[m]}
              </label>
            ))}
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={chosen.srt ?? false}
                onChange={(e) => onChange({ captions: { ...chosen, srt: e.target.checked } })}
              />
              Also save an .srt
            </label>
          </div>
        )}
        {chosen && libass === false && (
          <p className="text-xs text-amber-900" data-testid="clipcut-no-libass">
            Burning captions in needs libass, which this computer&apos;s ffmpeg lacks (the companion&apos;s doctor says
            how to get it): a subtitle track works without it.
          </p>
        )}
        {chosen && !soft && (
          <p className="text-xs text-slate-600">A subtitle track needs MP4, MOV, MKV or WebM: GIF and AVI burn in.</p>
        )}
      </fieldset>
    </>
  );
}
