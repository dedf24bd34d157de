import { describe, expect, it } from "vitest";
import { formatMinutesSeconds, formatTimecode, parseClockTime, parseTimecode } from "./time";

describe("parseTimecode", () => {
  it.each([
    ["0", 0],
    ["45", 45],
    ["90", 90],
    ["1:05", 65],
    ["01:05", 65],
    ["59:59", 3599],
    ["1:00:00", 3600],
    ["02:03:04", 7384],
    ["12.5", 12.5],
    ["1:02.25", 62.25],
    ["  1:30 ", 90],
  ])("reads %s as %s seconds", (input, expected) => {
    expect(parseTimecode(input)).toBe(expected);
  });

  it.each(["", "abc", "1:60", "1:60:00", "-5", "1::2", ":30", "1:2:3:4", "1,5", "1:30x"])("refuses %j", (input) => {
    expect(parseTimecode(input)).toBeNull();
  });
});

describe("parseClockTime (admin modal)", () => {
  it("reads mm:ss and hh:mm:ss", () => {
    expect(parseClockTime("02:30")).toBe(150);
    expect(parseClockTime("1:02:30")).toBe(3750);
  });
  it("counts every other format as 0 seconds", () => {
    expect(parseClockTime("150")).toBe(0);
    expect(parseClockTime("2:75")).toBe(0);
    expect(parseClockTime("soon")).toBe(0);
  });
});

describe("formatting", () => {
  it("formats mm:ss below an hour and hh:mm:ss above", () => {
    expect(formatTimecode(0)).toBe("00:00");
    expect(formatTimecode(65.9)).toBe("01:05");
    expect(formatTimecode(3599)).toBe("59:59");
    expect(formatTimecode(3600)).toBe("01:00:00");
    expect(formatTimecode(-3)).toBe("00:00");
    expect(formatTimecode(Number.NaN)).toBe("00:00");
  });
  it("formats clip lengths as mm:ss with minutes past 59", () => {
    expect(formatMinutesSeconds(42)).toBe("00:42");
    expect(formatMinutesSeconds(125)).toBe("02:05");
    expect(formatMinutesSeconds(3725)).toBe("62:05");
  });
  it("round-trips through parseTimecode", () => {
    for (const s of [0, 59, 61, 3599, 3600, 86399]) expect(parseTimecode(formatTimecode(s))).toBe(s);
  });
});
