import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clipBaseName, pathInside, reserveOutput, sanitizeName } from "./output";

describe("output names", () => {
  it("keeps names inside the output folder", () => {
    const dir = "/home/u/Videos/ClipCut";
    expect(pathInside(dir, "clip.mp4")).toBe(`${dir}/clip.mp4`);
    for (const evil of ["../clip.mp4", "../../etc/passwd", "/etc/passwd", "a/b.mp4", "..", ""]) {
      expect(() => pathInside(dir, evil)).toThrow(/inside the output folder/);
    }
  });
  it("sanitizes titles into portable names", () => {
    expect(sanitizeName('a/b\\c:d*e?"f<g>h|i')).toBe("a b c d e f g h i");
    expect(sanitizeName("../../x")).toBe("x");
    expect(sanitizeName("...")).toBe("clip");
    expect(clipBaseName("My video", 70.5, 3725)).toBe("My video 01m10s500-1h02m05s");
  });
  it("reserves unique names atomically, never overwriting", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clipcut-names-"));
    const slots = await Promise.all([1, 2, 3].map(() => reserveOutput(dir, "clip", "mp4")));
    expect(slots.map((s) => s.path.slice(dir.length + 1)).sort()).toEqual(["clip (1).mp4", "clip (2).mp4", "clip.mp4"]);
    await slots[0]!.discard();
    expect(readdirSync(dir)).toHaveLength(2);
  });
});
