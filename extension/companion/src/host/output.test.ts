import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isWindowsDeviceName, outputFileNameSchema } from "../../../../app/domain/companion";
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
  it("drops invisible format characters: a right-to-left override or zero-width space cannot disguise a name", () => {
    expect(sanitizeName("\u202Etxt.exe")).toBe("txt.exe");
    expect(sanitizeName("clip\u202Evod.mp4")).toBe("clipvod.mp4");
    expect(sanitizeName("a\u200Bb\u200Dc\uFEFFd\u2066e\u00ADf")).toBe("abcdef");
    expect(sanitizeName("\u200B\u200E")).toBe("clip");
    expect(clipBaseName("Goal\u202E4pm.exe", 1, 2)).toBe("Goal4pm.exe 00m01s-00m02s");
  });
  it("reserves unique names atomically, never overwriting", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clipcut-names-"));
    const slots = await Promise.all([1, 2, 3].map(() => reserveOutput(dir, "clip", "mp4")));
    expect(slots.map((s) => s.path.slice(dir.length + 1)).sort()).toEqual(["clip (1).mp4", "clip (2).mp4", "clip.mp4"]);
    await slots[0]!.discard();
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it("the final name appears only when the clip is complete: no placeholder while it is cut", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clipcut-names-"));
    const slot = await reserveOutput(dir, "clip", "mp4");
    // Only the hidden part file exists while ffmpeg writes.
    expect(readdirSync(dir)).toEqual([".clip.mp4.part"]);
    writeFileSync(slot.partPath, "finished clip");
    await slot.commit();
    expect(readdirSync(dir)).toEqual(["clip.mp4"]);
    expect(readFileSync(slot.path, "utf8")).toBe("finished clip");
  });

  it("a file that takes the name during the cut is never replaced: the clip takes the next free name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "clipcut-names-"));
    const slot = await reserveOutput(dir, "clip", "mp4");
    const other = await reserveOutput(dir, "clip", "mp4"); // a second job, cutting meanwhile
    writeFileSync(join(dir, "clip.mp4"), "the user's own file");
    writeFileSync(slot.partPath, "clip one");
    await slot.commit();
    // Not "clip.mp4" (taken), not "clip (1).mp4" (reserved by the running job).
    expect(slot.path).toBe(join(dir, "clip (2).mp4"));
    expect(readFileSync(join(dir, "clip.mp4"), "utf8")).toBe("the user's own file");
    writeFileSync(other.partPath, "clip two");
    await other.commit();
    expect(other.path).toBe(join(dir, "clip (1).mp4"));
    expect(readdirSync(dir).sort()).toEqual(["clip (1).mp4", "clip (2).mp4", "clip.mp4"]);
  });

  it("refuses Windows device names as file names, with any extension", () => {
    const dir = "/home/u/Videos/ClipCut";
    for (const name of ["CON", "con.mp4", "NUL.tar.gz", "aux .mp4", "COM1.mp4", "lpt9.wav", "PRN", "COM¹.mp4"]) {
      expect(() => pathInside(dir, name), name).toThrow(/device name/);
      expect(outputFileNameSchema.safeParse(name.replace(/\.mp4$/, "")).success, name).toBe(false);
      expect(isWindowsDeviceName(sanitizeName(name)), name).toBe(false);
    }
    for (const name of ["console.mp4", "CONFIG", "com10.mp4", "nul-and-void.mp4", "my CON.mp4"]) {
      expect(isWindowsDeviceName(name), name).toBe(false);
      expect(outputFileNameSchema.safeParse(name).success, name).toBe(true);
    }
    expect(sanitizeName("CON")).toBe("_CON");
  });
});
