import { BAND_BITS, BAND_HEIGHT, BAND_WIDTH } from "../../../extension/companion/test/frame-band";

/**
 * Scripts that read the frame number out of the pixel band (extension/companion/test/frame-band.ts) inside the
 * page, for Playwright and puppeteer alike. Plain source strings: nothing a bundler adds to a function can break them.
 */
const CELL = Math.floor(BAND_WIDTH / BAND_BITS);
const read = `(source) => {
  const canvas = document.createElement("canvas");
  canvas.width = ${BAND_WIDTH};
  canvas.height = ${BAND_HEIGHT};
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.drawImage(source, 0, 0, ${BAND_WIDTH}, ${BAND_HEIGHT});
  const row = context.getImageData(0, 16, ${BAND_WIDTH}, 1).data;
  let n = 0;
  for (let b = 0; b < ${BAND_BITS}; b++) if (row[Math.floor(b * ${CELL} + ${CELL} / 2) * 4] > 128) n |= 1 << b;
  return n;
}`;

/** The frame the page's <video> shows now. */
export const VIDEO_FRAME = `(${read})(document.querySelector("video"))`;

/** The frame a picture (a data: URL) shows. */
export const imageFrame = (src: string) =>
  `(async () => { const image = new Image(); image.src = ${JSON.stringify(src)}; await image.decode(); return (${read})(image); })()`;

/**
 * Plays the page's video and collects the frame of every presented frame (requestVideoFrameCallback) until `enough`
 * frames were presented or `maxMs` passed, then pauses: the frames the loop preview really showed. A count, not a
 * duration: a loaded 2-core machine presents a fraction of the frames per second (30 in 8 s once, where an idle one
 * presents 240).
 */
export const playAndSample = (fps: number, enough: number, maxMs: number) => `new Promise((resolve) => {
  const video = document.querySelector("video");
  const seen = [];
  let done = false;
  const finish = () => { if (done) return; done = true; video.pause(); resolve(seen); };
  const onFrame = (_now, meta) => {
    if (!video.paused) seen.push(Math.floor(meta.mediaTime * ${fps} + 1e-3));
    if (seen.length >= ${enough}) finish();
    if (!done) video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
  setTimeout(finish, ${maxMs});
})`;

/**
 * Presses `.` in the panel `n` times, the first at once and each next one the moment the frame asked for before is
 * presented (a frame callback registered after the panel's own): the moment a key lands on a loaded machine, when
 * the panel has seen the frame but not rendered it yet. Resolves once the last press is sent.
 */
export const pressOnEachFrame = (n: number) => `new Promise((resolve) => {
  const video = document.querySelector("video");
  const panel = document.querySelector("clipcut-panel").shadowRoot.querySelector("#clipcut-panel");
  const press = () => panel.dispatchEvent(new KeyboardEvent("keydown", { key: ".", code: "Period", bubbles: true, composed: true, cancelable: true }));
  let left = ${n};
  const onFrame = () => {
    press();
    if (--left > 0) video.requestVideoFrameCallback(onFrame);
    else resolve(null);
  };
  press();
  if (--left > 0) video.requestVideoFrameCallback(onFrame);
  else resolve(null);
})`;
