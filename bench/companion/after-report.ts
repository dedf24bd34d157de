/**
 * One copy job through `serve` as the extension asks for it: the panel's true-cut report (POST /dry-run), then the clip
 * (POST /jobs → done on the WebSocket), N times, each on its own URL variant. Prints per job its wall time, the
 * process's CPU, its minor page faults (memory touched for the first time: about 2.5 us each on this machine, ~18 us on
 * an older VM) and its GC pauses (full collections, counted, and scavenges). CLIPCUT_TRACE=1 adds the job's phases.
 *   npx tsx bench/companion/after-report.ts [dashsidx|vp9|progressive] [at] [runs]
 * MODE=cached: the same source was cut just before (no report); MODE=first: no report. CLIP_SECONDS: the clip's
 * length (20). PROF=1 writes a V8 CPU profile of each job from the third on into /tmp/arprof (sampled every 200 us);
 * HEAPPROF=1 a sampled allocation profile (garbage included). BENCH_HEAP=default: without the CLI's heap setting.
 * BENCH_V8_FLAGS="--flag …": more V8 flags, set once serve is up as the heap setting is (A/B runs of the JIT's).
 * JOBMARKS=1 prints each job's start and end on CLOCK_MONOTONIC, to keep only the jobs' samples of a
 * `perf record -k CLOCK_MONOTONIC` run.
 * Needs the sources bench/companion-cut.ts generates (tmpdir/clipcut-bench-media-v1).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "node:inspector/promises";
import { PerformanceObserver, constants as perfConstants } from "node:perf_hooks";
import { toolPaths } from "../../extension/companion/src/host/tools";
import { startRangeServerProcess } from "./range-server-process";
import { startServeHarness } from "./serve-harness";

const which = process.argv[2] ?? "dashsidx";
const at = Number(process.argv[3] ?? 10.5);
const runs = Number(process.argv[4] ?? 6);
const mode = process.env.MODE ?? "report";
const clipSeconds = Number(process.env.CLIP_SECONDS ?? 20);
const mediaDir = join(tmpdir(), "clipcut-bench-media-v1");
const server = await startRangeServerProcess(mediaDir);
const work = mkdtempSync(join(tmpdir(), "clipcut-ar-"));
const names: Record<string, [string, string, string, number]> = {
  dashsidx: ["long1080-240s-video-sidx.mp4", "long1080-240s-audio-sidx.m4a", "mp4", 240],
  vp9: ["vp9-1440-60s.webm", "opus-60s.webm", "webm", 60],
  progressive: ["long1080-240s.mp4", "", "mp4", 240],
};
const [vname, aname, format, duration] = names[which]!;
const byUrl: Record<string, unknown> = {};
const pageOf = (r: number) => `https://www.youtube.com/watch?v=scratch${which}&r=${r}`;
for (let r = 0; r < runs * 2; r++) {
  const formats = [
    {
      format_id: "137",
      ext: which === "vp9" ? "webm" : "mp4",
      vcodec: which === "vp9" ? "vp09.00.50.08" : "avc1.640028",
      acodec: aname ? "none" : "mp4a.40.2",
      height: which === "vp9" ? 1440 : 1080,
      url: `${server.url(vname)}?r=${r}`,
    },
  ];
  if (aname)
    formats.unshift({
      format_id: "140",
      ext: which === "vp9" ? "webm" : "m4a",
      vcodec: "none",
      acodec: which === "vp9" ? "opus" : "mp4a.40.2",
      url: `${server.url(aname)}?r=${r}`,
    } as never);
  byUrl[pageOf(r)] = {
    id: `scratch${r}`,
    title: "s",
    duration,
    formats: formats.map((f) => ({ ...f, http_headers: {} })),
  };
}
const fixture = join(work, "yt.json");
writeFileSync(fixture, JSON.stringify({ byUrl }));
process.env.FAKE_YTDLP_JSON = fixture;
const serve = await startServeHarness({ tools: toolPaths(), workDir: work });
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 200 });
const profile = process.env.PROF === "1";
const heapProfile = process.env.HEAPPROF === "1";
const body = (r: number) => ({
  source: pageOf(r),
  startSeconds: at,
  endSeconds: at + clipSeconds,
  format,
  quality: which === "vp9" ? "1440p" : "1080p",
});
const times: number[] = [];
// GC pauses on the main thread while a job runs: major (mark-compact, incremental steps) and minor (scavenge).
// Entries arrive after the fact: each job keeps those that began within its own span.
const gcs: { at: number; ms: number; kind: number | undefined }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gcs.push({ at: e.startTime, ms: e.duration, kind: (e as { detail?: { kind?: number } }).detail?.kind });
}).observe({ entryTypes: ["gc"] });
const gcWithin = (from: number, to: number) => {
  const gcMs = { major: 0, minor: 0, majors: 0 };
  for (const g of gcs) {
    if (g.at < from || g.at > to) continue;
    if (g.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) gcMs.minor += g.ms;
    else {
      gcMs.major += g.ms;
      if (g.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) gcMs.majors++;
    }
  }
  return gcMs;
};
for (let r = 0; r < runs; r++) {
  if (mode === "report") {
    await serve.report({ ...body(r), thumbnails: true });
  }
  if (mode === "cached") {
    await serve.job({ ...body(r), strategy: "copy", allowSnap: true });
  }
  if (profile && r >= 2) await session.post("Profiler.start");
  if (heapProfile && r >= 2)
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as never);
  if (process.env.JOBMARKS === "1") process.stderr.write(`mark start ${process.hrtime.bigint()}\n`);
  const began = performance.now();
  const cpu = process.cpuUsage();
  const flt0 = process.resourceUsage().minorPageFault;
  const job = await serve.job({ ...body(r), strategy: "copy", allowSnap: true });
  const ms = performance.now() - began;
  if (process.env.JOBMARKS === "1") process.stderr.write(`mark end ${process.hrtime.bigint()}\n`);
  const used = process.cpuUsage(cpu);
  const flt = process.resourceUsage().minorPageFault - flt0;
  await new Promise((r) => setTimeout(r, 20)); // the observer's last entries
  const gcMs = gcWithin(began, began + ms);
  if (profile && r >= 2) {
    const { profile: p } = await session.post("Profiler.stop");
    mkdirSync("/tmp/arprof", { recursive: true });
    writeFileSync(join("/tmp/arprof", `job-${which}-${mode}-${r}.cpuprofile`), JSON.stringify(p));
  }
  if (heapProfile && r >= 2) {
    const { profile: p } = await session.post("HeapProfiler.stopSampling");
    mkdirSync("/tmp/arprof", { recursive: true });
    writeFileSync(join("/tmp/arprof", `heap-${which}-${mode}-${r}.heapprofile`), JSON.stringify(p));
  }
  times.push(ms);
  process.stderr.write(
    `run ${r}: ${job.status} ${ms.toFixed(0)} ms, cpu ${((used.user + used.system) / 1000).toFixed(0)} ms, faults ${flt}, gc ${gcMs.majors} major ${gcMs.major.toFixed(0)} ms + minor ${gcMs.minor.toFixed(0)} ms, load ${loadavg()[0]!.toFixed(2)}\n`,
  );
}
times.sort((a, b) => a - b);
process.stderr.write(
  `median ${times[Math.floor(runs / 2)]!.toFixed(0)} ms, most resident ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`,
);
await serve.close();
await server.close();
