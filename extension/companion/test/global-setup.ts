import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
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
}
