import { cropAt, type Aspect, type CropBox, type FrameSize } from "../../../../app/domain/crop";

/**
 * The crop box on screen: where the page's <video> draws its picture inside its element (object-fit letterboxes it),
 * the box of the crop rule (app/domain/crop) mapped from source pixels onto that picture, and back from a drag or a
 * key to a position. The rule itself (the box's size, even pixels, the position as a fraction) is never computed here.
 */

export interface ScreenRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The CSS object-fit values a <video> can have (anything else is the default, contain). */
export type ObjectFit = "contain" | "cover" | "fill" | "none" | "scale-down";

/**
 * The rectangle the video's picture fills inside its element, for its object-fit, centred as object-position's
 * default places it (YouTube's player and a plain <video> both use contain: bars above and below or at the sides).
 * It may reach past the element with cover; the part outside is not drawn.
 */
export function pictureRect(element: ScreenRect, source: FrameSize, fit: string): ScreenRect {
  if (source.width <= 0 || source.height <= 0) return element;
  if (fit === "fill") return element;
  const fitScale = (fit === "cover" ? Math.max : Math.min)(
    element.width / source.width,
    element.height / source.height,
  );
  const scale = fit === "none" ? 1 : fit === "scale-down" ? Math.min(1, fitScale) : fitScale;
  const width = source.width * scale;
  const height = source.height * scale;
  return {
    left: element.left + (element.width - width) / 2,
    top: element.top + (element.height - height) / 2,
    width,
    height,
  };
}

/** The crop box in source pixels (the rule's) and where it is drawn over the picture. */
export function boxOnScreen(
  picture: ScreenRect,
  source: FrameSize,
  aspect: Aspect,
  position: number,
): { box: CropBox; screen: ScreenRect } | null {
  const box = cropAt(source, aspect, position);
  if (!box) return null;
  const sx = picture.width / source.width;
  const sy = picture.height / source.height;
  return {
    box,
    screen: {
      left: picture.left + box.x * sx,
      top: picture.top + box.y * sy,
      width: box.width * sx,
      height: box.height * sy,
    },
  };
}

/** Which way the box can move: along the width (a landscape source) or the height (a source narrower than the aspect). */
export function freeAxis(source: FrameSize, box: CropBox): "x" | "y" | null {
  if (source.width - box.width >= 2) return "x";
  if (source.height - box.height >= 2) return "y";
  return null;
}

/**
 * The position after dragging the box by (dx, dy) screen pixels from where it stood at `from`: the move in source
 * pixels as a fraction of the free room (clamped to 0–1; the rule rounds it to even pixels).
 */
export function positionAfterDrag(
  picture: ScreenRect,
  source: FrameSize,
  box: CropBox,
  from: number,
  dx: number,
  dy: number,
): number {
  const axis = freeAxis(source, box);
  if (!axis) return from;
  const free = axis === "x" ? source.width - box.width : source.height - box.height;
  const moved = axis === "x" ? (dx * source.width) / picture.width : (dy * source.height) / picture.height;
  return Math.min(1, Math.max(0, from + moved / free));
}

/** Arrow keys move the box by this share of the free room (with Shift, by 1 %); Home and End go to the edges. */
export const KEY_STEP_PERCENT = 5;

/**
 * The position after a key on the box, or null for a key it does not take. Positions move in whole percents, so the
 * centre is reached exactly (ten steps of 5 % from an edge is 0.5, not 0.5000000001).
 */
export function positionAfterKey(key: string, position: number, shift: boolean): number | null {
  const percent = Math.round(position * 100);
  const step = shift ? 1 : KEY_STEP_PERCENT;
  const to = (p: number) => Math.min(100, Math.max(0, p)) / 100;
  switch (key) {
    case "ArrowLeft":
    case "ArrowUp":
      return to(percent - step);
    case "ArrowRight":
    case "ArrowDown":
      return to(percent + step);
    case "PageUp":
      return to(percent - 25);
    case "PageDown":
      return to(percent + 25);
    case "Home":
      return 0;
    case "End":
      return 1;
    default:
      return null;
  }
}

/** The box's place in words, for a screen reader: "left edge", "centre", "right edge", "40% across" (or "down"). */
export function positionText(position: number, axis: "x" | "y" | null = "x"): string {
  const percent = Math.round(position * 100);
  if (axis === null) return "fills the frame";
  if (percent === 50) return "centre";
  if (percent === 0) return axis === "x" ? "left edge" : "top edge";
  if (percent === 100) return axis === "x" ? "right edge" : "bottom edge";
  return `${percent}% ${axis === "x" ? "across" : "down"}`;
}
