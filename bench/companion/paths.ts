/**
 * Does each cut path earn its place? (`BENCH_ONLY=paths npx tsx bench/companion-cut.ts`.) Every path's clips are cut
 * through `serve` twice over: from the loopback range server, and from one behind a realistic link (a home connection
 * to a video CDN: one pipe of BENCH_LINK_MBPS MB/s, 6 by default, shared by all the companion's connections, and
 * BENCH_LINK_MS, 20 by default, before each answer's first byte). Where another path would take the same clip, it is
 * cut again with the path left out (`benchHook` in paths/index.ts), so the next path in CUT_PATHS takes it. Each clip
 * follows the panel's true-cut report, as in the extension (the report is not timed), on a URL of its own, so no
 * clip is cut from a source a previous run cached. The table gives the median of BENCH_REPEAT runs, the next path's
 * time on the realistic link, their ratio (the rule: a path stays where it is the only one that takes a clip, or at
 * least 15% faster there than the next) and the lines of source only that path needs (import graph, below).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { cropFor } from "../../app/domain/crop";
import { benchHook } from "../../extension/companion/src/paths/index";
import type { RemoteRangeServer } from "./range-server-process";
import type { startServeHarness } from "./serve-harness";

type Serve = Awaited<ReturnType<typeof startServeHarness>>;
type Link = "loopback" | "realistic";

export interface PathsBenchSetup {
  serve: Serve;
  origins: Record<Link, RemoteRangeServer>;
  /** The stand-in yt-dlp's fixture file: the DASH pages of this bench are added to it. */
  fixture: string;
  files: { progressive: string; sidxVideo: string; sidxAudio: string; noSidx: string; vp9: string; opus: string };
  h264Seconds: number;
  vp9Seconds: number;
  repeat: number;
}

/** The realistic link: MB/s of the one pipe, and ms before each answer's first byte. */
export const LINK = {
  mbps: Number(process.env.BENCH_LINK_MBPS ?? 6),
  ms: Number(process.env.BENCH_LINK_MS ?? 20),
};

const COMPANION_SRC = new URL("../../extension/companion/src/", import.meta.url).pathname;
const CLIP = Number(process.env.BENCH_PATHS_SECONDS ?? 15);
/** The long copy clips' length (s): a DASH clip of 120 s at 4 Mb/s is past the range reader's 48 MB cache. */
const LONG = Number(process.env.BENCH_PATHS_LONG ?? 120);

/** One clip a path takes: the job's body for a source URL, and the paths to leave out so the next one takes it. */
interface Scenario {
  path: string;
  clip: string;
  source: "progressive" | "noSidx" | "sidx" | "vp9";
  job: Record<string, unknown>;
  /** Left out for the next path's run; absent when no other path takes the clip. */
  next?: { path: string; skip: string[] };
}

const stagedOnly = process.env.BENCH_PATHS_STAGED !== "0";

function scenarios(h264At: number, vp9At: number): Scenario[] {
  const range = (at: number) => ({ startSeconds: at, endSeconds: at + CLIP });
  const copy = { strategy: "copy", allowSnap: true };
  const h264 = { ...range(h264At), quality: "1080p" };
  // A start inside a GOP (2 s GOPs): the extension's frame-exact clip (auto) is a smart cut.
  const smart = { ...range(h264At), quality: "1080p", strategy: "auto" };
  const list: Scenario[] = [
    {
      path: "fragmented MP4 byte copy",
      clip: "copy, DASH fMP4 + sidx → MP4",
      source: "sidx",
      job: { ...h264, ...copy, format: "mp4" },
      next: { path: "mediabunny copy", skip: ["fragmented MP4 byte copy"] },
    },
    {
      // Longer than the range reader's 48 MB cache: mediabunny lists the whole span before it writes, and reads it
      // again.
      path: "fragmented MP4 byte copy",
      clip: `copy, DASH fMP4 + sidx → MP4, ${LONG} s`,
      source: "sidx",
      job: { ...range(h264At - LONG + CLIP), endSeconds: h264At + CLIP, quality: "1080p", ...copy, format: "mp4" },
      next: { path: "mediabunny copy", skip: ["fragmented MP4 byte copy"] },
    },
    {
      path: "Matroska byte copy",
      clip: "copy, VP9 WebM + Opus → WebM",
      source: "vp9",
      job: { ...range(vp9At), quality: "1440p", ...copy, format: "webm" },
      next: { path: "mediabunny copy", skip: ["Matroska byte copy"] },
    },
    {
      // The byte copies refuse a progressive MP4 (until 2026-11-29 our MP4 byte copy took it: it was 4–12% faster
      // than mediabunny's on the realistic link, 10% on a 120 s clip; bench/results/companion-cut.md).
      path: "mediabunny copy",
      clip: "copy, progressive MP4 → MP4",
      source: "progressive",
      job: { ...h264, ...copy, format: "mp4" },
      next: { path: "staged copy", skip: ["mediabunny copy"] },
    },
    {
      // Paths 1 and 2 refuse Matroska output from MP4.
      path: "mediabunny copy",
      clip: "copy, progressive MP4 → MKV",
      source: "progressive",
      job: { ...h264, ...copy, format: "mkv" },
      next: { path: "staged copy", skip: ["mediabunny copy"] },
    },
    {
      path: "mediabunny copy",
      clip: "copy, fMP4 without sidx → MP4",
      source: "noSidx",
      job: { ...h264, ...copy, format: "mp4" },
      next: { path: "staged copy", skip: ["mediabunny copy"] },
    },
    {
      // Until 2026-11-29 an in-process H.264 smart cut took these first: it was 0.84–1.11 times the staged one's
      // speed on the realistic link (bench/results/companion-cut.md).
      path: "staged H.264 smart cut",
      clip: "smart, progressive MP4 → MP4",
      source: "progressive",
      job: { ...smart, format: "mp4" },
    },
    {
      path: "staged H.264 smart cut",
      clip: "smart, DASH fMP4 + sidx → MP4",
      source: "sidx",
      job: { ...smart, format: "mp4" },
    },
  ];
  if (!stagedOnly) return pick(list);
  const crop = cropFor({ width: 1920, height: 1080 }, "9:16", 0.5)!;
  return pick([
    ...list,
    { path: "staged audio", clip: "MP3 from progressive MP4", source: "progressive", job: { ...h264, format: "mp3" } },
    {
      path: "staged VP9 smart cut",
      clip: "smart, VP9 WebM + Opus → WebM",
      source: "vp9",
      job: { ...range(vp9At), quality: "1440p", strategy: "auto", format: "webm" },
    },
    {
      // The Shorts paths are timed, not judged here: staged shorts would take this clip after the streamed one.
      path: "streamed shorts",
      clip: "9:16 crop, DASH fMP4 + sidx → MP4",
      source: "sidx",
      job: { ...smart, format: "mp4", aspect: "9:16", crop },
    },
    {
      path: "staged re-encode",
      clip: "720p, progressive MP4 → MP4",
      source: "progressive",
      job: { ...smart, quality: "720p", format: "mp4" },
    },
  ]);
}

/** BENCH_PATHS_ONLY: the scenarios whose path name contains one of these (comma-separated) words. */
function pick(list: Scenario[]): Scenario[] {
  const only = process.env.BENCH_PATHS_ONLY?.split(",");
  return only ? list.filter((s) => only.some((w) => s.path.includes(w))) : list;
}

interface Timing {
  seconds: number;
  /** CPU of this process (the companion, with the stand-in API) and of its finished children (ffmpeg, ffprobe). */
  cpu: number;
  bytes: number;
  requests: number;
  took: string;
}

/** This process's CPU seconds and its finished children's (Linux /proc: cutime + cstime, 100 ticks a second). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (own.user + own.system) / 1e6 + (Number(fields[13]) + Number(fields[14])) / 100;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** The stand-in yt-dlp's pages for the DASH sources on both origins, per run (`r=` in the page URL). */
function writePages(o: PathsBenchSetup, runs: number): (source: "sidx" | "vp9", link: Link, r: number) => string {
  const id = (source: string, link: Link) => `bp${source}_${link.slice(0, 4)}`.padEnd(11, "_").slice(0, 11);
  const page = (source: "sidx" | "vp9", link: Link, r: number) =>
    `https://www.youtube.com/watch?v=${id(source, link)}&r=${r}`;
  const byUrl: Record<string, unknown> = JSON.parse(readFileSync(o.fixture, "utf8")).byUrl ?? {};
  const headers = { "User-Agent": "Mozilla/5.0 ClipCut-bench" };
  for (const link of ["loopback", "realistic"] as const)
    for (let r = 0; r < runs; r++)
      for (const source of ["sidx", "vp9"] as const) {
        const [video, audio] =
          source === "sidx"
            ? [
                { name: o.files.sidxVideo, format_id: "137", ext: "mp4", vcodec: "avc1.640028", height: 1080 },
                { name: o.files.sidxAudio, format_id: "140", ext: "m4a", acodec: "mp4a.40.2" },
              ]
            : [
                { name: o.files.vp9, format_id: "271", ext: "webm", vcodec: "vp09.00.50.08", height: 1440 },
                { name: o.files.opus, format_id: "251", ext: "webm", acodec: "opus" },
              ];
        const url = (name: string) => `${o.origins[link].url(name)}?r=${r}`;
        byUrl[page(source, link, r)] = {
          id: id(source, link),
          title: id(source, link),
          duration: source === "sidx" ? o.h264Seconds : o.vp9Seconds,
          formats: [
            { ...audio, name: undefined, vcodec: "none", url: url(audio.name), http_headers: headers },
            { ...video, name: undefined, acodec: "none", url: url(video.name), http_headers: headers },
          ],
        };
      }
  writeFileSync(o.fixture, JSON.stringify({ byUrl }));
  return page;
}

export async function benchPaths(o: PathsBenchSetup): Promise<string[]> {
  const loadBefore = load();
  const h264At = Number(process.env.BENCH_PATHS_AT ?? 150.4);
  const vp9At = Math.min(10.4, o.vp9Seconds - CLIP - 1);
  const list = scenarios(h264At, vp9At);
  // One URL per clip, path and run: every clip is a first clip of its video.
  const runsNeeded = list.length * 4 * o.repeat + 1;
  const page = writePages(o, runsNeeded);
  let serial = 0;
  const sourceUrl = (s: Scenario, link: Link) => {
    const r = ++serial;
    if (s.source === "sidx" || s.source === "vp9") return page(s.source, link, r);
    return `${o.origins[link].url(s.source === "progressive" ? o.files.progressive : o.files.noSidx)}?r=${r}`;
  };

  const cut = async (s: Scenario, link: Link, skip: string[]): Promise<Timing> => {
    const origin = o.origins[link];
    const body = { ...s.job, source: sourceUrl(s, link) };
    benchHook.skip = new Set(skip);
    try {
      // The panel's report comes first, as in the extension (not for sound only): the clip reuses the source.
      const { startSeconds, endSeconds, format, quality } = s.job;
      if (format !== "mp3") await o.serve.report({ source: body.source, startSeconds, endSeconds, format, quality });
      benchHook.took = "";
      await origin.reset();
      const cpuBefore = cpuSeconds();
      const began = performance.now();
      const job = await o.serve.job(body);
      const seconds = (performance.now() - began) / 1000;
      const cpu = cpuSeconds() - cpuBefore;
      const served = await origin.stats();
      if (job.status !== "done") throw new Error(`${s.clip} (${link}): ${job.error?.message ?? job.status}`);
      return { seconds, cpu, ...served, took: benchHook.took || `ffmpeg ${job.result!.strategy}` };
    } finally {
      benchHook.skip = new Set();
    }
  };

  const rows: string[] = [];
  const lines = ownLines();
  for (const s of list) {
    const times: Record<string, Timing[]> = {};
    for (let r = 0; r < o.repeat; r++)
      for (const link of ["realistic", "loopback"] as const) {
        (times[`this ${link}`] ??= []).push(await cut(s, link, []));
        if (s.next) (times[`next ${link}`] ??= []).push(await cut(s, link, s.next.skip));
      }
    const at = (key: string) => {
      const t = times[key];
      return t ? median(t.map((x) => x.seconds)) : null;
    };
    const fmt = (key: string) => {
      const t = times[key];
      if (!t) return "–";
      const mid = [...t].sort((a, b) => a.seconds - b.seconds)[Math.floor((t.length - 1) / 2)]!;
      const spread =
        t.length > 1
          ? ` (${Math.min(...t.map((x) => x.seconds)).toFixed(2)}–${Math.max(...t.map((x) => x.seconds)).toFixed(2)})`
          : "";
      const cpu = median(t.map((x) => x.cpu)).toFixed(2);
      return `${mid.seconds.toFixed(2)}${spread}, ${(mid.bytes / 1e6).toFixed(1)} MB/${mid.requests} req, CPU ${cpu}`;
    };
    // What took the clip, as seen by the bench (an in-process path by name, else ffmpeg's strategy).
    const took = (key: string) => [...new Set((times[key] ?? []).map((t) => t.took))].join("/");
    const ratio =
      at("next realistic") && at("this realistic") ? (at("next realistic")! / at("this realistic")!).toFixed(2) : "–";
    const row = `| ${s.path} | ${s.clip} | ${fmt("this realistic")} | ${fmt("this loopback")} | ${s.next?.path ?? "none: only taker"} | ${fmt("next realistic")} | ${fmt("next loopback")} | ${ratio} | ${lines.get(s.path) ?? "–"} | ${took("this realistic")}; ${took("next realistic") || "–"} |`;
    process.stderr.write(`${row}\n`);
    rows.push(row);
  }
  return [
    `Cut paths, ${CLIP} s clips through serve after the panel's report; medians of ${o.repeat} (range), bytes and requests the origin answered, median CPU s (the companion's process and its ffmpeg/ffprobe children).`,
    `Realistic link: one ${LINK.mbps} MB/s pipe shared by every connection, ${LINK.ms} ms before each answer's first byte; loopback: no limit.`,
    `H.264 clips at ${h264At} s of a ${o.h264Seconds} s 1080p30 source (~4 Mb/s, 2 s GOP); VP9 at ${vp9At} s of a ${o.vp9Seconds} s 1440p30 source (~9 Mb/s, 5 s GOP).`,
    `Load average (1/5/15 min): ${loadBefore} at start, ${load()} at end.`,
    "",
    "| Path | Clip | Realistic link (s) | Loopback (s) | Next path that takes it | Next, realistic (s) | Next, loopback (s) | Next ÷ this, realistic | Lines it alone owns | Taken by (this; next) |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ];
}

/** Each path's entry module in the companion's source (relative to src/). */
const ENTRIES: Record<string, string[]> = {
  "fragmented MP4 byte copy": ["paths/mp4-copy.ts"],
  "Matroska byte copy": ["paths/mkv-copy.ts"],
  "mediabunny copy": ["paths/direct-copy.ts"],
  "streamed shorts": ["paths/streamed-shorts.ts"],
  "staged audio": ["paths/staged/audio.ts"],
  "staged copy": ["paths/staged/copy.ts"],
  "staged remux": ["paths/staged/remux.ts"],
  "staged H.264 smart cut": ["paths/staged/smart-h264.ts"],
  "staged VP9 smart cut": ["paths/staged/smart-vp9.ts"],
  "staged shorts": ["paths/staged/shorts.ts"],
  "staged re-encode": ["paths/staged/reencode.ts"],
};

/**
 * The lines of source only a path needs: the modules that nothing else reaches once its entry module is gone (the
 * companion's import graph, tests left out), with `wc -l`'s count. A module two paths share (direct-copy.ts's reading,
 * which the smart cut uses too) counts for neither but its owner's entry; the figure says "module (+ only its)".
 */
function ownLines(): Map<string, string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) files.push(p);
    }
  };
  walk(COMPANION_SRC);
  const imports = new Map<string, string[]>();
  for (const f of files) {
    const found = [...readFileSync(f, "utf8").matchAll(/from "(\.[^"]+)"/g)].map((m) => resolve(dirname(f), m[1]!));
    imports.set(
      f,
      found.flatMap((p) => [`${p}.ts`, join(p, "index.ts")].filter((c) => imports.has(c) || files.includes(c))),
    );
  }
  const importedBy = new Set([...imports.values()].flat());
  const roots = files.filter((f) => !importedBy.has(f));
  const reach = (gone: Set<string>) => {
    const seen = new Set<string>();
    const stack = roots.filter((f) => !gone.has(f));
    while (stack.length) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const g of imports.get(f) ?? []) if (!gone.has(g)) stack.push(g);
    }
    return seen;
  };
  const all = reach(new Set());
  const count = (f: string) => readFileSync(f, "utf8").split("\n").length - 1;
  const out = new Map<string, string>();
  for (const [path, entries] of Object.entries(ENTRIES)) {
    const gone = new Set(entries.map((e) => join(COMPANION_SRC, e)));
    const left = reach(gone);
    const owned = [...all].filter((f) => !left.has(f));
    const total = owned.reduce((n, f) => n + count(f), 0);
    out.set(path, `${total} (${owned.map((f) => relative(COMPANION_SRC, f)).join(", ")})`);
  }
  return out;
}
