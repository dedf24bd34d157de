/**
 * What the true-cut report reads to plan a clip (source/dry-run.ts): the cut's own in-process planning as it is now
 * ("after", paths/cut-frames.ts: a clip over 10 s planned at its first frame, as the cut plans a clip, then over its
 * last second as a copy) and as it was before it read the clip's end ("before": the cut's plan of the first 10 s
 * alone), and ffprobe's packet windows beside them (the same before and after). Each is run alone (the report runs
 * the planning beside ffprobe), on a range server in a process of its own, over loopback and over the realistic link
 * of bench/companion/paths.ts (BENCH_LINK_MBPS, BENCH_LINK_MS); prints bytes, requests and wall time.
 * Sources: the 240 s 1080p H.264 progressive MP4 and DASH pair with a sidx of bench/companion-cut.ts (same folder;
 * made if missing, a few minutes), and a 90 s 720p VP9 WebM with 5 s GOPs. Clips of 15 and 60 s from the keyframe
 * at or after 100 s (20 s for the VP9), ended on a keyframe (whole GOPs: a copy, the in-process paths' clip), and
 * from half a GOP later (a smart cut: staged, as the planning finds).
 *
 *   npx tsx bench/report-reads.ts
 *   BENCH_LINK=0 npx tsx bench/report-reads.ts     (loopback only)
 */
import { mkdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { toolPaths } from "../extension/companion/src/host/tools";
import { cutFrames } from "../extension/companion/src/paths/cut-frames";
import { planInProcess } from "../extension/companion/src/paths/index";
import type { CutRequest } from "../extension/companion/src/paths/request";
import { HEAD_WINDOW_SECONDS, packetWindows } from "../extension/companion/src/source/dry-run";
import { readPacketWindows } from "../extension/companion/src/source/packet-windows";
import { probeMedia } from "../extension/companion/src/source/probe";
import { resolveSource } from "../extension/companion/src/source/source";
import { makeDashPair, makeVideoSource, run } from "../extension/companion/test/media";
import { LINK } from "./companion/paths";
import { startRangeServerProcess, type RemoteRangeServer } from "./companion/range-server-process";

const MEDIA = join(tmpdir(), "clipcut-bench-media-v1");
const LENGTHS = [15, 60];
const WITH_LINK = process.env.BENCH_LINK !== "0";
const tools = toolPaths();

interface Source {
  name: string;
  video: string;
  audio?: string;
  format: CutRequest["format"];
  /** Where the clips begin (the keyframe at or after it), and the seconds per GOP. */
  at: number;
  gop: number;
}

async function prepare(): Promise<Source[]> {
  mkdirSync(MEDIA, { recursive: true });
  const h264 = "long1080-240s.mp4";
  await makeVideoSource(join(MEDIA, h264), { width: 1920, height: 1080, seconds: 240, videoBitrate: "4M" });
  await makeDashPair(join(MEDIA, h264), join(MEDIA, "long1080-240s-video.mp4"), join(MEDIA, "long1080-240s-audio.m4a"));
  // YouTube's layout, as bench/companion-cut.ts makes it: fragmented MP4 with one sidx after the moov.
  for (const [from, to, frag] of [
    [
      "long1080-240s-video.mp4",
      "long1080-240s-video-sidx.mp4",
      ["-movflags", "frag_keyframe+empty_moov+default_base_moof+global_sidx"],
    ],
    [
      "long1080-240s-audio.m4a",
      "long1080-240s-audio-sidx.m4a",
      ["-frag_duration", "2000000", "-movflags", "frag_custom+empty_moov+default_base_moof+global_sidx"],
    ],
  ] as const) {
    await once(to, (tmp) => ["-i", join(MEDIA, from), "-c", "copy", ...frag, "-f", "mp4", tmp]);
  }
  await once("vp9-720-90s-g150.webm", (tmp) => [
    ...["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "90", "-c:v", "libvpx-vp9"],
    ...["-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-g", "150", "-keyint_min", "150"],
    ...["-b:v", "3M", "-pix_fmt", "yuv420p", "-f", "webm", tmp],
  ]);
  return [
    { name: "progressive MP4 (mediabunny copy)", video: h264, format: "mp4", at: 100, gop: 2 },
    {
      name: "DASH fMP4 + sidx (MP4 byte copy)",
      video: "long1080-240s-video-sidx.mp4",
      audio: "long1080-240s-audio-sidx.m4a",
      format: "mp4",
      at: 100,
      gop: 2,
    },
    { name: "VP9 WebM (Matroska byte copy)", video: "vp9-720-90s-g150.webm", format: "webm", at: 20, gop: 5 },
  ];
}

async function once(name: string, args: (tmp: string) => string[]) {
  const { existsSync } = await import("node:fs");
  if (existsSync(join(MEDIA, name))) return;
  process.stderr.write(`Preparing ${name}…\n`);
  const tmp = join(MEDIA, `${name}.tmp`);
  await run("ffmpeg", ["-v", "error", "-y", ...args(tmp)]);
  await run("mv", [tmp, join(MEDIA, name)]);
}

/** The first keyframe shown at or after `at`, in seconds (ffprobe's packets). */
async function keyframeAt(file: string, at: number, gop: number): Promise<number> {
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-select_streams", "v:0", "-read_intervals", `${at}%+${gop + 1}`],
    ...["-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", join(MEDIA, file)],
  ]);
  const keys = stdout
    .toString()
    .split("\n")
    .filter((l) => l.includes("K"))
    .map((l) => Number(l.split(",")[0]));
  return keys.find((k) => k >= at - 0.001) ?? at;
}

/** The report's planning before it read the clip's end: the cut's plan over the head window only. */
async function headOnly(req: CutRequest) {
  const end = Math.min(req.endSeconds, req.startSeconds + HEAD_WINDOW_SECONDS);
  const outcome = await planInProcess({ ...req, endSeconds: end });
  if ("plan" in outcome) await outcome.plan.close();
  return "plan" in outcome ? outcome.path : "staged";
}

async function measure(server: RemoteRangeServer, work: () => Promise<string>) {
  await server.reset();
  const began = performance.now();
  const answer = await work();
  const ms = Math.round(performance.now() - began);
  const { bytes, requests } = await server.stats();
  return `${(bytes / 1e6).toFixed(2).padStart(6)} MB ${String(requests).padStart(3)} req ${String(ms).padStart(5)} ms  ${answer}`;
}

async function main() {
  const sources = await prepare();
  const servers: [string, RemoteRangeServer][] = [["loopback", await startRangeServerProcess(MEDIA)]];
  if (WITH_LINK) {
    const link = await startRangeServerProcess(MEDIA, { delayMs: LINK.ms, bytesPerSecond: LINK.mbps * 1e6 });
    servers.push([`${LINK.mbps} MB/s + ${LINK.ms} ms`, link]);
  }
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  console.log(`load average at start: ${load()}`);
  try {
    for (const [link, server] of servers) {
      for (const s of sources) {
        const input = await resolveSource(tools, server.url(s.video), { allowPrivate: true });
        if (s.audio) input.audio = await resolveSource(tools, server.url(s.audio), { allowPrivate: true });
        const info = await probeMedia(tools.ffprobe, input);
        const key = await keyframeAt(s.video, s.at, s.gop);
        for (const cut of ["copy", "smart"] as const) {
          for (const length of LENGTHS) {
            // A copy: whole GOPs, from a keyframe to the frame before one.
            const start = cut === "copy" ? key : key + s.gop / 2;
            const seconds = cut === "copy" ? Math.ceil(length / s.gop) * s.gop : length;
            const req: CutRequest = {
              ...{ input, info, startSeconds: start, endSeconds: start + seconds, format: s.format },
              ...{ quality: null, strategy: "auto", allowSnap: false, watermark: false, crop: null, captions: null },
              ...{ outputDir: tmpdir(), baseName: "" },
            };
            const windows = packetWindows(req.startSeconds, req.endSeconds, info.video);
            const videoOnly = { ...input, audio: undefined };
            console.log(`\n${link} · ${s.name} · ${seconds} s ${cut} at ${start.toFixed(3)} s (load ${load()})`);
            console.log(`  planning before  ${await measure(server, () => headOnly(req))}`);
            const after = () => cutFrames(req, HEAD_WINDOW_SECONDS).then((r) => (r ? "in-process" : "staged"));
            console.log(`  planning after   ${await measure(server, after)}`);
            const probe = () => readPacketWindows(tools.ffprobe, videoOnly, windows).then((p) => `${p.length} packets`);
            console.log(`  ffprobe windows  ${await measure(server, probe)}`);
          }
        }
      }
    }
  } finally {
    await Promise.all(servers.map(([, s]) => s.close()));
  }
  console.log(`\nload average at end: ${load()}`);
}

await main();
