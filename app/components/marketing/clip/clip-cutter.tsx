import { useEffect, useRef, useState, type ReactNode } from "react";
import type { PlanId } from "~/domain/plans";
import { ClipRangeEditor } from "~/components/clip-range/clip-range-editor";
import type { ClipRange } from "~/domain/clip-range";
import { ExportOptions } from "./export-options";
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
export function ClipCutter({
  videoId,
  origin,
  plan,
  extensionId,
  credits,
}: {
  videoId: string;
  origin: string;
  plan: PlanId;
  extensionId: string;
  /** The live credits line beside Create (signed in), or null. A slot, not a wrapper: the cutter keeps its place in
   *  the page whatever the session data does, so its state (the range, the hand-off status) is never remounted away. */
  credits: ReactNode;
}) {
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
  // The fields work once the player reported the duration AND the range took it as its end: enabled a render
  // earlier, a start typed then was refused (no end yet) and the end then jumped to the whole video.
  // The server renders them disabled too, so nothing can be typed before hydration.
  const [initialised, setInitialised] = useState(false);
  const ready = status.ready && initialised;

  useEffect(() => {
    rangeRef.current = range;
  }, [range]);

  // The end defaults to the full duration once the video reports it.
  useEffect(() => {
    if (status.duration <= 0) return;
    setRange((r) => (r.end === 0 ? { start: 0, end: status.duration } : r));
    setInitialised(true);
  }, [status.duration]);

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
        {hydrated && !status.ready && !status.error && (
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

      <div className="grid items-start gap-6 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="timeline-heading" className="card p-4 sm:p-6">
          <h2 id="timeline-heading" className="mb-4 text-lg font-semibold text-slate-900">
            Timeline
          </h2>
          <ClipRangeEditor
            idPrefix="clip"
            player={{ ...status, ready, position }}
            actions={player}
            range={range}
            onChange={setRange}
          />
        </section>

        <section aria-labelledby="export-heading" className="card">
          <h2 id="export-heading" className="text-lg font-semibold text-slate-900">
            Export
          </h2>
          <div className="mt-4">
            <ExportOptions
              videoUrl={`https://www.youtube.com/watch?v=${videoId}`}
              range={range}
              plan={plan}
              disabled={!ready}
              extensionId={extensionId}
              credits={credits}
            />
          </div>
        </section>
      </div>
      <noscript>
        <p className="alert-error">The cutting controls need JavaScript. You can still watch the video above.</p>
      </noscript>
    </div>
  );
}
