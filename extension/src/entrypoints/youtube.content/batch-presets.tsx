import { useEffect, useState } from "react";
import type { Preset } from "../../../../app/domain/api";
import { BATCH_COPY } from "../../../../app/domain/batch-copy";
import { describeCaptions } from "../../../../app/domain/clip-request";
import { describeCrop, isCropAspect } from "../../../../app/domain/crop";
import { FORMAT_LABELS, isAudioFormat } from "../../../../app/domain/media";
import { formatTimecode } from "../../../../app/domain/time";
import type { Account, ClipJob } from "../../lib/messages";
import { ask } from "../../lib/send";
import type { ClipOptions } from "./use-clip-options";

/** How a preset reads in the list: "Shorts (MP4 1080p, 00:15, 9:16, centre, captions en, burned in)". */
const describePreset = (p: Preset) =>
  `${p.name} (${[
    `${FORMAT_LABELS[p.format]} ${p.quality}`,
    ...(p.clipSeconds ? [formatTimecode(p.clipSeconds)] : []),
    ...(isCropAspect(p.aspect) ? [describeCrop(p.aspect, p.cropPosition)] : []),
    ...(p.captions ? [`captions ${describeCaptions(p.captions)}`] : []),
  ].join(", ")})`;

/** What a preset keeps of the short-video options: none for audio, no position without a crop. */
function presetShorts(o: Pick<ClipOptions, "format" | "aspect" | "cropPosition" | "captions">) {
  if (isAudioFormat(o.format)) return { aspect: "original" as const, cropPosition: null, captions: null };
  return {
    aspect: o.aspect,
    cropPosition: isCropAspect(o.aspect) ? o.cropPosition : null,
    captions: o.captions,
  };
}

/**
 * Advanced and Pro: several ranges of this video as one batch, and the account's presets (format, quality, an
 * optional clip length, the aspect with its crop position and the captions), kept on the site and shared with /account.
 */
export function BatchAndPresets({
  limits,
  options,
  length,
  current,
  disabled,
  onApplyPreset,
  onSubmit,
}: {
  limits: Account["limits"];
  /** The options a new preset keeps: format, quality, aspect, crop position and captions. */
  options: Pick<ClipOptions, "format" | "quality" | "aspect" | "cropPosition" | "captions">;
  /** The current range's length in seconds, offered as the preset's clip length. */
  length: number;
  current: () => ClipJob;
  disabled: boolean;
  onApplyPreset: (preset: Preset) => void;
  onSubmit: (jobs: ClipJob[]) => Promise<void>;
}) {
  const [batch, setBatch] = useState<ClipJob[]>([]);
  const full = batch.length >= limits.maxOpenHolds;
  const [presets, setPresets] = useState<Preset[]>([]);
  const [chosen, setChosen] = useState("");
  const [presetName, setPresetName] = useState("");
  const [keepLength, setKeepLength] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!limits.presets) return;
    void ask({ type: "presets" }).then((r) =>
      r.ok ? setPresets(r.value) : setNote(`Your presets could not be loaded: ${r.failure.message}`),
    );
  }, [limits.presets]);

  async function savePreset() {
    setSaving(true);
    const name = presetName.trim();
    const clipSeconds = keepLength && length > 0 ? Math.round(length * 1000) / 1000 : null;
    const { format, quality } = options;
    const preset = { name, format, quality, clipSeconds, ...presetShorts(options) };
    const saved = await ask({ type: "savePreset", preset });
    setSaving(false);
    if (!saved.ok) return setNote(saved.failure.message);
    setPresets((list) => [...list, saved.value]);
    setChosen(saved.value.id);
    setPresetName("");
    setNote(`Preset "${saved.value.name}" saved to your account.`);
  }

  async function deletePreset() {
    const preset = presets.find((p) => p.id === chosen);
    if (!preset) return;
    const deleted = await ask({ type: "deletePreset", id: preset.id });
    if (!deleted.ok) return setNote(deleted.failure.message);
    setPresets((list) => list.filter((p) => p.id !== preset.id));
    setChosen("");
    setNote(`Preset "${preset.name}" deleted.`);
  }

  return (
    <div className="grid gap-4 rounded-xl border border-slate-200 p-3 sm:grid-cols-2">
      {limits.presets && (
        <div className="space-y-2">
          <label htmlFor="clipcut-preset" className="label">
            Preset
          </label>
          <div className="flex gap-2">
            <select
              id="clipcut-preset"
              className="input"
              value={chosen}
              onChange={(e) => {
                setChosen(e.target.value);
                const preset = presets.find((p) => p.id === e.target.value);
                if (preset) {
                  onApplyPreset(preset);
                  setNote(`Preset "${preset.name}" applied.`);
                }
              }}
            >
              <option value="">{presets.length ? "Choose a preset…" : "No presets yet"}</option>
              {presets.map((p) => (
                <option key={p.id} value={p.id}>
                  {describePreset(p)}
                </option>
              ))}
            </select>
            <button type="button" className="btn-ghost shrink-0" disabled={!chosen} onClick={() => void deletePreset()}>
              Delete preset
            </button>
          </div>
          <label htmlFor="clipcut-preset-name" className="label">
            New preset name
          </label>
          <div className="flex gap-2">
            <input
              id="clipcut-preset-name"
              className="input"
              value={presetName}
              maxLength={60}
              onChange={(e) => setPresetName(e.target.value)}
            />
            <button
              type="button"
              className="btn-secondary shrink-0"
              disabled={!presetName.trim() || saving}
              onClick={() => void savePreset()}
            >
              Save preset
            </button>
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={keepLength} onChange={(e) => setKeepLength(e.target.checked)} />
            Keep the clip length ({formatTimecode(length)})
          </label>
          {note && (
            <p role="status" className="text-sm text-slate-600">
              {note}
            </p>
          )}
        </div>
      )}
      {limits.batch && (
        <div className="space-y-2">
          <p className="label">Batch</p>
          <button
            type="button"
            className="btn-secondary w-full"
            disabled={disabled || full}
            aria-describedby="clipcut-batch-rule"
            onClick={() => setBatch((b) => (b.length < limits.maxOpenHolds ? [...b, current()] : b))}
          >
            {BATCH_COPY.addRange}
          </button>
          {/* The account's own rule (/api/v1/me): the server refuses a hold beyond it. */}
          <p id="clipcut-batch-rule" className={`text-xs ${full ? "text-amber-800" : "text-slate-600"}`}>
            {BATCH_COPY.rule(limits.maxOpenHolds, full)}
          </p>
          {batch.length > 0 && (
            <>
              <ul className="space-y-1 text-sm">
                {batch.map((job, index) => (
                  <li key={index} className="flex items-center justify-between gap-2">
                    <span className="font-mono tabular-nums">
                      {formatTimecode(job.startSeconds)}–{formatTimecode(job.endSeconds)}
                    </span>
                    <button
                      type="button"
                      className="btn-ghost px-2 py-1 text-xs"
                      onClick={() => setBatch((b) => b.filter((_, i) => i !== index))}
                    >
                      Remove range {index + 1}
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className="btn-primary w-full"
                disabled={disabled}
                onClick={(event) => {
                  // Like "Create clip": a script's click() on the page spends no credits.
                  if (!event.nativeEvent.isTrusted) return;
                  void onSubmit(batch.map((job, i) => ({ ...job, name: `${job.name} (${i + 1})` }))).then(() =>
                    setBatch([]),
                  );
                }}
              >
                Create {batch.length} clips
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
