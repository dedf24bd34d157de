import { describe, expect, it } from "vitest";
import { firstName, formatShortDate, greetingFor } from "./greeting";

describe("greetingFor", () => {
  const at = (iso: string) => new Date(iso);
  it("switches at 12:00 and 18:00 local time", () => {
    expect(greetingFor(at("2026-01-10T11:59:00Z"), "UTC")).toBe("Good morning");
    expect(greetingFor(at("2026-01-10T12:00:00Z"), "UTC")).toBe("Good afternoon");
    expect(greetingFor(at("2026-01-10T17:59:00Z"), "UTC")).toBe("Good afternoon");
    expect(greetingFor(at("2026-01-10T18:00:00Z"), "UTC")).toBe("Good evening");
    expect(greetingFor(at("2026-01-10T00:30:00Z"), "UTC")).toBe("Good morning");
  });
  it("uses the user's time zone, not the server's", () => {
    // 20:00 UTC is 12:00 in Los Angeles (PST) and 05:00 next day in Tokyo.
    expect(greetingFor(at("2026-01-10T20:00:00Z"), "America/Los_Angeles")).toBe("Good afternoon");
    expect(greetingFor(at("2026-01-10T20:00:00Z"), "Asia/Tokyo")).toBe("Good morning");
  });
  it("falls back to UTC for an unknown zone", () => {
    expect(greetingFor(at("2026-01-10T19:00:00Z"), "Mars/Olympus")).toBe("Good evening");
  });
});

describe("names and dates", () => {
  it("takes the first word of the full name", () => {
    expect(firstName("  Ada   Lovelace ")).toBe("Ada");
    expect(firstName("Cher")).toBe("Cher");
  });
  it("formats en-US short dates", () => {
    expect(formatShortDate("2026-11-21T10:00:00Z")).toBe("Nov 21, 2026");
  });
});
