import { describe, expect, it } from "vitest";
import {
  clipPictureSide,
  cropOnFrame,
  CROP_ASPECT_MISMATCH,
  CROP_NOT_FULL,
  CROP_ODD_SIZE,
  CROP_OUTSIDE_FRAME,
  cropAt,
  cropBoxSize,
  cropFor,
  cropSchema,
  describeCrop,
  outputSize,
  positionOf,
  qualityOfPicture,
} from "./crop";

const hd = { width: 1920, height: 1080 };

describe("crop box size", () => {
  it("keeps the full height of a landscape source, width from the ratio rounded to an even number", () => {
    // 1080 × 9 / 16 = 607.5: the nearest even is 608, not 606 (floor) or 607 (odd).
    expect(cropBoxSize(hd, "9:16")).toEqual({ width: 608, height: 1080 });
    expect(cropBoxSize(hd, "1:1")).toEqual({ width: 1080, height: 1080 });
    expect(cropBoxSize(hd, "4:5")).toEqual({ width: 864, height: 1080 });
    // 720 × 9 / 16 = 405 (odd): 406.
    expect(cropBoxSize({ width: 1280, height: 720 }, "9:16")).toEqual({ width: 406, height: 720 });
  });

  it("keeps the full width when the source is narrower than the aspect", () => {
    expect(cropBoxSize({ width: 1080, height: 1920 }, "1:1")).toEqual({ width: 1080, height: 1080 });
    expect(cropBoxSize({ width: 1080, height: 1920 }, "4:5")).toEqual({ width: 1080, height: 1350 });
    // A portrait source exactly 9:16 is its own crop.
    expect(cropBoxSize({ width: 1080, height: 1920 }, "9:16")).toEqual({ width: 1080, height: 1920 });
    // Narrower still than 9:16: full width, height from the ratio (720 × 16 / 9 = 1280).
    expect(cropBoxSize({ width: 720, height: 1600 }, "9:16")).toEqual({ width: 720, height: 1280 });
  });

  it("never uses an odd last row or column and never leaves the frame", () => {
    // 719 rows: the box is 718 tall; 718 × 9 / 16 = 403.875 → 404.
    expect(cropBoxSize({ width: 1279, height: 719 }, "9:16")).toEqual({ width: 404, height: 718 });
    // A source barely wider than square: 1081 × 1080 → 1080 × 1080, not 1082.
    expect(cropBoxSize({ width: 1081, height: 1080 }, "1:1")).toEqual({ width: 1080, height: 1080 });
    // 607 wide at 1080 tall is narrower than 9:16 (607.5): full width 606, height 606 × 16 / 9 = 1077.3 → 1078.
    expect(cropBoxSize({ width: 607, height: 1080 }, "9:16")).toEqual({ width: 606, height: 1078 });
  });

  it("has no box for Original or a source too small", () => {
    expect(cropBoxSize(hd, "original")).toBeNull();
    expect(cropBoxSize({ width: 1, height: 1080 }, "9:16")).toBeNull();
  });
});

describe("crop position", () => {
  it("places the box at the left edge, the centre and the right edge, even and inside the frame", () => {
    expect(cropAt(hd, "9:16", 0)).toEqual({ x: 0, y: 0, width: 608, height: 1080 });
    // Free room 1312: the centre is 656.
    expect(cropAt(hd, "9:16", 0.5)).toEqual({ x: 656, y: 0, width: 608, height: 1080 });
    expect(cropAt(hd, "9:16", 1)).toEqual({ x: 1312, y: 0, width: 608, height: 1080 });
    // Free room 1280 − 406 = 874: the centre 437 is odd → 438.
    expect(cropAt({ width: 1280, height: 720 }, "9:16", 0.5)).toEqual({ x: 438, y: 0, width: 406, height: 720 });
  });

  it("keeps the right edge inside an odd-width frame", () => {
    // 1279 − 404 = 875 free columns: the last even corner is 874, and 874 + 404 = 1278 ≤ 1279.
    const box = cropAt({ width: 1279, height: 719 }, "9:16", 1);
    expect(box).toEqual({ x: 874, y: 0, width: 404, height: 718 });
  });

  it("moves along the height for a source narrower than the aspect", () => {
    const tall = { width: 1080, height: 1920 };
    expect(cropAt(tall, "1:1", 0)).toEqual({ x: 0, y: 0, width: 1080, height: 1080 });
    expect(cropAt(tall, "1:1", 1)).toEqual({ x: 0, y: 840, width: 1080, height: 1080 });
    expect(cropAt(tall, "4:5", 0.5)).toEqual({ x: 0, y: 286, width: 1080, height: 1350 });
  });

  it("clamps a position outside 0..1 and reads a box back to its position", () => {
    expect(cropAt(hd, "1:1", -3)?.x).toBe(0);
    expect(cropAt(hd, "1:1", 7)?.x).toBe(840);
    expect(cropAt(hd, "1:1", Number.NaN)?.x).toBe(420);
    for (const p of [0, 0.25, 0.5, 1]) {
      const box = cropAt(hd, "4:5", p)!;
      expect(cropAt(hd, "4:5", positionOf(hd, box))).toEqual(box);
    }
    expect(positionOf(hd, cropAt(hd, "9:16", 1)!)).toBe(1);
    // A box that fills the frame has one place: the centre.
    expect(positionOf({ width: 1080, height: 1920 }, cropAt({ width: 1080, height: 1920 }, "9:16", 0)!)).toBe(0.5);
  });
});

describe("crop schema", () => {
  const good = cropFor(hd, "9:16", 1)!;
  const message = (value: unknown) => {
    const parsed = cropSchema.safeParse(value);
    return parsed.success ? null : parsed.error.issues[0]?.message;
  };

  it("accepts what the rule builds, at every aspect and edge", () => {
    for (const aspect of ["9:16", "1:1", "4:5"] as const)
      for (const p of [0, 0.5, 1])
        for (const source of [hd, { width: 1279, height: 719 }, { width: 1080, height: 1920 }])
          expect(message(cropFor(source, aspect, p))).toBeNull();
  });

  it("refuses a box outside the frame", () => {
    expect(message({ ...good, x: good.x + 2 })).toBe(CROP_OUTSIDE_FRAME);
    expect(message({ ...good, y: 2 })).toBe(CROP_OUTSIDE_FRAME);
  });

  it("refuses odd positions and sizes", () => {
    expect(message({ ...good, x: 1 })).toBe(CROP_ODD_SIZE);
    expect(message({ ...good, width: 607 })).toBe(CROP_ODD_SIZE);
  });

  it("refuses a box that does not match its aspect, within the even-number tolerance", () => {
    expect(message({ ...good, aspect: "1:1" })).toBe(CROP_ASPECT_MISMATCH);
    expect(message({ ...good, x: 0, width: 700 })).toBe(CROP_ASPECT_MISMATCH);
    // 606 is 1.5 px off 607.5: the aspect holds, but it is not the rule's box (608).
    expect(message({ ...good, x: 0, width: 606 })).toBe(CROP_NOT_FULL);
    // A smaller box of the right aspect is not the rule's either.
    expect(message({ ...good, x: 0, width: 540, height: 960 })).toBe(CROP_NOT_FULL);
  });

  it("refuses other fields and non-integers", () => {
    expect(message({ ...good, extra: 1 })).not.toBeNull();
    expect(message({ ...good, x: 2.5 })).not.toBeNull();
    expect(message({ ...good, aspect: "original" })).not.toBeNull();
  });
});

describe("output size and its price", () => {
  it("scales the short side to the quality", () => {
    expect(outputSize({ width: 608, height: 1080 }, null)).toEqual({ width: 608, height: 1080 });
    expect(outputSize({ width: 608, height: 1080 }, "480p")).toEqual({ width: 480, height: 852 });
    expect(outputSize({ width: 1920, height: 1080 }, "720p")).toEqual({ width: 1280, height: 720 });
  });

  it("names a picture by its short side: 1080 × 1920 is 1080p", () => {
    expect(qualityOfPicture({ width: 1080, height: 1920 })).toBe("1080p");
    expect(qualityOfPicture({ width: 1920, height: 1080 })).toBe("1080p");
    expect(qualityOfPicture({ width: 608, height: 1080 })).toBe("480p");
    expect(qualityOfPicture({ width: 100, height: 100 })).toBe("144p");
  });

  it("describes a crop for people", () => {
    expect(describeCrop("original", null)).toBe("Original");
    expect(describeCrop("9:16", null)).toBe("9:16, centre");
    expect(describeCrop("1:1", 0)).toBe("1:1, left");
    expect(describeCrop("4:5", 0.3)).toBe("4:5, 30 %");
  });
});

describe("the side that prices a clip", () => {
  it("is the source's short side without a crop, as the height always was for landscape", () => {
    expect(clipPictureSide({ sourceHeight: 1080 })).toBe(1080);
    expect(clipPictureSide({ sourceWidth: 1920, sourceHeight: 1080 })).toBe(1080);
    expect(clipPictureSide({ sourceWidth: 1080, sourceHeight: 1920 })).toBe(1080);
    expect(clipPictureSide({ sourceHeight: null, aspect: "9:16" })).toBeNull();
  });

  it("is the crop box's short side with a crop", () => {
    expect(clipPictureSide({ sourceWidth: 1920, sourceHeight: 1080, aspect: "9:16" })).toBe(608);
    expect(clipPictureSide({ sourceWidth: 1920, sourceHeight: 1080, aspect: "1:1" })).toBe(1080);
    // A portrait source cropped to 9:16 stays 1080 × 1920: 1080p.
    expect(clipPictureSide({ sourceWidth: 1080, sourceHeight: 1920, aspect: "9:16" })).toBe(1080);
    // The crop measured on a 720p preview, the file read at 1080p: the box is taken on the file.
    const crop = cropFor({ width: 1280, height: 720 }, "9:16", 0)!;
    expect(clipPictureSide({ crop, sourceHeight: 1080 })).toBe(608);
    // No width known: the full-height box.
    expect(clipPictureSide({ aspect: "4:5", sourceHeight: 1080 })).toBe(864);
  });
});

describe("the box on the file's frame", () => {
  const hd = { width: 1920, height: 1080 };
  it("is the sent crop when it was measured on the file's frame", () => {
    const crop = cropFor(hd, "9:16", 0.25)!;
    expect(cropOnFrame(hd, { aspect: "9:16", crop })).toEqual({ x: crop.x, y: crop.y, width: 608, height: 1080 });
  });

  it("keeps the position when the crop was measured on another frame", () => {
    const crop = cropFor({ width: 1280, height: 720 }, "9:16", 1)!;
    expect(cropOnFrame(hd, { aspect: "9:16", crop })).toEqual({ x: 1312, y: 0, width: 608, height: 1080 });
  });

  it("places a position alone, the centre without one, nothing for Original", () => {
    expect(cropOnFrame(hd, { aspect: "1:1", cropPosition: 0 })).toEqual({ x: 0, y: 0, width: 1080, height: 1080 });
    expect(cropOnFrame(hd, { aspect: "1:1" })).toEqual({ x: 420, y: 0, width: 1080, height: 1080 });
    expect(cropOnFrame(hd, { aspect: "original" })).toBeNull();
    expect(cropOnFrame(hd, {})).toBeNull();
  });
});
