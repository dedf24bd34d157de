import type { KeyboardEvent } from "react";
import { formatFrame, formatPrecise, type FrameRange } from "../../../../app/domain/frames";

/**
 * The panel's keys while focus is inside it (YouTube's own keys work everywhere else): `,` `.` step a frame
 * (Shift: a second), `[` `]` set the first or last frame to the one on screen. Text fields and menus keep their keys.
 */
export function frameKeyHandler(o: {
  step: (delta: number, seconds: boolean) => void;
  setFirst: () => void;
  setLast: () => void;
}) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest("textarea, select, [contenteditable='true']")) return;
    if (target instanceof HTMLInputElement && target.type !== "checkbox" && target.type !== "range") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const code = event.nativeEvent.code;
    const key = event.key;
    if (key === "," || key === "<" || code === "Comma") o.step(-1, event.shiftKey);
    else if (key === "." || key === ">" || code === "Period") o.step(1, event.shiftKey);
    else if (key === "[" || code === "BracketLeft") o.setFirst();
    else if (key === "]" || code === "BracketRight") o.setLast();
    else return;
    event.preventDefault();
    // The panel lives in the page's DOM: YouTube's document listener would step or seek a second time.
    event.stopPropagation();
  };
}

/**
 * Step buttons, the frame on screen and both handles as `hh:mm:ss.mmm · frame N`. Without a frame rate the steps
 * are 0.1 s and no frame numbers are shown (a number on the wrong grid would be a false promise).
 */
export function FrameControls({
  fps,
  frames,
  range,
  position,
  frame,
  disabled,
  onStep,
}: {
  fps: number | null;
  frames: FrameRange | null;
  range: { start: number; end: number };
  position: number;
  frame: number | null;
  disabled: boolean;
  onStep: (delta: number, seconds: boolean) => void;
}) {
  const unit = fps ? "frame" : "tenth of a second";
  const stepButton = (delta: number, seconds: boolean, text: string, label: string) => (
    <button
      type="button"
      className="btn-secondary px-3 py-1.5 font-mono text-sm"
      disabled={disabled}
      aria-label={label}
      aria-keyshortcuts={seconds ? (delta < 0 ? "Shift+," : "Shift+.") : delta < 0 ? "," : "."}
      onClick={() => onStep(delta, seconds)}
    >
      {text}
    </button>
  );
  return (
    <div className="space-y-3 rounded-xl border border-slate-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        {stepButton(-1, true, "−1 s", "Back one second")}
        {stepButton(-1, false, fps ? "−1 frame" : "−0.1 s", `Back one ${unit}`)}
        {stepButton(1, false, fps ? "+1 frame" : "+0.1 s", `Forward one ${unit}`)}
        {stepButton(1, true, "+1 s", "Forward one second")}
        <p className="ml-auto text-sm text-slate-700">
          <span className="text-slate-600">On screen: </span>
          <output data-testid="clipcut-current-frame" className="font-mono tabular-nums">
            {fps && frame !== null ? formatFrame(frame, fps) : formatPrecise(position)}
          </output>
        </p>
      </div>
      <div className="grid gap-2 text-sm sm:grid-cols-2">
        <p>
          <span className="text-slate-600">{fps ? "First frame: " : "Start: "}</span>
          <output data-testid="clipcut-first-frame" className="font-mono tabular-nums">
            {fps && frames ? formatFrame(frames.first, fps) : formatPrecise(range.start)}
          </output>
        </p>
        <p>
          <span className="text-slate-600">{fps ? "Last frame: " : "End: "}</span>
          <output data-testid="clipcut-last-frame" className="font-mono tabular-nums">
            {fps && frames ? formatFrame(frames.last, fps) : formatPrecise(range.end)}
          </output>
        </p>
      </div>
      <p className="text-xs text-slate-600">
        Keys while the panel has focus: <kbd>,</kbd> <kbd>.</kbd> one {unit}, with <kbd>Shift</kbd> one second;{" "}
        <kbd>[</kbd> <kbd>]</kbd> set the {fps ? "first or last frame" : "start or end"}.
        {!fps && " Frame numbers appear once the companion has read the video's frame rate."}
      </p>
    </div>
  );
}
