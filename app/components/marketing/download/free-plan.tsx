import { Link } from "@remix-run/react";
import { FORMAT_LABELS, QUALITY_LABELS } from "~/domain/media";
import { PLANS } from "~/domain/plans";
import { CheckIcon } from "../icons";

const FREE = PLANS.Free;

function listFormats(): string {
  const labels = FREE.formats.map((format) => FORMAT_LABELS[format]);
  return labels.length > 1 ? `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}` : (labels[0] ?? "");
}

const INCLUDED = [
  `${FREE.credits} one-time credits`,
  `Clips up to ${FREE.maxClipSeconds} seconds`,
  `Exports up to ${QUALITY_LABELS[FREE.maxQuality]}`,
  `${listFormats()} exports`,
  "Dual-handle controls and live preview",
] as const;

const LIMITS = [
  FREE.watermark ? "A small watermark on exports" : null,
  `No clips longer than ${FREE.maxClipSeconds} seconds`,
  `No quality above ${QUALITY_LABELS[FREE.maxQuality]}`,
  "Credits are not renewed each month",
].filter((limit): limit is string => limit !== null);

/** What the Free plan includes and where it stops, from PLANS.Free. */
export function FreePlan() {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div className="card">
        <h3 className="text-lg font-semibold text-slate-900">Included for free</h3>
        <ul className="mt-4 space-y-3">
          {INCLUDED.map((item) => (
            <li key={item} className="flex gap-3 text-slate-700">
              <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" />
              {item}
            </li>
          ))}
        </ul>
      </div>
      <div className="card">
        <h3 className="text-lg font-semibold text-slate-900">Free plan limits</h3>
        <ul className="mt-4 space-y-3">
          {LIMITS.map((item) => (
            <li key={item} className="flex gap-3 text-slate-700">
              <span className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-slate-500" aria-hidden="true" />
              {item}
            </li>
          ))}
        </ul>
        <p className="mt-6 text-sm text-slate-600">
          Need more?{" "}
          <Link to="/pricing" className="font-semibold text-brand-700 hover:underline">
            Compare plans
          </Link>{" "}
          for longer clips, up to 4K and no watermark.
        </p>
      </div>
    </div>
  );
}
