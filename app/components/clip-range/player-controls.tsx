import { formatTimecode } from "../../domain/time";
import { PauseIcon, PlayIcon, SkipBackIcon, SkipForwardIcon, VolumeIcon } from "./clip-icons";

const ICON_BUTTON =
  "grid h-11 w-11 place-items-center rounded-full text-slate-700 transition hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50";

export const SKIP_SECONDS = 10;

/** Play/pause, ±10 s, seek bar, time read-out, mute and volume. */
export function PlayerControls({
  idPrefix,
  disabled,
  playing,
  position,
  duration,
  muted,
  volume,
  onTogglePlay,
  onSkip,
  onSeek,
  onToggleMute,
  onVolume,
}: {
  idPrefix: string;
  disabled: boolean;
  playing: boolean;
  position: number;
  duration: number;
  muted: boolean;
  volume: number;
  onTogglePlay: () => void;
  onSkip: (seconds: number) => void;
  onSeek: (seconds: number) => void;
  onToggleMute: () => void;
  onVolume: (volume: number) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-3">
      <button
        type="button"
        className={ICON_BUTTON}
        onClick={() => onSkip(-SKIP_SECONDS)}
        disabled={disabled}
        aria-label="Back 10 seconds"
      >
        <SkipBackIcon className="h-6 w-6" />
      </button>
      <button
        type="button"
        className="grid h-12 w-12 place-items-center rounded-full bg-brand-600 text-white shadow transition hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
        onClick={onTogglePlay}
        disabled={disabled}
        aria-label={playing ? "Pause preview" : "Play preview"}
      >
        {playing ? <PauseIcon className="h-6 w-6" /> : <PlayIcon className="h-6 w-6" />}
      </button>
      <button
        type="button"
        className={ICON_BUTTON}
        onClick={() => onSkip(SKIP_SECONDS)}
        disabled={disabled}
        aria-label="Forward 10 seconds"
      >
        <SkipForwardIcon className="h-6 w-6" />
      </button>

      <div className="order-last flex w-full items-center gap-3 sm:order-none sm:w-auto sm:flex-1">
        <label htmlFor={`${idPrefix}-seek`} className="sr-only">
          Playback position
        </label>
        <input
          id={`${idPrefix}-seek`}
          type="range"
          min={0}
          max={duration > 0 ? duration : 1}
          step={0.1}
          value={Math.min(position, duration)}
          disabled={disabled}
          aria-valuetext={`${formatTimecode(position)} of ${formatTimecode(duration)}`}
          onChange={(event) => onSeek(Number(event.target.value))}
          className="h-2 flex-1 cursor-pointer accent-brand-600"
        />
        <span className="whitespace-nowrap font-mono text-sm tabular-nums text-slate-700">
          {formatTimecode(position)} / {formatTimecode(duration)}
        </span>
      </div>

      <div className="ml-auto flex items-center gap-1 sm:ml-0">
        <button
          type="button"
          className={ICON_BUTTON}
          onClick={onToggleMute}
          disabled={disabled}
          aria-label={muted ? "Unmute" : "Mute"}
        >
          <VolumeIcon muted={muted || volume === 0} className="h-6 w-6" />
        </button>
        <label htmlFor={`${idPrefix}-volume`} className="sr-only">
          Volume
        </label>
        <input
          id={`${idPrefix}-volume`}
          type="range"
          min={0}
          max={100}
          step={1}
          value={muted ? 0 : volume}
          disabled={disabled}
          aria-valuetext={muted ? "Muted" : `${volume}%`}
          onChange={(event) => onVolume(Number(event.target.value))}
          className="h-2 w-24 cursor-pointer accent-brand-600"
        />
        <span className="w-9 text-right font-mono text-sm tabular-nums text-slate-700" aria-hidden="true">
          {muted ? 0 : volume}
        </span>
      </div>
    </div>
  );
}
