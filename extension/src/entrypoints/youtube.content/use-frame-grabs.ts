import { useState } from "react";

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
    const canvas = document.createElement("canvas");
    canvas.width = GRAB_WIDTH;
    canvas.height = Math.round((GRAB_WIDTH * video.videoHeight) / video.videoWidth);
    try {
      canvas.getContext("2d")?.drawImage(video, 0, 0, canvas.width, canvas.height);
      const url = canvas.toDataURL("image/jpeg", 0.85);
      setGrabs((g) => new Map([...g].slice(1 - GRAB_KEPT)).set(frame, url));
    } catch {
      // A protected or cross-origin video cannot be read: the panel then shows the companion's frames alone.
    }
  };
  return { grabs, grab };
}
