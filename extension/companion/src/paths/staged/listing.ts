import { readFile } from "node:fs/promises";
import { z } from "zod";
import { ClipError } from "../../errors";
import type { Packet } from "../../source/probe";

/**
 * The staging read writes, beside the stage, ffmpeg's `framecrc` listing of the very packets it stages (same run,
 * same packets): one line per packet with stream, dts, pts, duration, size and non-key flags. Reading it replaces a
 * second ffprobe pass over the stage (a whole process start and demux) for the packet plan.
 */
export interface StagedPackets {
  /** Video packets in decode order, 90 kHz ticks, with their size in bytes (empty when no video was staged). */
  video: (Packet & { size: number })[];
  /** Audio packets in order, 90 kHz ticks (start and duration). */
  audio: { pts: number; duration: number; size: number }[];
}

/**
 * The ffmpeg output options that write the listing of the mapped streams to `path`, one flushed line per packet:
 * the cut reads it while the stage is still being written (early-head.ts).
 */
export function listingArgs(maps: string[], tsOffset: string, path: string): string[] {
  return [...maps, "-c", "copy", "-output_ts_offset", tsOffset, "-flush_packets", "1", "-f", "framecrc", path];
}

const NOPTS = "-9223372036854775808";
const tbLine = /^#tb (\d+): (\d+)\/(\d+)$/;
const typeLine = /^#media_type (\d+): (\w+)$/;
// stream, dts, pts, duration, size, crc[, F=0xflags][, side data…]
const packetLine = /^(\d+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*(\d+),\s*0x[0-9a-f]+(?:, F=0x([0-9A-F]+))?/i;
const fraction = z.tuple([z.number().int().positive(), z.number().int().positive()]);

/**
 * Parses the listing. `clockTicks` rounds times to the stage container's clock (1 ms for Matroska), so the plan
 * uses the timestamps the stage file really holds.
 */
export function parseListing(text: string, clockTicks = 1): StagedPackets {
  const timeBase = new Map<number, [number, number]>();
  const kind = new Map<number, string>();
  const video: StagedPackets["video"] = [];
  const audio: StagedPackets["audio"] = [];
  const ticks = (value: string, tb: [number, number]) =>
    Math.round(Math.round((Number(value) * tb[0] * 90000) / tb[1]) / clockTicks) * clockTicks;
  for (const line of text.split("\n")) {
    let m: RegExpExecArray | null;
    if ((m = tbLine.exec(line))) {
      timeBase.set(Number(m[1]), fraction.parse([Number(m[2]), Number(m[3])]));
    } else if ((m = typeLine.exec(line))) {
      kind.set(Number(m[1]), m[2] ?? "");
    } else if ((m = packetLine.exec(line))) {
      const stream = Number(m[1]);
      const tb = timeBase.get(stream);
      const [, , dts = NOPTS, pts = NOPTS, duration = "0", size = "0"] = m;
      if (!tb || pts === NOPTS) continue;
      const ptsTicks = ticks(pts, tb);
      if (kind.get(stream) === "video") {
        // No F= field means the flags are exactly "key".
        const key = m[6] === undefined || (parseInt(m[6], 16) & 1) === 1;
        video.push({ pts: ptsTicks, dts: dts === NOPTS ? ptsTicks : ticks(dts, tb), key, size: Number(size) });
      } else if (kind.get(stream) === "audio") {
        audio.push({ pts: ptsTicks, duration: ticks(duration, tb), size: Number(size) });
      }
    }
  }
  return { video, audio };
}

export async function readListing(path: string, clockTicks = 1): Promise<StagedPackets> {
  const text = await readFile(path, "utf8").catch(() => {
    throw new ClipError("stage_failed", "The staged copy of the source could not be listed; try again.", 500);
  });
  return parseListing(text, clockTicks);
}
