import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, inject, it } from "vitest";
import { cut, tempDir } from "./helpers";

it("the clip's name appears in the output folder only when the clip is complete (no placeholder during the cut)", async () => {
  const outputDir = tempDir();
  const listings: string[][] = [];
  const result = await cut(
    { source: join(inject("mediaDir"), "src360.mp4"), start: 10, end: 13, strategy: "reencode", outputDir },
    { onProgress: () => listings.push(readdirSync(outputDir)) },
  );
  // While ffmpeg wrote, the folder held the hidden part file only.
  const during = listings.slice(0, -1).filter((l) => l.length > 0);
  expect(during.length).toBeGreaterThan(0);
  for (const listing of during) expect(listing).toEqual([".clip.mp4.part"]);
  expect(readdirSync(outputDir)).toEqual(["clip.mp4"]);
  expect(result.output).toBe(join(outputDir, "clip.mp4"));
});
