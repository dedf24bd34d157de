import { useEffect, useRef, useState, type CSSProperties } from "react";
import type { CropAspect, FrameSize } from "../../../../app/domain/crop";
import {
  boxOnScreen,
  freeAxis,
  pictureRect,
  positionAfterDrag,
  positionAfterKey,
  positionText,
  type ScreenRect,
} from "./crop-geometry";

interface Placement {
  element: ScreenRect;
  picture: ScreenRect;
  source: FrameSize;
}

const same = (a: Placement | null, b: Placement | null) => JSON.stringify(a) === JSON.stringify(b);

/** Where the video element and its picture are on screen now (null before its size is known). */
function measure(video: HTMLVideoElement): Placement | null {
  if (!video.videoWidth || !video.videoHeight) return null;
  const r = video.getBoundingClientRect();
  const element = { left: r.left, top: r.top, width: r.width, height: r.height };
  const source = { width: video.videoWidth, height: video.videoHeight };
  return { element, source, picture: pictureRect(element, source, getComputedStyle(video).objectFit) };
}

/**
 * The crop box over the page's video: the aspect's box of the crop rule at `position`, the picture outside it
 * dimmed, the video playing on inside it. Dragged with the mouse, or moved with the arrow keys (Home and End for the
 * edges) as a slider. It follows the video wherever the page scrolls or resizes it. The page's video keeps its own
 * clicks: only the box takes the pointer.
 */
export function CropBox({
  video,
  aspect,
  position,
  onChange,
}: {
  video: HTMLVideoElement;
  aspect: CropAspect;
  position: number;
  onChange: (position: number) => void;
}) {
  const [placed, setPlaced] = useState<Placement | null>(() => measure(video));
  const drag = useRef<{ x: number; y: number; from: number } | null>(null);
  const [focused, setFocused] = useState(false);

  // Measured every animation frame: YouTube moves and resizes its player (theatre mode, the mini player) without
  // an event the page can hear.
  useEffect(() => {
    let raf = 0;
    let last: Placement | null = null;
    const tick = () => {
      const now = measure(video);
      if (!same(now, last)) {
        last = now;
        setPlaced(now);
      }
      raf = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(raf);
  }, [video]);

  if (!placed) return null;
  const drawn = boxOnScreen(placed.picture, placed.source, aspect, position);
  if (!drawn) return null;
  const { box, screen } = drawn;
  const axis = freeAxis(placed.source, box);
  const { element } = placed;

  const clip: CSSProperties = {
    position: "fixed",
    left: element.left,
    top: element.top,
    width: element.width,
    height: element.height,
    overflow: "hidden",
    pointerEvents: "none",
    zIndex: 2100,
  };
  const frame: CSSProperties = {
    position: "absolute",
    left: screen.left - element.left,
    top: screen.top - element.top,
    width: screen.width,
    height: screen.height,
    // The dimmed outside is the box's own shadow: nothing but the box covers the page's player.
    boxShadow: "0 0 0 100000px rgba(15, 23, 42, 0.6)",
    // Inline styles win over the page's focus ring: the box draws its own (amber and thicker when focused).
    outline: focused ? "4px solid #fbbf24" : "2px solid #fff",
    pointerEvents: axis ? "auto" : "none",
    cursor: axis === "x" ? "ew-resize" : axis === "y" ? "ns-resize" : "default",
    touchAction: "none",
  };

  return (
    <div style={clip} data-testid="clipcut-crop-overlay">
      <div
        role="slider"
        tabIndex={0}
        aria-label={`Crop box (${aspect})`}
        aria-orientation={axis === "y" ? "vertical" : "horizontal"}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(position * 100)}
        aria-valuetext={positionText(position, axis)}
        data-crop-x={box.x}
        data-crop-y={box.y}
        data-crop-width={box.width}
        data-crop-height={box.height}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        style={frame}
        onKeyDown={(e) => {
          const next = positionAfterKey(e.key, position, e.shiftKey);
          if (next === null) return;
          // The arrows belong to the box here, not to the panel's frame keys nor to the page's player.
          e.preventDefault();
          e.stopPropagation();
          onChange(next);
        }}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          e.currentTarget.focus();
          drag.current = { x: e.clientX, y: e.clientY, from: position };
          e.preventDefault();
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (!d) return;
          onChange(positionAfterDrag(placed.picture, placed.source, box, d.from, e.clientX - d.x, e.clientY - d.y));
        }}
        onPointerUp={() => {
          drag.current = null;
        }}
        onPointerCancel={() => {
          drag.current = null;
        }}
      />
    </div>
  );
}
