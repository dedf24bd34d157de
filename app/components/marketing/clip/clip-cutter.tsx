import { useEffect, useRef, useState } from "react";
import type { PlanId } from "~/domain/plans";
import { acceptEnd, acceptStart, clamp, dragEnd, dragStart, type ClipRange } from "./clip-range";
import { RepeatIcon } from "./clip-icons";
import { ExportOptions } from "./export-options";
import { PlayerControls } from "./player-controls";
import { RangeTimeline } from "./range-timeline";
import { TimeField } from "./time-field";
import { useYouTubePlayer } from "./use-youtube-player";
import { playerEmbedUrl } from "./youtube-embed";

const DEFAULT_VOLUME = 50;

export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" className="flex flex-col items-center gap-3 text-white">
      <span
        className="h-10 w-10 animate-spin rounded-full border-4 border-white/30 border-t-white"
        aria-hidden="true"
      />
      <span className="text-sm font-medium">{label}</span>
    </div>
  );
}

/** The player, timeline, controls and export options for one video. Mount with key={videoId}. */
export function ClipCutter({ videoId, origin, plan }: { videoId: string; origin: string; plan: PlanId }) {
  const [range, setRange] = useState<ClipRange>({ start: 0, end: 0 });
  const rangeRef = useRef(range);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const player = useYouTubePlayer(DEFAULT_VOLUME, {
    // Preview loop: back to the start when the playhead reaches the end.
    onTick: (position, advancing) => {
      if (advancing && position >= rangeRef.current.end) player.seek(rangeRef.current.start);
    },
    onEnded: () => {
      player.seek(rangeRef.current.start);
      player.play();
    },
  });
  const { status, position } = player;
  const ready = status.ready;

  useEffect(() => {
    rangeRef.current = range;
  }, [range]);

  // The end defaults to the full duration once the video reports it.
  useEffect(() => {
    if (status.duration > 0) setRange((r) => (r.end === 0 ? { start: 0, end: status.duration } : r));
  }, [status.duration]);

  function togglePlay() {
    if (status.playing) {
      player.pause();
      return;
    }
    // The preview plays the selection: from the start when the playhead is outside it.
    if (position < range.start || position >= range.end - 0.05) player.seek(range.start);
    player.play();
  }

  return (
    <div className="space-y-6">
      <div className="relative aspect-video overflow-hidden rounded-2xl bg-slate-900 shadow-lg">
        <iframe
          ref={player.iframeRef}
          src={playerEmbedUrl(videoId, origin)}
          title="YouTube video player"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          className="absolute inset-0 h-full w-full"
        />
        {hydrated && !ready && !status.error && (
          <div className="absolute inset-0 grid place-items-center bg-slate-900/80">
            <Spinner label="Loading video..." />
          </div>
        )}
      </div>

      {status.error && (
        <p role="alert" className="alert-error">
          {status.error}
        </p>
      )}

      <section aria-labelledby="timeline-heading" className="card space-y-5 p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="timeline-heading" className="text-lg font-semibold text-slate-900">
            Timeline
          </h2>
          <p className="flex items-center gap-1.5 text-sm text-slate-600">
            <RepeatIcon className="h-4 w-4" />
            Preview loops from start to end
          </p>
        </div>
        <RangeTimeline
          duration={status.duration}
          range={range}
          position={position}
          disabled={!ready}
          onChange={setRange}
        />
        <PlayerControls
          disabled={!ready}
          playing={status.playing}
          position={position}
          duration={status.duration}
          muted={status.muted}
          volume={status.volume}
          onTogglePlay={togglePlay}
          onSkip={(delta) => player.seek(clamp(position + delta, 0, status.duration))}
          onSeek={player.seek}
          onToggleMute={player.toggleMute}
          onVolume={player.setVolume}
        />
      </section>

      <div className="grid items-start gap-6 lg:grid-cols-2">
        <section aria-labelledby="range-heading" className="card">
          <h2 id="range-heading" className="text-lg font-semibold text-slate-900">
            Start and end
          </h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <TimeField
              id="clip-start"
              label="Start time"
              value={range.start}
              disabled={!ready}
              accept={(seconds) => acceptStart(seconds, range)}
              onCommit={(start) => setRange((r) => ({ ...r, start }))}
            />
            <TimeField
              id="clip-end"
              label="End time"
              value={range.end}
              disabled={!ready}
              accept={(seconds) => acceptEnd(seconds, range, status.duration)}
              onCommit={(end) => setRange((r) => ({ ...r, end }))}
            />
          </div>
          <div className="mt-4 flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-secondary"
              disabled={!ready}
              onClick={() => setRange((r) => ({ ...r, start: dragStart(position, r) }))}
            >
              Set start to playhead
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={!ready}
              onClick={() => setRange((r) => ({ ...r, end: dragEnd(position, r, status.duration) }))}
            >
              Set end to playhead
            </button>
          </div>
        </section>

        <section aria-labelledby="export-heading" className="card">
          <h2 id="export-heading" className="text-lg font-semibold text-slate-900">
            Export
          </h2>
          <div className="mt-4">
            <ExportOptions length={Math.max(0, range.end - range.start)} plan={plan} disabled={!ready} />
          </div>
        </section>
      </div>
      <noscript>
        <p className="alert-error">The cutting controls need JavaScript. You can still watch the video above.</p>
      </noscript>
    </div>
  );
}
