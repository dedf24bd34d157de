import { Link } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import type { ClipRange } from "~/domain/clip-range";
import {
  CAPTION_MODE_LABELS,
  captionTrackSchema,
  clipQuality,
  SOFT_CAPTION_FORMATS,
  type CaptionMode,
} from "~/domain/clip-request";
import { ASPECTS, type Aspect } from "~/domain/crop";
import { clipCost } from "~/domain/credits";
import { FORMAT_LABELS, isAudioFormat, type Format, type Quality } from "~/domain/media";
import { checkPlanLimits, type PlanId } from "~/domain/plans";
import { formatTimecode } from "~/domain/time";
import { sendToExtension } from "~/utils/extension-bridge";

export const CUTTER_FORMATS = ["mp4", "mp3", "gif"] as const satisfies readonly Format[];
export const CUTTER_QUALITIES = ["360p", "480p", "720p", "1080p"] as const satisfies readonly Quality[];
type CutterFormat = (typeof CUTTER_FORMATS)[number];
type CutterQuality = (typeof CUTTER_QUALITIES)[number];
/** "none" or how the video's own captions go into the clip. */
const CAPTION_CHOICES = ["none", "burn", "soft"] as const;
type CaptionChoice = (typeof CAPTION_CHOICES)[number];
const CAPTION_CHOICE_LABELS: Record<CaptionChoice, string> = {
  none: "None",
  burn: "Burned in",
  soft: "Subtitle track",
};
const ASPECT_SHORT_LABELS: Record<Aspect, string> = {
  original: "Original",
  "9:16": "9:16",
  "1:1": "1:1",
  "4:5": "4:5",
};
const softCaptionsFit = (format: Format) => (SOFT_CAPTION_FORMATS as readonly Format[]).includes(format);

function OptionGroup<T extends string>({
  legend,
  name,
  options,
  value,
  disabled,
  optionDisabled,
  columns = 4,
  hint,
  label,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  disabled?: boolean;
  /** An option that does not fit the other choices (shown, not selectable). */
  optionDisabled?: (option: T) => boolean;
  columns?: 3 | 4;
  /** A line under the options, read with the group. */
  hint?: string;
  label: (option: T) => string;
  onChange: (option: T) => void;
}) {
  const hintId = hint ? `${name}-hint` : undefined;
  return (
    <fieldset disabled={disabled} aria-describedby={hintId} className="disabled:opacity-60">
      <legend className="label">{legend}</legend>
      <div className={`grid gap-2 ${columns === 3 ? "grid-cols-3" : "grid-cols-4"}`}>
        {options.map((option) => (
          <label
            key={option}
            className="flex cursor-pointer items-center justify-center rounded-lg border border-slate-300 px-2 py-2 text-center text-sm font-semibold text-slate-700 transition hover:border-brand-400 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-600 has-[:checked]:text-white has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 has-[:focus-visible]:ring-offset-2"
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              disabled={optionDisabled?.(option)}
              onChange={() => onChange(option)}
              className="sr-only"
            />
            {label(option)}
          </label>
        ))}
      </div>
      {hint && (
        <p id={hintId} className="mt-2 text-xs text-slate-600">
          {hint}
        </p>
      )}
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
  const [aspect, setAspect] = useState<Aspect>("original");
  const [captionChoice, setCaptionChoice] = useState<CaptionChoice>("none");
  const [captionTrack, setCaptionTrack] = useState("en");
  const [captionSrt, setCaptionSrt] = useState(false);
  const [captionError, setCaptionError] = useState<string | null>(null);
  const audio = isAudioFormat(format);
  const [name, setName] = useState(() => `YouTube clip ${new URL(videoUrl).searchParams.get("v") ?? ""}`.trim());
  const [handoff, setHandoff] = useState<Handoff>({ state: "idle" });

  function chooseFormat(next: CutterFormat) {
    setFormat(next);
    // A GIF has no subtitle track: captions for it are burned in.
    if (captionChoice === "soft" && !softCaptionsFit(next)) setCaptionChoice("burn");
  }

  async function create() {
    // Audio carries neither an aspect nor captions; the extension checks the request again with the same schema.
    const mode: CaptionMode | null = audio || captionChoice === "none" ? null : captionChoice;
    const track = captionTrackSchema.safeParse(captionTrack);
    if (mode && !track.success) {
      setCaptionError(track.error.issues[0]?.message ?? "Enter a caption language code.");
      return;
    }
    setCaptionError(null);
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
        // The page does not see the video's frame: a crop is centred, full height (the companion applies the rule).
        ...(audio || aspect === "original" ? {} : { aspect }),
        ...(mode && track.success
          ? { captions: { track: track.data, mode, ...(captionSrt ? { srt: true } : {}) } }
          : {}),
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
        onChange={chooseFormat}
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
      <OptionGroup
        legend={audio ? "Aspect (video formats only)" : "Aspect"}
        name="aspect"
        options={ASPECTS}
        value={aspect}
        disabled={audio}
        hint={
          aspect === "original" || audio
            ? "9:16 for Shorts, Reels and TikTok; 1:1 and 4:5 for feeds."
            : "Cropped from the centre of the picture, at its full height."
        }
        label={(option) => ASPECT_SHORT_LABELS[option]}
        onChange={setAspect}
      />
      <OptionGroup
        legend={audio ? "Captions (video formats only)" : "Captions"}
        name="captions"
        options={CAPTION_CHOICES}
        value={captionChoice}
        disabled={audio}
        columns={3}
        optionDisabled={(option) => option === "soft" && !softCaptionsFit(format)}
        hint={
          format === "gif" && !audio
            ? "The video's own captions. A GIF has no subtitle track: burn them in."
            : "The video's own captions, burned into the picture or as a track players can switch on."
        }
        label={(option) => CAPTION_CHOICE_LABELS[option]}
        onChange={(option) => {
          setCaptionChoice(option);
          setCaptionError(null);
        }}
      />
      {!audio && captionChoice !== "none" && (
        <div className="space-y-3">
          <div>
            <label htmlFor="caption-track" className="label">
              Caption language
            </label>
            <input
              id="caption-track"
              className="input"
              value={captionTrack}
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={captionError ? true : undefined}
              aria-describedby={captionError ? "caption-track-error caption-track-hint" : "caption-track-hint"}
              onChange={(event) => {
                setCaptionTrack(event.target.value);
                setCaptionError(null);
              }}
            />
            <p id="caption-track-hint" className="mt-1 text-xs text-slate-600">
              A language code, such as en, de or pt-BR.
            </p>
            {captionError && (
              <p id="caption-track-error" role="alert" className="mt-1 text-sm font-medium text-red-700">
                {captionError}
              </p>
            )}
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={captionSrt}
              onChange={(event) => setCaptionSrt(event.target.checked)}
              className="h-4 w-4 rounded border-slate-300 text-brand-600"
            />
            Also save an .srt file
          </label>
        </div>
      )}
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
            to create this {FORMAT_LABELS[format]} clip{audio ? "" : ` in ${quality}`}
            {!audio && aspect !== "original" ? `, ${aspect}` : ""}
            {!audio && captionChoice !== "none" ? `, with ${CAPTION_MODE_LABELS[captionChoice]} captions` : ""}.
          </p>
        )}
      </div>
    </div>
  );
}
