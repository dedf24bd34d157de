import { Link } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import type { ClipRange } from "~/domain/clip-range";
import { clipQuality } from "~/domain/clip-request";
import { clipCost } from "~/domain/credits";
import { FORMAT_LABELS, isAudioFormat, type Format, type Quality } from "~/domain/media";
import { checkPlanLimits, type PlanId } from "~/domain/plans";
import { formatTimecode } from "~/domain/time";
import { sendToExtension } from "~/utils/extension-bridge";

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

/** How long the extension may take to start a clip (a cold companion start included) before the page gives up. */
const HANDOFF_TIMEOUT_MS = 30_000;
const HANDOFF_NO_ANSWER =
  "The ClipCut extension did not answer in time. Open the extension to see whether your clip started before trying again.";

type Handoff =
  | { state: "idle" | "sending" | "no-extension" }
  | { state: "sent"; message: string }
  | { state: "refused"; message: string };

/**
 * Format and quality pickers and the Create button. Clips are made on the creator's computer: when the ClipCut
 * extension answers, Create hands it the clip (createClip) and the companion cuts it; otherwise the page explains
 * how to install it.
 */
export function ExportOptions({
  videoUrl,
  range,
  plan,
  disabled,
  extensionId,
  credits,
}: {
  videoUrl: string;
  range: ClipRange;
  plan: PlanId;
  disabled: boolean;
  extensionId: string;
  /** The signed-in creator's live credits line (null signed out). */
  credits: ReactNode;
}) {
  const length = Math.max(0, range.end - range.start);
  const [format, setFormat] = useState<CutterFormat>("mp4");
  const [quality, setQuality] = useState<CutterQuality>("720p");
  const [name, setName] = useState(() => `YouTube clip ${new URL(videoUrl).searchParams.get("v") ?? ""}`.trim());
  const [handoff, setHandoff] = useState<Handoff>({ state: "idle" });

  async function create() {
    setHandoff({ state: "sending" });
    // Is the extension there? A quick ping: the hand-off itself may take seconds (it starts the companion, which
    // first checks its tools), and under the short wait a slow but working hand-off read as "no extension" while
    // the clip was being cut and charged.
    if (!(await sendToExtension(extensionId, { action: "ping" }))) return setHandoff({ state: "no-extension" });
    const reply = await sendToExtension(
      extensionId,
      {
        action: "createClip",
        name: name.trim() || "YouTube clip",
        videoUrl,
        startSeconds: Math.round(range.start * 1000) / 1000,
        endSeconds: Math.round(range.end * 1000) / 1000,
        format,
        quality: clipQuality(format, quality),
      },
      HANDOFF_TIMEOUT_MS,
    );
    if (!reply) return setHandoff({ state: "refused", message: HANDOFF_NO_ANSWER });
    setHandoff(
      reply.success
        ? { state: "sent", message: reply.message ?? "The extension is creating your clip." }
        : { state: "refused", message: reply.message ?? "The extension could not create this clip." },
    );
  }
  const audio = isAudioFormat(format);
  const cost = clipCost(length, format, quality);
  const limit =
    length > 0 ? checkPlanLimits(plan, { durationSeconds: length, format, quality }) : { ok: true as const };

  return (
    <div className="space-y-5">
      <div>
        <label htmlFor="clip-name" className="label">
          Clip name
        </label>
        <input
          id="clip-name"
          className="input"
          value={name}
          maxLength={200}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
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
      {credits}
      <button
        type="button"
        className="btn-primary w-full py-3 text-base"
        disabled={disabled || length <= 0 || handoff.state === "sending"}
        onClick={() => void create()}
      >
        {handoff.state === "sending" ? "Sending to the extension..." : "Create Clip"}
      </button>
      <div aria-live="polite">
        {handoff.state === "sent" && (
          <p role="status" className="alert-success">
            Sent to the ClipCut extension. {handoff.message}
          </p>
        )}
        {handoff.state === "refused" && (
          <p role="alert" className="alert-error">
            {handoff.message}
          </p>
        )}
        {handoff.state === "no-extension" && (
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
