import { describe, expect, it } from "vitest";
import { clipsCsvName, clipsList, clipsWindow, dayStartIn } from "./clips-list";

describe("dayStartIn: the instant a day begins in a time zone", () => {
  it.each([
    ["2025-06-15", "UTC", "2025-06-15T00:00:00.000Z"],
    ["2025-01-15", "America/New_York", "2025-01-15T05:00:00.000Z"],
    ["2025-06-15", "America/New_York", "2025-06-15T04:00:00.000Z"],
    // The days the clocks change: midnight is still on the old offset.
    ["2025-03-09", "America/New_York", "2025-03-09T05:00:00.000Z"],
    ["2025-11-02", "America/New_York", "2025-11-02T04:00:00.000Z"],
    ["2025-03-30", "Europe/Berlin", "2025-03-29T23:00:00.000Z"],
    ["2025-06-15", "Asia/Kolkata", "2025-06-14T18:30:00.000Z"],
    ["2025-06-15", "Pacific/Kiritimati", "2025-06-14T10:00:00.000Z"],
  ])("%s in %s begins at %s", (day, zone, iso) => {
    expect(new Date(dayStartIn(day, zone)).toISOString()).toBe(iso);
  });

  it("an unknown zone counts as UTC", () => {
    expect(new Date(dayStartIn("2025-06-15", "Mars/Olympus")).toISOString()).toBe("2025-06-15T00:00:00.000Z");
  });
});

describe("clipsList and clipsWindow", () => {
  it("'to' ends with its day, in the zone; missing ends are open", () => {
    const q = clipsList.parse(new URLSearchParams("from=2025-12-31&to=2025-12-31"));
    expect(clipsWindow(q, "America/New_York")).toEqual({
      from: Date.parse("2025-12-31T05:00:00Z"),
      to: Date.parse("2026-01-01T05:00:00Z"),
    });
    expect(clipsWindow(clipsList.parse(new URLSearchParams()), "UTC")).toEqual({ from: null, to: null });
  });

  it("drops what it cannot read: impossible days, unknown formats, bad pages", () => {
    const q = clipsList.parse(new URLSearchParams("from=2025-02-29&to=2024-02-29&format=MP4&page=0&q=%20%20"));
    expect(q).toEqual({ ...clipsList.defaults, to: "2024-02-29" });
    expect(clipsList.parse(new URLSearchParams("format=mp3&page=3"))).toMatchObject({ format: "mp3", page: 3 });
  });

  it("names the export after its dates", () => {
    expect(clipsCsvName({})).toBe("clipcut-clips.csv");
    expect(clipsCsvName({ from: "2025-01-01" })).toBe("clipcut-clips_2025-01-01_to_today.csv");
  });
});
