import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CutStrategy } from "../../../app/domain/companion";
import type { Format, Quality } from "../../../app/domain/media";
import { cutClip, type CutHooks, type CutRequest } from "../src/paths/cut";
import { probeMedia } from "../src/source/probe";
import { resolveSource } from "../src/source/source";
import { toolPaths } from "../src/host/tools";

export const tools = toolPaths();

export function tempDir(prefix = "clipcut-out-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface SimpleCut {
  source: string;
  start: number;
  end: number;
  format?: Format;
  quality?: Quality;
  strategy?: CutStrategy;
  allowSnap?: boolean;
  watermark?: boolean;
  outputDir?: string;
  baseName?: string;
  /** Wanted height for page URLs (yt-dlp's selector). */
  height?: number | null;
  crop?: CutRequest["crop"];
  captions?: CutRequest["captions"];
}

export async function cut(c: SimpleCut, hooks: Partial<CutHooks> = {}) {
  const t = hooks.tools ?? tools;
  const input = await resolveSource(t, c.source, { allowPrivate: true, height: c.height ?? null });
  const info = await probeMedia(t.ffprobe, input);
  return cutClip(
    {
      input,
      info,
      startSeconds: c.start,
      endSeconds: c.end,
      format: c.format ?? "mp4",
      quality: c.quality ?? null,
      strategy: c.strategy ?? "auto",
      allowSnap: c.allowSnap ?? false,
      watermark: c.watermark ?? false,
      outputDir: c.outputDir ?? tempDir(),
      baseName: c.baseName ?? "clip",
      crop: c.crop,
      captions: c.captions,
    },
    { tools: t, ...hooks },
  );
}
