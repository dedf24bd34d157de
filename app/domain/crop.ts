import { z } from "zod";
import { QUALITIES, qualityHeight, type Quality } from "./media";

/**
 * The crop rule, once: the panel draws its box with it, the companion cuts with it, the site and the API check it.
 *
 * A crop keeps one aspect and as much of the picture as that aspect allows: the full height of the source, or the
 * full width when the source is narrower than the aspect needs. The box then slides along the one free axis; its
 * place is kept as a fraction of the free room (0 = left or top edge, 1 = right or bottom edge), so a preset or the
 * /clip page can say "centre" without knowing the video's size. Every size and coordinate is an even number of
 * source pixels (4:2:0 video has one colour sample per 2 × 2 pixels: an odd edge cannot be encoded).
 */

export const ASPECTS = ["original", "9:16", "1:1", "4:5"] as const;
export type Aspect = (typeof ASPECTS)[number];
/** The aspects that crop (every one but Original). */
export const CROP_ASPECTS = ["9:16", "1:1", "4:5"] as const;
export type CropAspect = (typeof CROP_ASPECTS)[number];

export const ASPECT_LABELS: Record<Aspect, string> = {
  original: "Original",
  "9:16": "9:16 (Shorts, Reels, TikTok)",
  "1:1": "1:1 (square)",
  "4:5": "4:5 (portrait)",
};

/** Width : height of each cropping aspect. */
export const ASPECT_RATIO: Record<CropAspect, readonly [width: number, height: number]> = {
  "9:16": [9, 16],
  "1:1": [1, 1],
  "4:5": [4, 5],
};

export const isCropAspect = (aspect: Aspect): aspect is CropAspect => aspect !== "original";

/** Where a crop sits when nothing says otherwise: the centre. */
export const DEFAULT_CROP_POSITION = 0.5;

/**
 * How far an even box may be from the exact aspect, in pixels of its derived side: rounding that side to an even
 * number moves it by up to 1, and keeping it inside an odd-sized source by up to 1 more.
 */
export const ASPECT_TOLERANCE_PX = 2;

export interface FrameSize {
  width: number;
  height: number;
}
export interface CropBox extends FrameSize {
  x: number;
  y: number;
}

/** The largest even number not above n. */
const evenFloor = (n: number) => 2 * Math.floor(n / 2);
/** The nearest even number (halves up). */
const evenRound = (n: number) => 2 * Math.round(n / 2);

/** The largest even source the picture holds: an odd last row or column is never part of a crop. */
function usableFrame(source: FrameSize): FrameSize {
  return { width: evenFloor(source.width), height: evenFloor(source.height) };
}

/**
 * The crop box's size for a source and an aspect: full height (or full width when the source is narrower than the
 * aspect), the other side from the ratio, both even and inside the frame. Null for Original or a source too small
 * to hold a 2 × 2 box.
 */
export function cropBoxSize(source: FrameSize, aspect: Aspect): FrameSize | null {
  if (!isCropAspect(aspect)) return null;
  const frame = usableFrame(source);
  if (frame.width < 2 || frame.height < 2) return null;
  const [rw, rh] = ASPECT_RATIO[aspect];
  // Compare in integers: is the source at least as wide as the aspect needs at its full height?
  if (source.width * rh >= source.height * rw) {
    const width = Math.max(2, Math.min(frame.width, evenRound((frame.height * rw) / rh)));
    return { width, height: frame.height };
  }
  const height = Math.max(2, Math.min(frame.height, evenRound((frame.width * rh) / rw)));
  return { width: frame.width, height };
}

/** Clamp a position to [0, 1]; anything not a number is the centre. */
function clampPosition(position: number): number {
  if (!Number.isFinite(position)) return DEFAULT_CROP_POSITION;
  return Math.min(1, Math.max(0, position));
}

/** Even free room along each axis: how far the box's corner may move and stay inside the frame. */
function freeRoom(source: FrameSize, box: FrameSize): FrameSize {
  return {
    width: evenFloor(Math.max(0, source.width - box.width)),
    height: evenFloor(Math.max(0, source.height - box.height)),
  };
}

/**
 * The box in source pixels for a position (a fraction of the free room along the free axis). Even, inside the
 * frame; position 1 puts the box's edge on the frame's last even column (or row).
 */
export function cropAt(source: FrameSize, aspect: Aspect, position: number = DEFAULT_CROP_POSITION): CropBox | null {
  const size = cropBoxSize(source, aspect);
  if (!size) return null;
  const free = freeRoom(source, size);
  const p = clampPosition(position);
  return {
    x: Math.min(free.width, evenRound(p * free.width)),
    y: Math.min(free.height, evenRound(p * free.height)),
    ...size,
  };
}

/**
 * The position a box stands at: its corner as a fraction of the free room along the axis that has room (the
 * centre when the box fills the frame, where every position is the same box). cropAt(…, positionOf(box)) === box.
 */
export function positionOf(source: FrameSize, box: CropBox): number {
  const free = freeRoom(source, box);
  if (free.width > 0) return clampPosition(box.x / free.width);
  if (free.height > 0) return clampPosition(box.y / free.height);
  return DEFAULT_CROP_POSITION;
}

/**
 * The picture the clip holds after the crop and the scale: its short side is the quality's height (a 1080 × 1920
 * clip is a 1080p clip), the long side follows, even. Without a scale it is the box (or the source) itself.
 */
export function outputSize(picture: FrameSize, scaleTo: Quality | null): FrameSize {
  if (!scaleTo) return { width: picture.width, height: picture.height };
  const short = qualityHeight(scaleTo);
  if (picture.width < picture.height) {
    return { width: short, height: Math.max(2, evenRound((picture.height * short) / picture.width)) };
  }
  return { width: Math.max(2, evenRound((picture.width * short) / picture.height)), height: short };
}

/**
 * The size that prices and caps a picture (the cost rule's "quality"): its short side, so a landscape clip is
 * priced by its height, as always, and a portrait one by its width.
 */
export const pricingSide = (picture: FrameSize) => Math.min(picture.width, picture.height);

/** The quality label of a picture: the largest not above its short side (144p for anything smaller). */
export function qualityOfPicture(picture: FrameSize): Quality {
  const side = pricingSide(picture);
  const fits = QUALITIES.filter((q) => qualityHeight(q) <= side);
  return fits[fits.length - 1] ?? QUALITIES[0];
}

/**
 * The side that prices a clip's picture before any scale (clipTerms' "source height"): the crop box's short side
 * when the clip is cropped, else the source's short side; null without a picture. The crop's own frame may differ
 * from the file the companion reads (a preview at another size): the box is taken on the file's frame by aspect.
 * Without the file's width, a cropped clip is priced as the full-height box (the largest it can be).
 */
export function clipPictureSide(o: {
  aspect?: Aspect | null;
  crop?: Crop | null;
  sourceWidth?: number | null;
  sourceHeight: number | null;
}): number | null {
  if (o.sourceHeight === null) return null;
  const aspect = o.crop?.aspect ?? o.aspect ?? "original";
  const width =
    o.sourceWidth ?? (o.crop ? Math.round((o.crop.sourceWidth * o.sourceHeight) / o.crop.sourceHeight) : null);
  if (!isCropAspect(aspect)) return width === null ? o.sourceHeight : Math.min(width, o.sourceHeight);
  const [rw, rh] = ASPECT_RATIO[aspect];
  const frame = { width: width ?? Math.ceil((o.sourceHeight * rw) / rh), height: o.sourceHeight };
  const box = cropBoxSize(frame, aspect);
  return box ? pricingSide(box) : pricingSide(frame);
}

export const CROP_OUTSIDE_FRAME = "The crop must lie inside the video's frame.";
export const CROP_ODD_SIZE = "The crop's position and size must be even numbers of pixels.";
export const CROP_ASPECT_MISMATCH = "The crop's width and height do not match its aspect.";
export const CROP_NOT_FULL =
  "The crop must keep the full height of the video (or its full width when the video is narrower).";

const pixels = z.number().int("Crop coordinates are whole pixels.").min(0, "Crop coordinates must not be negative.");
const side = z.number().int("Crop sizes are whole pixels.").min(2, "The crop is too small.").max(16_384);

/**
 * A crop in source pixels, with the frame it was measured on (a preview may show the video at another size than the
 * file the companion reads: the frame lets it scale the box, and lets every boundary check it).
 */
export const cropSchema = z
  .object({
    aspect: z.enum(CROP_ASPECTS),
    x: pixels,
    y: pixels,
    width: side,
    height: side,
    sourceWidth: side,
    sourceHeight: side,
  })
  .strict()
  .superRefine((c, ctx) => {
    const issue = (message: string, path: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: [path] });
    if ([c.x, c.y, c.width, c.height].some((n) => n % 2 !== 0)) return issue(CROP_ODD_SIZE, "width");
    if (c.x + c.width > c.sourceWidth || c.y + c.height > c.sourceHeight) return issue(CROP_OUTSIDE_FRAME, "x");
    const [rw, rh] = ASPECT_RATIO[c.aspect];
    const widthOff = Math.abs(c.width - (c.height * rw) / rh);
    const heightOff = Math.abs(c.height - (c.width * rh) / rw);
    if (widthOff > ASPECT_TOLERANCE_PX && heightOff > ASPECT_TOLERANCE_PX) return issue(CROP_ASPECT_MISMATCH, "aspect");
    // The box of the rule, nothing smaller: what the panel shows is what the rule cuts.
    const size = cropBoxSize({ width: c.sourceWidth, height: c.sourceHeight }, c.aspect);
    if (!size || size.width !== c.width || size.height !== c.height) return issue(CROP_NOT_FULL, "width");
  });
export type Crop = z.infer<typeof cropSchema>;

/** A crop position: a fraction of the free room, 0 to 1. */
export const cropPositionSchema = z
  .number()
  .finite()
  .min(0, "The crop position is a fraction from 0 (left edge) to 1 (right edge).")
  .max(1, "The crop position is a fraction from 0 (left edge) to 1 (right edge).");

/** Build the crop a panel sends for a source, an aspect and a position (null for Original). */
export function cropFor(source: FrameSize, aspect: Aspect, position: number = DEFAULT_CROP_POSITION): Crop | null {
  if (!isCropAspect(aspect)) return null;
  const box = cropAt(source, aspect, position);
  if (!box) return null;
  return { aspect, ...box, sourceWidth: source.width, sourceHeight: source.height };
}

/**
 * The box a clip is cut with, on the frame of the file the companion reads: the sent crop when it was measured on
 * that frame; the same position on it when it was measured on another (a preview at another size); a position
 * alone (or the centre) otherwise. Null for Original.
 */
export function cropOnFrame(
  frame: FrameSize,
  o: { aspect?: Aspect | null; crop?: Crop | null; cropPosition?: number | null },
): CropBox | null {
  const aspect = o.crop?.aspect ?? o.aspect ?? "original";
  if (!isCropAspect(aspect)) return null;
  const c = o.crop;
  if (c && c.sourceWidth === frame.width && c.sourceHeight === frame.height)
    return { x: c.x, y: c.y, width: c.width, height: c.height };
  const position = c ? positionOf({ width: c.sourceWidth, height: c.sourceHeight }, c) : o.cropPosition;
  return cropAt(frame, aspect, position ?? DEFAULT_CROP_POSITION);
}

/** Words for a list or a report: "9:16, centre", "1:1, left", "4:5, 30 %". */
export function describeCrop(aspect: Aspect, position: number | null | undefined): string {
  if (!isCropAspect(aspect)) return ASPECT_LABELS.original;
  const p = position ?? DEFAULT_CROP_POSITION;
  const where = p === 0 ? "left" : p === 1 ? "right" : p === 0.5 ? "centre" : `${Math.round(p * 100)} %`;
  return `${aspect}, ${where}`;
}
