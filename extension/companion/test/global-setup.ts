import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { TestProject } from "vitest/node";
import { CLI_BUNDLE_OPTIONS, DEV_BUILD_DEFINE } from "../src/host/bundle-options.mjs";
import {
  makeAudioSource,
  makeAv1Source,
  makeDashPair,
  makeOpusSource,
  makeVideoSource,
  makeVp9AltRefSource,
  makeVp9Source,
} from "./media";

declare module "vitest" {
  export interface ProvidedContext {
    mediaDir: string;
    /** The CLI built for this run (one CommonJS file): see cli-process.ts. */
    builtCli: string;
  }
}

/** Generates the source media once per run (cached across runs in the temp dir: generation is deterministic). */
export default async function setup(project: TestProject) {
  const dir = process.env.CLIPCUT_TEST_MEDIA ?? join(tmpdir(), "clipcut-companion-test-media-v1");
  mkdirSync(dir, { recursive: true });
  await Promise.all([
    makeVideoSource(join(dir, "src360.mp4"), { width: 640, height: 360, seconds: 150, videoBitrate: "600k" }),
    makeVideoSource(join(dir, "src1080.mp4"), { width: 1920, height: 1080, seconds: 40, videoBitrate: "3M" }),
    makeAudioSource(join(dir, "audio.m4a"), 60),
    makeVp9Source(join(dir, "vp9-360.webm"), { width: 640, height: 360, seconds: 12, videoBitrate: "500k" }),
    makeVp9AltRefSource(join(dir, "vp9-altref.webm"), 12),
    makeOpusSource(join(dir, "opus40.webm"), 40),
    makeAv1Source(join(dir, "av1-144.webm"), 8),
  ]);
  // YouTube's DASH pair (video-only H.264 MP4 + audio-only AAC M4A), split from the 1080p source.
  await makeDashPair(join(dir, "src1080.mp4"), join(dir, "dash1080-video.mp4"), join(dir, "dash1080-audio.m4a"));
  project.provide("mediaDir", dir);
  // The CLI as one JavaScript file, bundled as scripts/pack.mjs bundles it (a dev build here), for the tests that start it
  // only to run it (cut, serve, native-host): through tsx each start spent ~0.8 CPU-s loading the TypeScript, the
  // build ~0.2. Made from the sources of this run (again before each rerun in watch mode), into a folder of its own
  // that the run removes.
  const cli = mkdtempSync(join(tmpdir(), "clipcut-companion-cli-"));
  const buildCli = () =>
    build({
      ...CLI_BUNDLE_OPTIONS,
      entryPoints: [fileURLToPath(new URL("../src/host/cli.ts", import.meta.url))],
      outfile: join(cli, "cli.cjs"),
      // What a run through tsx has: a dev build (it trusts the dev extension id), no store ids.
      define: DEV_BUILD_DEFINE,
      // A failure's stack names the sources (node --enable-source-maps, cli-process.ts).
      sourcemap: true,
    });
  await buildCli();
  project.onTestsRerun(async () => void (await buildCli()));
  project.provide("builtCli", join(cli, "cli.cjs"));
  return () => rmSync(cli, { recursive: true, force: true });
}
