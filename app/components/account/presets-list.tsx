import { Link, useFetcher } from "@remix-run/react";
import type { Preset } from "~/domain/api";
import { describeCaptions } from "~/domain/clip-request";
import { describeCrop } from "~/domain/crop";
import { FORMAT_LABELS, QUALITY_LABELS } from "~/domain/media";
import { MAX_PRESETS, PRESETS_PLAN_MESSAGE } from "~/domain/presets";

function PresetRow({ preset }: { preset: Preset }) {
  const fetcher = useFetcher();
  const deleting = fetcher.state !== "idle";
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" hidden={deleting}>
      <div className="min-w-0">
        <p className="truncate font-medium">{preset.name}</p>
        <p className="text-sm text-slate-600">
          {FORMAT_LABELS[preset.format]} · {QUALITY_LABELS[preset.quality]}
          {preset.clipSeconds !== null && ` · ${preset.clipSeconds} s clips`}
          {preset.aspect !== "original" && ` · ${describeCrop(preset.aspect, preset.cropPosition)}`}
          {preset.captions && ` · captions ${describeCaptions(preset.captions)}`}
        </p>
      </div>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="deletePreset" />
        <input type="hidden" name="presetId" value={preset.id} />
        <button type="submit" className="btn-ghost text-red-700" disabled={deleting}>
          Delete<span className="sr-only"> preset {preset.name}</span>
        </button>
      </fetcher.Form>
    </li>
  );
}

/** The account's custom presets (saved from the extension's panel), each with a delete button. */
export function PresetsList({ presets }: { presets: Preset[] | null }) {
  return (
    <section className="card" aria-labelledby="presets-title">
      <h2 id="presets-title" className="text-lg font-semibold">
        Custom presets
      </h2>
      {presets === null ? (
        <p className="mt-2 text-slate-600">
          {PRESETS_PLAN_MESSAGE}{" "}
          <Link to="/billing/plan" className="font-medium text-brand-700 underline">
            See plans
          </Link>
        </p>
      ) : presets.length === 0 ? (
        <p className="mt-2 text-slate-600">
          No presets yet. Save one from the extension&apos;s clip panel (up to {MAX_PRESETS}).
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100" data-testid="presets-list">
          {presets.map((p) => (
            <PresetRow key={p.id} preset={p} />
          ))}
        </ul>
      )}
    </section>
  );
}
