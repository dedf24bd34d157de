import { dragEnd, dragStart } from "../../../../app/domain/clip-range";
import { frameKeyHandler } from "./frame-controls";
import type { ClipRangeState } from "./use-clip-range";

/** The panel's frame keys: step a frame or a second, and set the first or last frame to the one on screen. */
export function useFrameKeys({ page, setRange }: Pick<ClipRangeState, "page" | "setRange">) {
  const { video, state, step } = page;
  return frameKeyHandler({
    step,
    setFirst: () => video && setRange((r) => ({ ...r, start: dragStart(video.currentTime, r) })),
    setLast: () => video && setRange((r) => ({ ...r, end: dragEnd(video.currentTime, r, state.duration) })),
  });
}
