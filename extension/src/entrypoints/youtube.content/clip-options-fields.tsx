import { clipCost } from "../../../../app/domain/credits";
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
}: {
  options: ClipOptions;
  onChange: (patch: Partial<ClipOptions>) => void;
  account: Account | null;
  length: number;
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
