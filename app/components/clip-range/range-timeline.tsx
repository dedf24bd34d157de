import { formatTimecode } from "../../domain/time";
import { useRef, type KeyboardEvent, type PointerEvent } from "react";
import { dragEnd, dragStart, moveRange, type ClipRange } from "../../domain/clip-range";

const KEY_STEP_SECONDS = 1;

/** Thumb styles for a range input stacked over another: only the thumb takes the pointer. */
const HANDLE =
  "pointer-events-none absolute inset-0 h-full w-full appearance-none bg-transparent focus-visible:outline-none " +
  "[&::-webkit-slider-thumb]:pointer-events-auto [&::-webkit-slider-thumb]:h-9 [&::-webkit-slider-thumb]:w-3.5 " +
  "[&::-webkit-slider-thumb]:cursor-ew-resize [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-md " +
  "[&::-webkit-slider-thumb]:border-2 [&::-webkit-slider-thumb]:border-white [&::-webkit-slider-thumb]:bg-brand-700 " +
  "[&::-webkit-slider-thumb]:shadow-md focus-visible:[&::-webkit-slider-thumb]:ring-4 focus-visible:[&::-webkit-slider-thumb]:ring-brand-300 " +
  "[&::-moz-range-thumb]:pointer-events-auto [&::-moz-range-thumb]:h-9 [&::-moz-range-thumb]:w-3.5 [&::-moz-range-thumb]:cursor-ew-resize " +
  "[&::-moz-range-thumb]:rounded-md [&::-moz-range-thumb]:border-2 [&::-moz-range-thumb]:border-white [&::-moz-range-thumb]:bg-brand-700 " +
  "focus-visible:[&::-moz-range-thumb]:ring-4 focus-visible:[&::-moz-range-thumb]:ring-brand-300 [&::-moz-range-track]:bg-transparent";

/** The clip range on the video's timeline: two handles (start, end), the draggable selection and the playhead. */
export function RangeTimeline({
  duration,
  range,
  position,
  disabled,
  onChange,
}: {
  duration: number;
  range: ClipRange;
  position: number;
  disabled: boolean;
  onChange: (range: ClipRange) => void;
}) {
  const max = duration > 0 ? duration : 1;
  const pct = (seconds: number) => `${(Math.min(Math.max(seconds, 0), max) / max) * 100}%`;
  const track = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; range: ClipRange } | null>(null);

  // Dragging the selection moves the whole range; its length stays the same.
  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (disabled) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, range };
  }
  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const width = track.current?.getBoundingClientRect().width ?? 0;
    if (!drag.current || width <= 0) return;
    const delta = ((event.clientX - drag.current.x) / width) * max;
    onChange(moveRange(drag.current.range, delta, duration));
  }
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const delta = event.key === "ArrowLeft" ? -KEY_STEP_SECONDS : event.key === "ArrowRight" ? KEY_STEP_SECONDS : 0;
    if (delta === 0 || disabled) return;
    event.preventDefault();
    onChange(moveRange(range, delta, duration));
  }

  return (
    <div>
      <div ref={track} className="relative h-9 select-none">
        <div className="absolute inset-x-0 top-1/2 h-3 -translate-y-1/2 rounded-full bg-slate-200" aria-hidden="true" />
        <div
          role="slider"
          tabIndex={disabled ? -1 : 0}
          aria-label="Whole clip range"
          aria-valuemin={0}
          aria-valuemax={Math.round(max)}
          aria-valuenow={Math.round(range.start)}
          aria-valuetext={`${formatTimecode(range.start)} to ${formatTimecode(range.end)}`}
          aria-disabled={disabled}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={() => (drag.current = null)}
          onPointerCancel={() => (drag.current = null)}
          onKeyDown={onKeyDown}
          className="absolute top-1/2 h-5 -translate-y-1/2 cursor-grab touch-none rounded-full bg-brand-500 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-300 active:cursor-grabbing"
          style={{ left: pct(range.start), width: `calc(${pct(range.end)} - ${pct(range.start)})` }}
        />
        {duration > 0 && (
          <div
            className="absolute top-0 h-full w-0.5 -translate-x-1/2 rounded bg-slate-900"
            style={{ left: pct(position) }}
            aria-hidden="true"
          />
        )}
        <input
          type="range"
          aria-label="Clip start"
          aria-valuetext={formatTimecode(range.start)}
          min={0}
          max={max}
          step={0.1}
          value={range.start}
          disabled={disabled}
          onChange={(event) => onChange({ ...range, start: dragStart(Number(event.target.value), range) })}
          className={HANDLE}
        />
        <input
          type="range"
          aria-label="Clip end"
          aria-valuetext={formatTimecode(range.end)}
          min={0}
          max={max}
          step={0.1}
          value={range.end}
          disabled={disabled}
          onChange={(event) => onChange({ ...range, end: dragEnd(Number(event.target.value), range, duration) })}
          className={HANDLE}
        />
      </div>
      <div className="mt-1 flex justify-between text-xs font-medium tabular-nums text-slate-600" aria-hidden="true">
        <span>00:00</span>
        <span>{formatTimecode(duration)}</span>
      </div>
    </div>
  );
}
