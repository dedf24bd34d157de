/** Start/end rules of the cutter: 0 ≤ start < end ≤ duration, with a minimum gap while dragging. */
export const MIN_GAP_SECONDS = 0.1;

export interface ClipRange {
  start: number;
  end: number;
}

/** A typed start time: accepted only when 0 ≤ value < end. */
export function acceptStart(value: number, range: ClipRange): boolean {
  return Number.isFinite(value) && value >= 0 && value < range.end;
}

/** A typed end time: accepted only when start < value ≤ duration. */
export function acceptEnd(value: number, range: ClipRange, duration: number): boolean {
  return Number.isFinite(value) && value > range.start && value <= duration;
}

/** The start handle while dragging: kept within [0, end − gap]. */
export function dragStart(value: number, range: ClipRange): number {
  return Math.min(Math.max(0, value), Math.max(0, range.end - MIN_GAP_SECONDS));
}

/** The end handle while dragging: kept within [start + gap, duration]. */
export function dragEnd(value: number, range: ClipRange, duration: number): number {
  return Math.max(Math.min(duration, value), Math.min(duration, range.start + MIN_GAP_SECONDS));
}

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The whole selection dragged by `delta` seconds: its length is kept and it stays within [0, duration]. */
export function moveRange(range: ClipRange, delta: number, duration: number): ClipRange {
  const length = range.end - range.start;
  const start = clamp(range.start + delta, 0, Math.max(0, duration - length));
  return { start, end: start + length };
}
