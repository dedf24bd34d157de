import { useEffect, useState } from "react";
import type { Preset } from "../../../../app/domain/companion";
import { FORMAT_LABELS, type Format, type Quality } from "../../../../app/domain/media";
import { formatTimecode } from "../../../../app/domain/time";
import type { Account, ClipJob } from "../../lib/messages";
import { ask } from "../../lib/send";

/** Advanced and Pro: several ranges of this video as one batch, and saved format + quality presets. */
export function BatchAndPresets({
  limits,
  format,
  quality,
  current,
  disabled,
  onApplyPreset,
  onSubmit,
}: {
  limits: Account["limits"];
  format: Format;
  quality: Quality;
  current: () => ClipJob;
  disabled: boolean;
  onApplyPreset: (format: Format, quality: Quality | undefined) => void;
  onSubmit: (jobs: ClipJob[]) => Promise<void>;
}) {
  const [batch, setBatch] = useState<ClipJob[]>([]);
  const [presets, setPresets] = useState<Preset[]>([]);
  const [presetName, setPresetName] = useState("");
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    if (!limits.presets) return;
    void ask({ type: "presets" }).then((r) => r.ok && setPresets(r.value));
  }, [limits.presets]);

  async function savePreset() {
    const preset: Preset = { name: presetName.trim(), format, quality, strategy: "auto" };
    const saved = await ask({ type: "savePreset", preset });
    if (!saved.ok) return setNote(saved.failure.message);
    setPresets((list) => [...list.filter((p) => p.name !== preset.name), preset]);
    setPresetName("");
    setNote(`Preset "${preset.name}" saved.`);
  }

  return (
    <div className="grid gap-4 rounded-xl border border-slate-200 p-3 sm:grid-cols-2">
      {limits.presets && (
        <div className="space-y-2">
          <label htmlFor="clipcut-preset" className="label">
            Preset
          </label>
          <select
            id="clipcut-preset"
            className="input"
            defaultValue=""
            onChange={(e) => {
              const preset = presets.find((p) => p.name === e.target.value);
              if (preset) onApplyPreset(preset.format, preset.quality);
            }}
          >
            <option value="">Choose a preset…</option>
            {presets.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name} ({FORMAT_LABELS[p.format]}
                {p.quality ? ` ${p.quality}` : ""})
              </option>
            ))}
          </select>
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
              disabled={!presetName.trim()}
              onClick={() => void savePreset()}
            >
              Save preset
            </button>
          </div>
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
            disabled={disabled}
            onClick={() => setBatch((b) => [...b, current()])}
          >
            Add this range to the batch
          </button>
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
