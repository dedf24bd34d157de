import { describe, expect, it } from "vitest";
import { acceptEnd, acceptStart, dragEnd, dragStart, moveRange, MIN_GAP_SECONDS } from "./clip-range";

describe("clip range rules", () => {
  it("keeps the handles apart by the minimum gap", () => {
    expect(dragStart(20, { start: 0, end: 10 })).toBeCloseTo(10 - MIN_GAP_SECONDS);
    expect(dragEnd(1, { start: 5, end: 10 }, 30)).toBeCloseTo(5 + MIN_GAP_SECONDS);
    expect(dragEnd(40, { start: 5, end: 10 }, 30)).toBe(30);
  });
  it("accepts typed times only inside the clip and the video", () => {
    expect(acceptStart(9, { start: 0, end: 10 })).toBe(true);
    expect(acceptStart(10, { start: 0, end: 10 })).toBe(false);
    expect(acceptEnd(30, { start: 0, end: 10 }, 30)).toBe(true);
    expect(acceptEnd(31, { start: 0, end: 10 }, 30)).toBe(false);
  });
  it("moves the whole range without changing its length or leaving the video", () => {
    expect(moveRange({ start: 10, end: 25 }, 5, 60)).toEqual({ start: 15, end: 30 });
    expect(moveRange({ start: 10, end: 25 }, -20, 60)).toEqual({ start: 0, end: 15 });
    expect(moveRange({ start: 10, end: 25 }, 100, 60)).toEqual({ start: 45, end: 60 });
  });
});
