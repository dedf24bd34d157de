import type { ReactNode } from "react";
import { acceptEnd, acceptStart, clamp, dragEnd, dragStart, type ClipRange } from "../../domain/clip-range";
import { RepeatIcon } from "./clip-icons";
import { PlayerControls } from "./player-controls";
import { RangeTimeline } from "./range-timeline";
import { TimeField } from "./time-field";

/** What the editor needs from a player: the /clip page drives a YouTube embed, the extension the page's <video>. */
export interface PlayerState {
  ready: boolean;
  playing: boolean;
  position: number;
  duration: number;
  muted: boolean;
  volume: number;
}

export interface PlayerActions {
  play: () => void;
  pause: () => void;
  seek: (seconds: number) => void;
  toggleMute: () => void;
  setVolume: (volume: number) => void;
}

/**
 * The dual-handle range, the Start/End time fields, "set to current time" and the player controls — one component
 * for the /clip cutter and the extension's panel. The rules (gap, bounds, moving) live in app/domain/clip-range.
 */
export function ClipRangeEditor({
  idPrefix,
  player,
  actions,
  range,
  onChange,
  loopNote = "Preview loops from start to end",
}: {
  idPrefix: string;
  player: PlayerState;
  actions: PlayerActions;
  range: ClipRange;
  onChange: (update: (range: ClipRange) => ClipRange) => void;
  /** What the preview does at the end (the extension's panel puts its loop switch here). */
  loopNote?: ReactNode;
}) {
  const { ready, position, duration } = player;

  function togglePlay() {
    if (player.playing) return actions.pause();
    // The preview plays the selection: from the start when the playhead is outside it.
    if (position < range.start || position >= range.end - 0.05) actions.seek(range.start);
    actions.play();
  }

  return (
    <div className="space-y-4">
      <p className="flex items-center gap-1.5 text-sm text-slate-600">
        <RepeatIcon className="h-4 w-4" />
        {loopNote}
      </p>
      <RangeTimeline
        duration={duration}
        range={range}
        position={position}
        disabled={!ready}
        onChange={(next) => onChange(() => next)}
      />
      <PlayerControls
        idPrefix={idPrefix}
        disabled={!ready}
        playing={player.playing}
        position={position}
        duration={duration}
        muted={player.muted}
        volume={player.volume}
        onTogglePlay={togglePlay}
        onSkip={(delta) => actions.seek(clamp(position + delta, 0, duration))}
        onSeek={actions.seek}
        onToggleMute={actions.toggleMute}
        onVolume={actions.setVolume}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TimeField
          id={`${idPrefix}-start`}
          label="Start"
          value={range.start}
          disabled={!ready}
          accept={(seconds) => acceptStart(seconds, range)}
          onCommit={(start) => onChange((r) => ({ ...r, start }))}
        />
        <TimeField
          id={`${idPrefix}-end`}
          label="End"
          value={range.end}
          disabled={!ready}
          accept={(seconds) => acceptEnd(seconds, range, duration)}
          onCommit={(end) => onChange((r) => ({ ...r, end }))}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={!ready}
          onClick={() => onChange((r) => ({ ...r, start: dragStart(position, r) }))}
        >
          Set start to current time
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={!ready}
          onClick={() => onChange((r) => ({ ...r, end: dragEnd(position, r, duration) }))}
        >
          Set end to current time
        </button>
      </div>
    </div>
  );
}
