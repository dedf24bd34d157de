import { useState } from "react";
import { downscaleSteps } from "../../../../app/domain/picture-compare";

/** The panel's frame grabs are this wide (the companion's thumbnails are compared with them). */
const GRAB_WIDTH = 160;
const GRAB_KEPT = 12;

/**
 * The last few frames the browser presented while paused, by frame number: a handle set on one of them has the
 * browser's own picture beside the companion's.
 */
export function useFrameGrabs(fps: number | null) {
  const [grabs, setGrabs] = useState<ReadonlyMap<number, string>>(new Map());
  const grab = (frame: number, video: HTMLVideoElement) => {
    if (!fps || grabs.has(frame) || !video.videoWidth) return;
    try {
      // Drawn down by halves (each draw averages 2 x 2 pixels), so fine patterns keep their grey instead of aliasing:
      // the grab is compared with the companion's filtered thumbnail (picture-compare.ts).
      let picture: CanvasImageSource = video;
      let canvas: HTMLCanvasElement | null = null;
      for (const step of downscaleSteps({ width: video.videoWidth, height: video.videoHeight }, GRAB_WIDTH)) {
        const next = document.createElement("canvas");
        next.width = step.width;
        next.height = step.height;
        next.getContext("2d")?.drawImage(picture, 0, 0, step.width, step.height);
        picture = canvas = next;
      }
      if (!canvas) return;
      const url = canvas.toDataURL("image/jpeg", 0.85);
      setGrabs((g) => new Map([...g].slice(1 - GRAB_KEPT)).set(frame, url));
    } catch {
      // A protected or cross-origin video cannot be read: the panel then shows the companion's frames alone.
    }
  };
  return { grabs, grab };
}
