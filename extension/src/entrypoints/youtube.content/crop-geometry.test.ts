import { describe, expect, it } from "vitest";
import { cropFor } from "../../../../app/domain/crop";
import { boxOnScreen, pictureRect, positionAfterDrag, positionAfterKey, positionText } from "./crop-geometry";

const source = { width: 640, height: 360 };

describe("the crop box over the page's video", () => {
  it("finds the picture inside a letterboxed element (contain), a filled one and a covered one", () => {
    // A 16:9 picture in a 4:3 element: bars above and below.
    expect(pictureRect({ left: 10, top: 20, width: 800, height: 600 }, source, "contain")).toEqual({
      left: 10,
      top: 20 + (600 - 450) / 2,
      width: 800,
      height: 450,
    });
    // A 16:9 picture in a tall element: bars at the sides.
    expect(pictureRect({ left: 0, top: 0, width: 320, height: 360 }, source, "contain")).toEqual({
      left: 0,
      top: 90,
      width: 320,
      height: 180,
    });
    const element = { left: 0, top: 0, width: 400, height: 400 };
    expect(pictureRect(element, source, "fill")).toEqual(element);
    expect(pictureRect(element, source, "cover")).toEqual({
      left: (400 - (640 * 400) / 360) / 2,
      top: 0,
      width: (640 * 400) / 360,
      height: 400,
    });
    expect(pictureRect(element, source, "none")).toEqual({ left: -120, top: 20, width: 640, height: 360 });
  });

  it("draws the rule's box, and the box it draws is the crop the panel sends", () => {
    const picture = pictureRect({ left: 0, top: 0, width: 1280, height: 960 }, source, "contain");
    for (const position of [0, 0.5, 1]) {
      const drawn = boxOnScreen(picture, source, "9:16", position)!;
      const sent = cropFor(source, "9:16", position)!;
      expect(drawn.box).toEqual({ x: sent.x, y: sent.y, width: sent.width, height: sent.height });
      // Twice the source's size on screen, below a 120 px bar.
      expect(drawn.screen).toEqual({ left: sent.x * 2, top: 120, width: sent.width * 2, height: 720 });
    }
    expect(boxOnScreen(picture, source, "original", 0.5)).toBeNull();
  });

  it("turns a drag in screen pixels into a position, clamped to the edges", () => {
    const picture = { left: 0, top: 0, width: 1280, height: 720 };
    const box = cropFor(source, "9:16", 0)!; // 202 wide: 438 free
    expect(positionAfterDrag(picture, source, box, 0, 438, 0)).toBeCloseTo(0.5);
    expect(positionAfterDrag(picture, source, box, 0.5, -5000, 0)).toBe(0);
    expect(positionAfterDrag(picture, source, box, 0.5, 5000, 0)).toBe(1);
    // A source narrower than the aspect: the box moves down, not across.
    const tall = { width: 360, height: 640 };
    const square = cropFor(tall, "1:1", 0)!;
    expect(positionAfterDrag({ left: 0, top: 0, width: 360, height: 640 }, tall, square, 0, 500, 140)).toBeCloseTo(0.5);
  });

  it("moves by keys in whole percents: ten steps from an edge are exactly the centre", () => {
    let p = 0;
    for (let i = 0; i < 10; i++) p = positionAfterKey("ArrowRight", p, false)!;
    expect(p).toBe(0.5);
    expect(positionAfterKey("ArrowLeft", 0.02, false)).toBe(0);
    expect(positionAfterKey("ArrowRight", 0.5, true)).toBe(0.51);
    expect(positionAfterKey("End", 0.3, false)).toBe(1);
    expect(positionAfterKey("Home", 0.3, false)).toBe(0);
    expect(positionAfterKey("Period", 0.3, false)).toBeNull();
  });

  it("says where the box is in words", () => {
    expect(positionText(0)).toBe("left edge");
    expect(positionText(0.5)).toBe("centre");
    expect(positionText(1)).toBe("right edge");
    expect(positionText(0.4)).toBe("40% across");
    expect(positionText(0, "y")).toBe("top edge");
    expect(positionText(0.5, null)).toBe("fills the frame");
  });
});
