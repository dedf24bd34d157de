import { Link } from "@remix-run/react";
import { useState } from "react";
import { clipCost } from "~/domain/credits";
import { FORMAT_LABELS, isAudioFormat, type Format, type Quality } from "~/domain/media";
import { checkPlanLimits, type PlanId } from "~/domain/plans";
import { formatTimecode } from "~/domain/time";

export const CUTTER_FORMATS = ["mp4", "mp3", "gif"] as const satisfies readonly Format[];
export const CUTTER_QUALITIES = ["360p", "480p", "720p", "1080p"] as const satisfies readonly Quality[];
type CutterFormat = (typeof CUTTER_FORMATS)[number];
type CutterQuality = (typeof CUTTER_QUALITIES)[number];

function OptionGroup<T extends string>({
  legend,
  name,
  options,
  value,
  disabled,
  label,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  disabled?: boolean;
  label: (option: T) => string;
  onChange: (option: T) => void;
}) {
  return (
    <fieldset disabled={disabled} className="disabled:opacity-60">
      <legend className="label">{legend}</legend>
      <div className="grid grid-cols-4 gap-2">
        {options.map((option) => (
          <label
            key={option}
            className="cursor-pointer rounded-lg border border-slate-300 px-2 py-2 text-center text-sm font-semibold text-slate-700 transition hover:border-brand-400 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-600 has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 has-[:focus-visible]:ring-offset-2"
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="sr-only"
            />
            {label(option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Format and quality pickers and the Create button. Nothing is sent: clips are made by the extension. */
export function ExportOptions({ length, plan, disabled }: { length: number; plan: PlanId; disabled: boolean }) {
  const [format, setFormat] = useState<CutterFormat>("mp4");
  const [quality, setQuality] = useState<CutterQuality>("720p");
  const [asked, setAsked] = useState(false);
  const audio = isAudioFormat(format);
  const cost = clipCost(length, format, quality);
  const limit =
    length > 0 ? checkPlanLimits(plan, { durationSeconds: length, format, quality }) : { ok: true as const };

  return (
    <div className="space-y-5">
      <OptionGroup
        legend="Format"
        name="format"
        options={CUTTER_FORMATS}
        value={format}
        label={(option) => FORMAT_LABELS[option]}
        onChange={setFormat}
      />
      <OptionGroup
        legend={audio ? "Quality (video formats only)" : "Quality"}
        name="quality"
        options={CUTTER_QUALITIES}
        value={quality}
        disabled={audio}
        label={(option) => option}
        onChange={setQuality}
      />
      <dl className="grid grid-cols-2 gap-3 rounded-xl bg-slate-50 p-4 text-sm">
        <div>
          <dt className="text-slate-600">Clip length</dt>
          <dd className="font-mono text-base font-semibold tabular-nums text-slate-900">{formatTimecode(length)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Estimated cost</dt>
          <dd className="text-base font-semibold text-slate-900">
            {cost} {cost === 1 ? "credit" : "credits"}
          </dd>
        </div>
      </dl>
      {!limit.ok && <p className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">{limit.message}</p>}
      <button
        type="button"
        className="btn-primary w-full py-3 text-base"
        disabled={disabled}
        onClick={() => setAsked(true)}
      >
        Create Clip
      </button>
      <div aria-live="polite">
        {asked && (
          <p className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900">
            Clips are created by the ClipCut browser extension, right on your computer.{" "}
            <Link to="/download" className="font-semibold underline">
              Install the extension
            </Link>{" "}
            to create this {FORMAT_LABELS[format]} clip{audio ? "" : ` in ${quality}`}.
          </p>
        )}
      </div>
    </div>
  );
}
