/**
 * Clip-engine benchmark, through `serve` (the path the extension uses: POST /jobs → done, credits on a stand-in API).
 * 20 s cuts at two positions of three sources served over loopback HTTP with range requests:
 *   - progressive: one 1080p30 H.264 + AAC MP4 (as before);
 *   - DASH: the same split into a video-only MP4 and an audio-only M4A, resolved by the stand-in yt-dlp
 *     (`requested_formats`), as YouTube serves 1080p;
 *   - DASH with sidx: the same pair as fragmented MP4 with a sidx after the moov, as YouTube really serves it (the
 *     in-process copy reads that index itself: mediabunny alone walks every moof);
 *   - VP9 1440p: a video-only VP9 WebM (5 s GOPs, as YouTube's) + an Opus WebM, also through yt-dlp; its copies into
 *     WebM are the byte copy of the Matroska clusters (decision 002's path 2; the trace names the path).
 * The range server runs in a process of its own (the origin is never in the companion's process).
 * Copies are cut in the companion's process from the container's index (decision 002's paths 1–3), and so are H.264
 * smart cuts into MP4 (their middle copied from the index, only the head and tail encoded: decision 002's path 4; the
 * VP9 smart cut is still staged by ffmpeg); besides wall time each row reports the requests the range server
 * answered, the bench process's own CPU (the companion's event loop, plus the stand-in API, which runs in it too) and
 * the longest event-loop stall during the row.
 * Extra rows: the first copy after the companion starts (cold JIT), a slow link (BENCH_SLOW_MS per request,
 * 30 ms by default) for the floor and the first copy of each position, and the first copy after the panel's report
 * (the extension asks POST /dry-run while the handles rest, which resolves the page and probes it; the clip then
 * reuses that source: decision 002, "Reading the source"; only the clip is timed).
 * Each beside plain ffmpeg (`-ss -i URL -t 20 -c copy`, the physical floor) and a plain ffmpeg full re-encode at the
 * quality the smart cut re-encodes with. Prints wall time, bytes read from the server and start accuracy.
 *
 *   npx tsx bench/companion-cut.ts            (first run generates the sources: a few minutes)
 *   BENCH_ONLY=dash,vp9 npx tsx bench/companion-cut.ts
 *   BENCH_ONE=1 BENCH_SKIP_FULL=1 CLIPCUT_TRACE=1 npx tsx bench/companion-cut.ts   (per-phase timings, no re-encodes)
 *   BENCH_INSTALLED=0 …                        (no rows for the installed package)
 *   BENCH_AT=10.5,150.5 …                      (clip starts for the progressive and DASH sources)
 *   BENCH_REPEAT=3 …                           (runs of each short row; the row reports the median run)
 *   BENCH_ONLY=progressive,dashsidx BENCH_SLOW_MS=0 …   (no slow-link rows)
 * One cut at a time, without serve, its own CPU and the functions it spends it in: bench/companion/profile-copy.ts.
 * Shorts (BENCH_ONLY=shorts): a BENCH_SHORTS_SECONDS (30) s clip of the DASH 1080p page cropped to 9:16 (centre)
 * with its English captions burned in (the stand-in yt-dlp lists a WebVTT track on the range server), through serve
 * (streamed shorts path), beside plain ffmpeg running the very filter graph the companion builds (shorts/command.ts:
 * trim, crop, ass, libx264, the sound copied) straight on the two media URLs. Goal: ClipCut ÷ plain ≤ 1.1.
 *   BENCH_ONLY=shorts BENCH_SHORTS_SECONDS=5 BENCH_INSTALLED=0 BENCH_REPEAT=1 npx tsx bench/companion-cut.ts  (smoke)
 * The "installed CLI" rows run the package a creator installs: `companion:pack`'s tarball, `npm install`ed into a
 * temporary prefix, then `clipcut-companion cut` (start-up included, as a user pays it).
 * Cut paths (BENCH_ONLY=paths, bench/companion/paths.ts): each path's clips on loopback and on a realistic link
 * (BENCH_LINK_MBPS, 6 MB/s, one pipe shared by every connection; BENCH_LINK_MS, 20 ms before each answer), beside
 * the next path that would take the same clip; BENCH_PATHS_SECONDS (15) s clips at BENCH_PATHS_AT (150.4) s,
 * BENCH_PATHS_STAGED=0 leaves out the paths that are the only ones to take their clips.
 *   BENCH_ONLY=paths BENCH_REPEAT=3 BENCH_VP9_SECONDS=30 npx tsx bench/companion-cut.ts
 * The figures measured so far, by question and date, with their commands and load: bench/results/companion-cut.md.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseCaptions } from "../app/domain/captions";
import { cropFor } from "../app/domain/crop";
import { companionRange } from "../app/domain/frames";
import { toolPaths } from "../extension/companion/src/host/tools";
import { shortsCommand } from "../extension/companion/src/shorts";
import { makeDashPair, makeOpusSource, makeVideoSource, run } from "../extension/companion/test/media";
import { measureAccuracy, timeCommand, type Accuracy } from "./companion/measure";
import { benchPaths, LINK } from "./companion/paths";
import { startRangeServerProcess } from "./companion/range-server-process";
import { FAKE_YTDLP, startServeHarness } from "./companion/serve-harness";

const SOURCE_SECONDS = Number(process.env.BENCH_SOURCE_SECONDS ?? 240);
const VP9_SECONDS = Number(process.env.BENCH_VP9_SECONDS ?? 60);
const ONLY = new Set((process.env.BENCH_ONLY ?? "progressive,dash,dashsidx,vp9,shorts").split(","));
/** BENCH_ONLY=paths: each cut path against the next one that takes its clips, on loopback and a realistic link. */
const PATHS = ONLY.has("paths");
/** The Shorts clip's length (the goal is stated for 30 s; a shorter one for a smoke run). */
const SHORTS_SECONDS = Number(process.env.BENCH_SHORTS_SECONDS ?? 30);
const SHORTS_AT = 10.4;
/** The simulated slow link: a fixed delay per request at a second range server (0: no slow-link rows). */
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 30);
const CLIP = 20;
/** BENCH_ONE=1: one position per source (the full re-encodes dominate the run time on 2 cores). */
const ONE = process.env.BENCH_ONE === "1";
/** BENCH_AT=10.5,150.5: the clip starts for the H.264 sources (progressive and DASH) instead of the defaults. */
const AT = process.env.BENCH_AT ? process.env.BENCH_AT.split(",").map(Number) : null;
/** BENCH_SKIP_FULL=1: no full re-encode rows (for profiling the ClipCut rows; CLIPCUT_TRACE=1 prints phases). */
const SKIP_FULL = process.env.BENCH_SKIP_FULL === "1";
const FPS = 30;
const INSTALLED = process.env.BENCH_INSTALLED !== "0";
/**
 * Every row runs this many times and reports its median run: one run of a sub-second row swings by a third on this
 * shared 2-core machine, and a full re-encode by a fifth. Each run of a "first copy" row cuts its own URL variant (a query
 * string the range server ignores), so the companion's source cache and the proxy's size cache never serve it.
 */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
/** The same media under the URL of run `r` (run 0: the plain URL). */
const variant = (url: string, r: number) => (r === 0 ? url : `${url}${url.includes("?") ? "&" : "?"}r=${r}`);

/** Packs the companion and installs the tarball into a temporary prefix: the binary a creator runs. */
function installCompanion(work: string): string {
  const packDir = join(work, "pack");
  mkdirSync(packDir);
  const pack = new URL("../extension/companion/scripts/pack.mjs", import.meta.url).pathname;
  execFileSync("node", [pack, "--out-dir", packDir], { stdio: "ignore" });
  const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("companion:pack wrote no tarball");
  const prefix = join(work, "installed");
  execFileSync("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", join(packDir, tarball)], {
    stdio: "ignore",
  });
  return join(prefix, "node_modules", ".bin", "clipcut-companion");
}

/** Cold start of the installed CLI (`--version`): the median of five runs, in ms. */
async function coldStartMs(bin: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push((await timeCommand(bin, ["--version"])).seconds * 1000);
  return times.sort((a, b) => a - b)[2]!;
}

interface Row {
  source: string;
  tool: string;
  at: string;
  seconds: number;
  /** CPU time of the child processes (ffmpeg, ffprobe, yt-dlp) during the row: the machine's other load does not count. */
  cpu: number | null;
  bytes: number;
  /** Requests the range server answered. */
  requests: number;
  /** CPU of this process (the companion's event loop, with the stand-in API), seconds. */
  selfCpu: number;
  /** Longest event-loop stall during the row, ms (the server cannot answer meanwhile). */
  stallMs: number;
  /** Size of the file written (the plain copy is the floor: a smart cut must stay within 1.1× of it). */
  outBytes: number | null;
  accuracy: Accuracy | null;
  note: string;
  /** The machine's 1/5/15-minute load averages when the row finished (the machine is shared). */
  load: string;
}
const rows: Row[] = [];

const mb = (b: number) => (b / 1e6).toFixed(2);
const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
};

/**
 * User + system CPU seconds of this process's finished children (Linux /proc: cutime + cstime, 100 ticks/s). The
 * companion runs in this process, so its ffmpeg/ffprobe runs count as well as the plain ffmpeg rows'. Wall time on
 * the shared 2-core machine swings with other load; CPU time compares the work itself.
 */
function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
function format(r: Row): string {
  const a = r.accuracy;
  const err = a
    ? `${a.startErrorFrames >= 0 ? "+" : ""}${a.startErrorFrames} fr (${((a.startErrorFrames / FPS) * 1000).toFixed(0)} ms)`
    : "–";
  return `| ${r.source} | ${r.tool} | ${r.at} | ${r.seconds.toFixed(2)} | ${r.cpu === null ? "–" : r.cpu.toFixed(2)} | ${r.selfCpu.toFixed(3)} | ${r.stallMs.toFixed(0)} | ${mb(r.bytes)} | ${r.requests} | ${r.outBytes === null ? "–" : mb(r.outBytes)} | ${err} | ${a ? a.durationSeconds.toFixed(3) : "–"} | ${a ? a.hiddenFrames : "–"} | ${r.load} | ${r.note} |`;
}

/** The goal ratios, per source and clip start, for the serve and the installed-CLI rows. */
function ratioRows(): string[] {
  const out: string[] = [];
  const keys = [...new Set(rows.map((r) => `${r.source}\u0000${r.at}`))];
  for (const key of keys) {
    const [source, at] = key.split("\u0000");
    const get = (tool: string) => rows.find((r) => r.source === source && r.at === at && r.tool === tool);
    const floor = get("ffmpeg -ss -i -t -c copy (floor)");
    const full = get("ffmpeg full re-encode, smart's end settings") ?? get("ffmpeg full re-encode");
    const ratio = (a?: number | null, b?: number | null) => (a && b ? (a / b).toFixed(3) : "–");
    const copy = get("ClipCut copy (serve)");
    out.push(
      `| ${source} | ${at} | serve copy | – | ${ratio(copy?.seconds, floor?.seconds)} | – | ${ratio(copy?.bytes, floor?.bytes)} | ${copy?.requests ?? "–"} |`,
    );
    const reported = get("ClipCut copy (serve, after the panel's report)");
    if (reported)
      out.push(
        `| ${source} | ${at} | serve copy after the panel's report | – | ${ratio(reported.seconds, floor?.seconds)} | – | ${ratio(reported.bytes, floor?.bytes)} | ${reported.requests} |`,
      );
    const slowFloor = get("ffmpeg -ss -i -t -c copy (floor), slow link");
    const slowCopy = get("ClipCut copy (serve), slow link");
    if (slowCopy)
      out.push(
        `| ${source} | ${at} | serve copy, slow link (${SLOW_MS} ms/request) | – | ${ratio(slowCopy.seconds, slowFloor?.seconds)} | – | ${ratio(slowCopy.bytes, slowFloor?.bytes)} | ${slowCopy.requests} |`,
      );
    const cold = get("ClipCut copy (serve, cold: first cut after start)");
    if (cold)
      out.push(
        `| ${source} | ${at} | serve copy, cold | – | ${ratio(cold.seconds, floor?.seconds)} | – | – | ${cold.requests} |`,
      );
    for (const [path, smart, copy] of [
      ["serve", "ClipCut smart (serve)", "ClipCut copy (serve)"],
      ["installed CLI", "installed CLI smart", "installed CLI copy"],
    ] as const) {
      const s = get(smart);
      if (!s) continue;
      out.push(
        `| ${source} | ${at} | ${path} | ${ratio(s.seconds, full?.seconds)} | ${ratio(get(copy)?.seconds, floor?.seconds)} | ${ratio(s.outBytes, floor?.outBytes)} | ${ratio(s.bytes, floor?.bytes)} | ${s.requests} |`,
      );
    }
  }
  return out;
}

/** The Shorts goal: the companion's clip (packet list + one encode) ÷ plain ffmpeg running the same graph, ≤ 1.1. */
function shortsRatio(): string[] {
  const plain = rows.find((r) => r.tool === "ffmpeg, the same filter graph");
  const clip = rows.find((r) => r.tool === "ClipCut shorts (serve)");
  if (!plain || !clip) return [];
  const ratio = (a: number | null, b: number | null) => (a && b ? (a / b).toFixed(3) : "–");
  return [
    "",
    "Shorts (9:16 crop + burned-in captions): ClipCut through serve ÷ plain ffmpeg with the same filter graph (goal ≤ 1.1).",
    "",
    "| Source | Wall ÷ plain | Child CPU ÷ plain | Bytes read ÷ plain | Load 1/5/15 min |",
    "|---|---|---|---|---|",
    `| ${clip.source} | ${ratio(clip.seconds, plain.seconds)} | ${ratio(clip.cpu, plain.cpu)} | ${ratio(clip.bytes, plain.bytes)} | ${clip.load} |`,
  ];
}

async function makeVp9Bench(path: string, seconds: number) {
  const { existsSync } = await import("node:fs");
  if (existsSync(path)) return;
  process.stderr.write(`Preparing ${seconds}s 1440p30 VP9 source (5 s GOP)…\n`);
  const font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
  const counter = existsSync(font)
    ? `,drawtext=fontfile=${font}:text='%{n}':fontsize=480:fontcolor=white:box=1:boxcolor=black:x=20:y=20`
    : "";
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=2560x1440:rate=${FPS}${counter}`],
    ...["-t", String(seconds), "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1"],
    ...["-g", "150", "-keyint_min", "150", "-b:v", "9M", "-pix_fmt", "yuv420p", `${path}.tmp.webm`],
  ]);
  await run("mv", [`${path}.tmp.webm`, path]);
}

async function main() {
  const tools = toolPaths();
  const mediaDir = join(tmpdir(), "clipcut-bench-media-v1");
  mkdirSync(mediaDir, { recursive: true });
  const h264 = `long1080-${SOURCE_SECONDS}s.mp4`;
  const dashVideo = `long1080-${SOURCE_SECONDS}s-video.mp4`;
  const dashAudio = `long1080-${SOURCE_SECONDS}s-audio.m4a`;
  const vp9 = `vp9-1440-${VP9_SECONDS}s.webm`;
  const opus = `opus-${VP9_SECONDS}s.webm`;
  process.stderr.write(`Preparing ${SOURCE_SECONDS}s 1080p30 source (2 s GOP, B-frames, faststart)…\n`);
  await makeVideoSource(join(mediaDir, h264), {
    width: 1920,
    height: 1080,
    seconds: SOURCE_SECONDS,
    videoBitrate: "4M",
  });
  await makeDashPair(join(mediaDir, h264), join(mediaDir, dashVideo), join(mediaDir, dashAudio));
  // YouTube's layout: fragmented MP4 with one sidx after the moov (stream copies of the pair above).
  const sidxVideo = `long1080-${SOURCE_SECONDS}s-video-sidx.mp4`;
  const sidxAudio = `long1080-${SOURCE_SECONDS}s-audio-sidx.m4a`;
  for (const [from, to, frag] of [
    [dashVideo, sidxVideo, ["-movflags", "frag_keyframe+empty_moov+default_base_moof+global_sidx"]],
    [
      dashAudio,
      sidxAudio,
      ["-frag_duration", "2000000", "-movflags", "frag_custom+empty_moov+default_base_moof+global_sidx"],
    ],
  ] as const) {
    const { existsSync } = await import("node:fs");
    if (existsSync(join(mediaDir, to))) continue;
    const tmp = join(mediaDir, `${to}.tmp.mp4`);
    await run("ffmpeg", ["-v", "error", "-y", "-i", join(mediaDir, from), "-c", "copy", ...frag, "-f", "mp4", tmp]);
    await run("mv", [tmp, join(mediaDir, to)]);
  }
  // A fragmented MP4 without a sidx (both tracks, a fragment per keyframe): a copy only mediabunny reads in-process.
  const noSidx = `long1080-${SOURCE_SECONDS}s-nosidx.mp4`;
  if (PATHS && !(await import("node:fs")).existsSync(join(mediaDir, noSidx))) {
    const tmp = join(mediaDir, `${noSidx}.tmp.mp4`);
    const frag = ["-movflags", "frag_keyframe+empty_moov+default_base_moof"];
    await run("ffmpeg", ["-v", "error", "-y", "-i", join(mediaDir, h264), "-c", "copy", ...frag, "-f", "mp4", tmp]);
    await run("mv", [tmp, join(mediaDir, noSidx)]);
  }
  if (ONLY.has("vp9") || PATHS) {
    await makeVp9Bench(join(mediaDir, vp9), VP9_SECONDS);
    await makeOpusSource(join(mediaDir, opus), VP9_SECONDS);
  }
  // The Shorts page's English captions: a two-line cue every 2 s over the whole source.
  const captionsFile = `captions-${SOURCE_SECONDS}s.vtt`;
  const vtt = ["WEBVTT", ""];
  const clock = (t: number) => new Date(t * 1000).toISOString().slice(11, 23);
  for (let t = 0; t < SOURCE_SECONDS; t += 2)
    vtt.push(`${clock(t)} --> ${clock(t + 1.9)}`, `Caption ${t / 2}: a line long enough to wrap on a phone`, "");
  writeFileSync(join(mediaDir, captionsFile), vtt.join("\n"));
  // The origin runs in a process of its own, as it does for real (range-server-process.ts).
  const server = await startRangeServerProcess(mediaDir);
  const slowServer = SLOW_MS > 0 && !PATHS ? await startRangeServerProcess(mediaDir, { delayMs: SLOW_MS }) : null;
  const linkServer = PATHS
    ? await startRangeServerProcess(mediaDir, { delayMs: LINK.ms, bytesPerSecond: LINK.mbps * 1e6 })
    : null;
  const work = mkdtempSync(join(tmpdir(), "clipcut-bench-"));

  // The stand-in yt-dlp answers the two page URLs with DASH pairs pointing at the range server.
  const headers = { "User-Agent": "Mozilla/5.0 ClipCut-bench" };
  const fixture = join(work, "yt.json");
  const dashPage = "https://www.youtube.com/watch?v=benchdash01";
  const vp9Page = "https://www.youtube.com/watch?v=benchvp9_01";
  const sidxPage = "https://www.youtube.com/watch?v=benchsidx01";
  const slowSidxPage = "https://www.youtube.com/watch?v=benchslow01";
  const shortsPage = "https://www.youtube.com/watch?v=benchshort1";
  /** yt-dlp's answer for a bench page of run r: a video-only and an audio-only stream on the range server. */
  const page = (
    id: string,
    duration: number,
    r: number,
    video: { name: string; id: string; ext: string; codec: string; height: number },
    audio: { name: string; id: string; ext: string; codec: string },
    slow = false,
  ) => ({
    id,
    title: id,
    duration,
    formats: [
      { format_id: audio.id, ext: audio.ext, vcodec: "none", acodec: audio.codec },
      { format_id: video.id, ext: video.ext, vcodec: video.codec, acodec: "none", height: video.height },
    ].map((f, i) => ({
      ...f,
      url: variant((slow ? slowServer! : server).url(i === 0 ? audio.name : video.name), r),
      http_headers: headers,
    })),
  });
  const pages = (r: number) => ({
    [variant(dashPage, r)]: page(
      "benchdash01",
      SOURCE_SECONDS,
      r,
      { name: dashVideo, id: "137", ext: "mp4", codec: "avc1.640028", height: 1080 },
      { name: dashAudio, id: "140", ext: "m4a", codec: "mp4a.40.2" },
    ),
    [variant(vp9Page, r)]: page(
      "benchvp9_01",
      VP9_SECONDS,
      r,
      { name: vp9, id: "271", ext: "webm", codec: "vp09.00.50.08", height: 1440 },
      { name: opus, id: "251", ext: "webm", codec: "opus" },
    ),
    [variant(sidxPage, r)]: page(
      "benchsidx01",
      SOURCE_SECONDS,
      r,
      { name: sidxVideo, id: "137", ext: "mp4", codec: "avc1.640028", height: 1080 },
      { name: sidxAudio, id: "140", ext: "m4a", codec: "mp4a.40.2" },
    ),
    [variant(shortsPage, r)]: {
      ...page(
        "benchshort1",
        SOURCE_SECONDS,
        r,
        { name: dashVideo, id: "137", ext: "mp4", codec: "avc1.640028", height: 1080 },
        { name: dashAudio, id: "140", ext: "m4a", codec: "mp4a.40.2" },
      ),
      subtitles: { en: [{ ext: "vtt", url: server.url(captionsFile), name: "English" }] },
    },
    ...(slowServer
      ? {
          [variant(slowSidxPage, r)]: page(
            "benchslow01",
            SOURCE_SECONDS,
            r,
            { name: sidxVideo, id: "137", ext: "mp4", codec: "avc1.640028", height: 1080 },
            { name: sidxAudio, id: "140", ext: "m4a", codec: "mp4a.40.2" },
            true,
          ),
        }
      : {}),
  });
  // A variant per clip start and run (up to four starts): see `variant`.
  const byUrl = Object.assign({}, ...Array.from({ length: 8 * REPEAT + 2 }, (_, r) => pages(r)));
  writeFileSync(fixture, JSON.stringify({ byUrl }));
  process.env.FAKE_YTDLP_JSON = fixture;

  const serve = await startServeHarness({ tools, workDir: work });
  if (linkServer) {
    const table = await benchPaths({
      serve,
      origins: { loopback: server, realistic: linkServer },
      fixture,
      files: { progressive: h264, sidxVideo, sidxAudio, noSidx, vp9, opus },
      h264Seconds: SOURCE_SECONDS,
      vp9Seconds: VP9_SECONDS,
      repeat: REPEAT,
    });
    await serve.close();
    await server.close();
    await linkServer.close();
    rmSync(work, { recursive: true, force: true });
    process.stdout.write(`${table.join("\n")}\n`);
    return;
  }
  const installed = INSTALLED ? installCompanion(work) : null;
  const coldStart = installed ? await coldStartMs(installed) : null;
  // The installed CLI resolves page URLs with the same stand-in yt-dlp (it inherits this environment).
  process.env.CLIPCUT_YTDLP = FAKE_YTDLP;

  const measure = async (
    sourceName: string,
    tool: string,
    at: number,
    reference: string,
    fn: (run: number) => Promise<{ output: string; ok: boolean; note?: string }>,
    runs = REPEAT,
    origin = server,
    /** Untimed work before each run (the panel's report before its clip), not counted in its bytes or requests. */
    before?: (run: number) => Promise<void>,
  ) => {
    const samples = [];
    for (let r = 1; r <= runs; r++) {
      await before?.(r);
      await origin.reset();
      const cpuBefore = childCpuSeconds();
      const selfBefore = process.cpuUsage();
      const stalls = monitorEventLoopDelay({ resolution: 5 });
      stalls.enable();
      const began = performance.now();
      const result = await fn(r);
      const seconds = (performance.now() - began) / 1000;
      stalls.disable();
      const self = process.cpuUsage(selfBefore);
      const cpuAfter = childCpuSeconds();
      const served = await origin.stats();
      const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      samples.push({
        ...result,
        seconds,
        cpu,
        bytes: served.bytes,
        requests: served.requests,
        selfCpu: (self.user + self.system) / 1e6,
        stallMs: stalls.max / 1e6,
      });
      if (!result.ok) break;
    }
    const sorted = [...samples].sort((a, b) => a.seconds - b.seconds);
    const failed = samples.find((x) => !x.ok);
    const { output, ok, note, seconds, cpu, bytes, requests, selfCpu, stallMs } =
      failed ?? sorted[Math.floor((sorted.length - 1) / 2)]!;
    const spread =
      samples.length > 1
        ? `median of ${samples.length} (${sorted[0]!.seconds.toFixed(2)}–${sorted[sorted.length - 1]!.seconds.toFixed(2)} s)`
        : "";
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    const accuracy = ok ? await measureAccuracy(output, reference, at, FPS).catch(() => null) : null;
    const row = {
      source: sourceName,
      tool,
      at: `${at}s`,
      seconds,
      cpu,
      bytes,
      requests,
      selfCpu,
      stallMs,
      outBytes: ok ? sizeOf(output) : null,
      accuracy,
      load,
      note: ok ? [note, spread].filter(Boolean).join(", ") : `failed: ${note ?? ""}`,
    };
    rows.push(row);
    // Each row as soon as it is measured (stderr), so a long run that is stopped still leaves its figures.
    process.stderr.write(`${format(row)}\n`);
  };
  const viaServe = async (body: object) => {
    const job = await serve.job(body);
    const r = job.result;
    return {
      ok: job.status === "done",
      output: r?.output ?? "",
      note: r ? `${r.strategy}${r.snapped ? `, snapped to ${r.startSeconds}s` : ""}` : (job.error?.message ?? ""),
    };
  };
  /** The installed package's `cut`, a process of its own per clip (start-up included). */
  const viaInstalled = async (bin: string, source: string, at: number, strategy: string, out: string) => {
    const args = ["cut", source, "--start", String(at), "--end", String(at + CLIP), "--strategy", strategy];
    const r = await timeCommand(bin, [...args, "--out", out, "--allow-private-sources"]);
    return { ok: r.ok, output: out, note: r.ok ? strategy : r.stderr.slice(-200) };
  };
  /** Plain ffmpeg: the same inputs, input-seeked, with either stream copy or a full re-encode. */
  const plain = async (inputs: string[], at: number, out: string, codec: string[]) => {
    const args = ["-v", "error", "-y"];
    for (const input of inputs) args.push("-ss", String(at), "-t", String(CLIP), "-i", input);
    if (inputs.length === 2) args.push("-map", "0:v:0", "-map", "1:a:0");
    const r = await timeCommand("ffmpeg", [...args, ...codec, out]);
    return { ok: r.ok, output: out, note: r.ok ? "" : r.stderr.slice(-200) };
  };
  const X264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-c:a", "aac", "-b:a", "160k"];
  const VP9 = [
    "-c:v",
    "libvpx-vp9",
    "-deadline",
    "realtime",
    "-cpu-used",
    "7",
    "-row-mt",
    "1",
    "-crf",
    "18",
    "-b:v",
    "0",
  ];
  const VP9_ENDS = [
    ...["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-threads", "2"],
    ...["-row-mt", "1", "-tile-columns", "2", "-crf", "18", "-b:v", "0"],
  ];

  /** An H.264 1080p source cut into MP4 at 10.4 s and near its end (its file in the media folder, its URLs). */
  const h264Case = (key: string, name: string, file: string, inputs: string[], source: string) => ({
    key,
    name,
    positions: AT ?? (ONE ? [10.4] : [10.4, Math.round(SOURCE_SECONDS * 0.9) + 0.4]),
    reference: join(mediaDir, file),
    inputs,
    source,
    format: "mp4",
    reencode: X264,
    ext: "mp4",
  });
  const cases: {
    key: string;
    name: string;
    positions: number[];
    reference: string;
    inputs: string[];
    source: string;
    format: string;
    reencode: string[];
    reencodeLike?: string[];
    ext: string;
  }[] = [
    h264Case("progressive", "progressive 1080p H.264", h264, [server.url(h264)], server.url(h264)),
    h264Case("dash", "DASH 1080p H.264 + AAC", dashVideo, [server.url(dashVideo), server.url(dashAudio)], dashPage),
    h264Case("dashsidx", "DASH 1080p fMP4 + sidx", sidxVideo, [server.url(sidxVideo), server.url(sidxAudio)], sidxPage),
    {
      key: "vp9",
      name: "VP9 1440p + Opus",
      // One position: a 1440p VP9 full re-encode takes minutes on 2 cores (BENCH_VP9_BOTH=1 adds 10.4 s).
      positions: process.env.BENCH_VP9_BOTH ? [10.4, VP9_SECONDS - CLIP - 4.6] : [VP9_SECONDS - CLIP - 4.6],
      reference: join(mediaDir, vp9),
      inputs: [server.url(vp9), server.url(opus)],
      source: vp9Page,
      format: "webm",
      reencode: [...VP9, "-c:a", "libopus", "-b:a", "128k"],
      // The smart cut's VP9 ends now encode at speed 8 with a thread per core; a full re-encode with exactly those
      // settings is the like-for-like reference (the row above keeps the earlier tables' settings).
      reencodeLike: [...VP9_ENDS, "-c:a", "libopus", "-b:a", "128k"],
      ext: "webm",
    },
  ].filter((c) => ONLY.has(c.key));

  let cold = true;
  for (const c of cases) {
    for (const [p, at] of c.positions.entries()) {
      const q = c.key === "vp9" ? "1440p" : "1080p";
      /** This clip start's own URL for run r: its first copy is a first clip of that video in every run. */
      const source = (r: number) => variant(c.source, p * REPEAT + r);
      await measure(c.name, "ffmpeg -ss -i -t -c copy (floor)", at, c.reference, () =>
        plain(c.inputs, at, join(work, `floor-${c.key}-${at}.${c.ext}`), ["-c", "copy"]),
      );
      if (!SKIP_FULL)
        await measure(c.name, "ffmpeg full re-encode", at, c.reference, () =>
          plain(c.inputs, at, join(work, `full-${c.key}-${at}.${c.ext}`), c.reencode),
        );
      const like = c.reencodeLike;
      if (!SKIP_FULL && like)
        await measure(c.name, "ffmpeg full re-encode, smart's end settings", at, c.reference, () =>
          plain(c.inputs, at, join(work, `like-${c.key}-${at}.${c.ext}`), like),
        );
      // The first copy row resolves (yt-dlp stand-in for the page sources) and probes; the second is the next clip
      // of the same video, where the queue's cache has both (the floor row does neither: it is handed media URLs).
      const copyJob = (src: string) => ({
        source: src,
        startSeconds: at,
        endSeconds: at + CLIP,
        format: c.format,
        quality: c.key === "vp9" ? "1440p" : "1080p",
        strategy: "copy",
        allowSnap: true,
      });
      // The companion's first cut since it started: mediabunny's code is not yet compiled by the JIT.
      if (cold) {
        cold = false;
        await measure(
          c.name,
          "ClipCut copy (serve, cold: first cut after start)",
          at,
          c.reference,
          () => viaServe(copyJob(variant(c.source, 8 * REPEAT + 1))),
          1,
        );
      }
      if (slowServer && c.key === "dashsidx") {
        const slowInputs = [slowServer.url(sidxVideo), slowServer.url(sidxAudio)];
        await measure(
          c.name,
          "ffmpeg -ss -i -t -c copy (floor), slow link",
          at,
          c.reference,
          () => plain(slowInputs, at, join(work, `floor-slow-${c.key}-${at}.${c.ext}`), ["-c", "copy"]),
          REPEAT,
          slowServer,
        );
        await measure(
          c.name,
          "ClipCut copy (serve), slow link",
          at,
          c.reference,
          (r) => viaServe(copyJob(variant(slowSidxPage, p * REPEAT + r))),
          REPEAT,
          slowServer,
        );
      }
      // The extension's own order: the panel asks for the true-cut report (POST /dry-run: yt-dlp and ffprobe) while
      // the handles rest, then the creator asks for the clip, which reuses that resolved source. Only the clip is
      // timed; each run has its own URL variant, so nothing earlier resolved it.
      await measure(
        c.name,
        "ClipCut copy (serve, after the panel's report)",
        at,
        c.reference,
        (r) => viaServe(copyJob(variant(c.source, 4 * REPEAT + p * REPEAT + r))),
        REPEAT,
        server,
        async (r) => {
          await serve.report({
            source: variant(c.source, 4 * REPEAT + p * REPEAT + r),
            startSeconds: at,
            endSeconds: at + CLIP,
            format: c.format,
            quality: q,
            thumbnails: true,
          });
        },
      );
      const runs = [
        { strategy: "copy", label: "ClipCut copy (serve)" },
        { strategy: "copy", label: "ClipCut copy (serve, source cached)" },
        { strategy: "smart", label: "ClipCut smart (serve)" },
      ] as const;
      for (const { strategy, label } of runs) {
        await measure(c.name, label, at, c.reference, (r) =>
          viaServe({
            source: source(r),
            startSeconds: at,
            endSeconds: at + CLIP,
            format: c.format,
            quality: q,
            strategy,
            allowSnap: strategy === "copy",
          }),
        );
      }
      if (installed)
        for (const strategy of ["copy", "smart"])
          await measure(c.name, `installed CLI ${strategy}`, at, c.reference, (r) =>
            viaInstalled(
              installed,
              source(r),
              at,
              strategy,
              join(work, `cli-${strategy}-${c.key}-${at}-${r}.${c.ext}`),
            ),
          );
    }
  }
  if (ONLY.has("shorts")) {
    // 9:16 at the centre of the 1080p frame, the English track burned in; the clip on the frame grid, as the panel
    // sends it (the middles of its first and last frames).
    const name = `Shorts: DASH 1080p → 9:16 + burned-in captions, ${SHORTS_SECONDS} s`;
    const frames = { first: Math.round(SHORTS_AT * FPS), last: Math.round((SHORTS_AT + SHORTS_SECONDS) * FPS) - 1 };
    const range = companionRange(frames, FPS);
    const crop = cropFor({ width: 1920, height: 1080 }, "9:16", 0.5)!;
    const sameGraph = join(work, "shorts-plain");
    mkdirSync(sameGraph, { recursive: true });
    await measure(name, "ffmpeg, the same filter graph", SHORTS_AT, "", async () => {
      const out = join(sameGraph, "plain.mp4");
      const command = shortsCommand({
        videoInput: ["-i", server.url(dashVideo)],
        audioInput: ["-i", server.url(dashAudio)],
        audioCodec: "aac",
        ...range,
        fps: FPS,
        source: { width: 1920, height: 1080 },
        crop,
        scaleTo: null,
        captions: {
          cues: parseCaptions(readFileSync(join(mediaDir, captionsFile), "utf8")),
          mode: "burn",
        },
        watermark: false,
        format: "mp4",
        output: out,
        workDir: sameGraph,
      });
      // The captions file is written before the clock starts in the companion too (its cues are fetched first).
      for (const f of command.files) writeFileSync(f.path, f.text);
      const r = await timeCommand("ffmpeg", ["-hide_banner", "-v", "error", "-y", ...command.args]);
      return { ok: r.ok, output: out, note: r.ok ? `${command.frameCount} frames` : r.stderr.slice(-200) };
    });
    await measure(name, "ClipCut shorts (serve)", SHORTS_AT, "", (r) =>
      viaServe({
        source: variant(shortsPage, r),
        ...range,
        format: "mp4",
        quality: "1080p",
        aspect: "9:16",
        crop,
        captions: { track: "en", mode: "burn" },
      }),
    );
  }
  await serve.close();
  await server.close();
  await slowServer?.close();
  rmSync(work, { recursive: true, force: true });

  const lines = [
    `Sources over loopback HTTP with ranges; clip ${CLIP} s; ClipCut rows go through serve (POST /jobs → done).`,
    `progressive/DASH: ${SOURCE_SECONDS} s 1080p30 H.264 ~4 Mb/s, 2 s GOP, B-frames + AAC. VP9: ${VP9_SECONDS} s 1440p30 ~9 Mb/s, 5 s GOP + Opus.`,
    "Full re-encode: libx264 veryfast CRF 16 (the smart cut's earlier H.264 end settings; they are now superfast CRF 16 capped at 1.5x the source rate) / libvpx-vp9 realtime cpu-used 7 CRF 18 (FFmpeg's default single libvpx thread; the earlier tables' reference).",
    "VP9 'smart's end settings': libvpx-vp9 realtime cpu-used 8 CRF 18, -threads 2 -row-mt 1 -tile-columns 2, exactly what the smart cut encodes its head with.",
    coldStart === null
      ? "Installed package: not measured (BENCH_INSTALLED=0)."
      : `Installed package (companion:pack tarball, npm install into a temp prefix): \`clipcut-companion --version\` cold start ${coldStart.toFixed(0)} ms (median of 5).`,
    "",
    "| Source | Tool | Clip start | Wall time (s) | Child CPU (s) | Own CPU (s) | Longest stall (ms) | Bytes read (MB) | Requests | Output (MB) | Start error | Duration (s) | Hidden lead-in frames | Load 1/5/15 min | Note |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(format),
    "",
    "Ratios (same run): smart ÷ full re-encode (like-for-like for VP9), first copy ÷ plain copy, smart output ÷ plain copy output, bytes read by the cut ÷ the plain copy's and requests per cut (the copy rows: the first copy; the smart rows: the smart cut, in-process for H.264 into MP4).",
    "Goals of the in-process copy: first copy ÷ floor ≤ 0.7 (progressive, DASH with sidx, VP9), bytes ≤ 0.8, ≤ 20 requests for DASH at 150 s; report the slow-link and cold rows.",
    "",
    "| Source | Clip start | Path | smart ÷ full | first copy ÷ floor | smart bytes ÷ floor bytes | bytes read ÷ floor | requests |",
    "|---|---|---|---|---|---|---|---|",
    ...ratioRows().filter((l) => !l.startsWith("| Shorts")),
    ...shortsRatio(),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

if (process.argv.includes("--help")) {
  // The usage is this file's opening comment.
  const text = readFileSync(new URL(import.meta.url), "utf8");
  process.stdout.write(`${(/\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? "").replace(/^ \* ?/gm, "")}\n`);
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
