import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { doctor, formatChecks } from "../src/host/doctor";
import { toolPaths } from "../src/host/tools";
import { estimateEncodeSeconds, hasLibass, measureEncodeSpeed } from "../src/shorts";
import { removeWorkDirs, workDir } from "./shorts-media";

afterAll(removeWorkDirs);

/** A stand-in ffmpeg that prints a filter list (and a build configuration) of our choosing. */
async function fakeFfmpeg(filters: string, buildconf = "", failFilters = false): Promise<string> {
  const dir = await workDir("fake-ffmpeg");
  const bin = join(dir, "ffmpeg");
  const script = [
    "#!/bin/sh",
    `case "$*" in`,
    `  *-filters*) ${failFilters ? "exit 1" : `printf '%b\\n' ${JSON.stringify(filters)}`} ;;`,
    `  *-buildconf*) printf '%s\\n' ${JSON.stringify(buildconf)} ;;`,
    "esac",
  ].join("\n");
  await writeFile(bin, script);
  await chmod(bin, 0o755);
  return bin;
}

describe("libass detection (for doctor and the panel)", () => {
  it("finds the ass filter in ffmpeg's filter list, and says no when it is not there", async () => {
    const withAss = await fakeFfmpeg(
      "Filters:\n ... ass               V->V       Render ASS subtitles onto input video using the libass library.",
    );
    const without = await fakeFfmpeg(
      "Filters:\n T.C drawtext          V->V       Draw text on top of video frames using libfreetype library.",
    );
    expect(await hasLibass(withAss)).toBe(true);
    expect(await hasLibass(without)).toBe(false);
  });

  it("falls back on the build configuration when the filter list cannot be read; no program is a no", async () => {
    expect(await hasLibass(await fakeFfmpeg("", "  --enable-gpl --enable-libass --enable-libx264", true))).toBe(true);
    expect(await hasLibass(await fakeFfmpeg("", "  --enable-gpl --enable-libx264", true))).toBe(false);
    expect(await hasLibass(join(await workDir("none"), "no-such-ffmpeg"))).toBe(false);
  });
});

describe("doctor", () => {
  it("says when ffmpeg has no libass, and what to install (a warning: a subtitle track still works)", async () => {
    const ffmpeg = await fakeFfmpeg("Filters:\n ... scale             V->V       Scale the input video size.");
    const home = await workDir("doctor-home");
    const checks = await doctor(
      { platform: "linux", home, env: { HOME: home }, node: process.execPath, script: "cli.ts" },
      { tools: { ...toolPaths({}), ffmpeg }, serveOutputDir: home, userDataDirs: [] },
    );
    const line = formatChecks(checks.filter((c) => c.label.startsWith("libass")));
    expect(line).toMatch(/^! libass \(burned-in captions\): no\. This FFmpeg was built without libass/);
    expect(line).toContain("Install an FFmpeg built with libass:");
  });
});

describe("encode speed (how long a cropped clip will take)", () => {
  it("measures this machine's frames per second for a clip's settings, and turns it into seconds", async () => {
    const fps = await measureEncodeSpeed({
      ffmpeg: "ffmpeg",
      source: { width: 640, height: 360 },
      crop: { x: 218, y: 0, width: 202, height: 360 },
      format: "mp4",
      burn: true,
      watermark: true,
      frames: 30,
    });
    expect(fps).toBeGreaterThan(0);
    expect(estimateEncodeSeconds(300, 60)).toBe(5);
    expect(estimateEncodeSeconds(300, null)).toBeNull();
  });
});
