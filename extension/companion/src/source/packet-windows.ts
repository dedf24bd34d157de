import { z } from "zod";
import { runProcess } from "../ffmpeg";
import { toTicks } from "../paths/keyframes";
import type { Packet } from "./probe";
import { withRangeProxy } from "./range-proxy";
import { inputArgs, type InputSpec } from "./source";

/**
 * The video packets around a range, read by ffprobe (the demuxer ffmpeg cuts with) without reading the range
 * itself: the true-cut report's reading, and the plan of a cut that encodes straight from the source.
 */
const WINDOWS_TIMEOUT_MS = 60_000;

export interface SizedPacket extends Packet {
  size: number;
}

const packetList = z.object({
  packets: z
    .array(
      z.object({
        pts_time: z.string().optional(),
        dts_time: z.string().optional(),
        flags: z.string().optional(),
        size: z.string().optional(),
      }),
    )
    .default([]),
});

/**
 * The video packets of windows of the source (each from the keyframe at or before its start), in decode order,
 * on the source's clock in 90 kHz ticks, with their sizes. A packet read by two windows is kept once.
 */
export async function readPacketWindows(
  ffprobe: string,
  input: InputSpec,
  windows: [number, number][],
  signal?: AbortSignal,
): Promise<SizedPacket[]> {
  const intervals = windows.map(([from, to]) => `${from.toFixed(3)}%${to.toFixed(3)}`).join(",");
  const { stdout } = await withRangeProxy(input, (proxied) =>
    runProcess(
      ffprobe,
      [
        "-v",
        "error",
        "-select_streams",
        "v:0",
        "-read_intervals",
        intervals,
        "-show_entries",
        "packet=pts_time,dts_time,flags,size",
        "-print_format",
        "json",
        ...inputArgs(proxied),
      ],
      { signal, timeoutMs: WINDOWS_TIMEOUT_MS },
    ),
  );
  const seen = new Set<number>();
  const packets: SizedPacket[] = [];
  for (const p of packetList.parse(JSON.parse(stdout)).packets) {
    const pts = Number(p.pts_time);
    if (p.pts_time === undefined || !Number.isFinite(pts)) continue;
    const tick = toTicks(pts);
    if (seen.has(tick)) continue;
    seen.add(tick);
    const dts = Number(p.dts_time);
    packets.push({
      pts: tick,
      dts: p.dts_time !== undefined && Number.isFinite(dts) ? toTicks(dts) : tick,
      key: (p.flags ?? "").includes("K"),
      size: Number(p.size ?? 0) || 0,
    });
  }
  return packets;
}
