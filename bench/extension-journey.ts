/**
 * The extension journey, timed: the Chromium e2e's journey (tests/e2e/extension.spec.ts, "journey: …") run BENCH_RUNS
 * times under the e2e lock, each a fresh browser that starts the companion itself (native messaging), with
 * CLIPCUT_TRACE=1 so the companion's log carries its job's phases. Prints, per run and as medians, with the load
 * average at each run's start and end:
 *   - panel open: click on Clip → first frame with Create enabled (the page's clock), and the harness's figure;
 *   - Create → "Saved as" (the page's clock: the trusted click, then the panel naming the written, checked, captured
 *     file), split by the companion's log into: Create → submit reached the companion (the background's checks, and
 *     a host start when the browser has to start one), host start (process start → its first answer; "–" when the
 *     host was already running), resolve (yt-dlp and the probe), hold (the ledger's reservation), cut, checks (the
 *     written file verified; "in cut" for the in-process paths, which check as they write), capture, and the done
 *     event → the panel;
 *   - Create → finished (the spec's older figure: it adds reloading the popup and its recent clips).
 * It also says what the launcher runs (node through tsx, or plain JavaScript).
 *
 *   npx tsx bench/extension-journey.ts                  (npm run build, then 3 runs: ~4 min)
 *   BENCH_RUNS=1 BENCH_BUILD=0 npx tsx bench/extension-journey.ts
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";

const LOCK = "/tmp/clipcut-e2e.lock";
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const BUILD = process.env.BENCH_BUILD !== "0";

// The e2e needs the site's build and fixed ports: hold the same lock as every other Playwright run, for all runs.
if (process.env.CLIPCUT_JOURNEY_LOCKED !== "1") {
  const self = spawnSync("flock", [LOCK, "npx", "tsx", process.argv[1]!], {
    stdio: "inherit",
    env: { ...process.env, CLIPCUT_JOURNEY_LOCKED: "1" },
  });
  process.exit(self.status ?? 1);
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

interface Marks {
  panelOpenHarnessMs: number;
  panelOpenPageMs: number;
  createAt: number;
  savedAt: number;
  finishedMs: number;
  hostLog: string;
  cpu: { companionMs: number; browserMs: number; byType: Record<string, number> };
  playingAtCreate: boolean;
  mainThreadMs: Record<string, number>;
}

interface Row {
  run: number;
  loadBefore: string;
  loadAfter: string;
  launcher: string;
  panelPage: number;
  panelHarness: number;
  toSubmit: number;
  hostStart: number | null;
  hostLoad: number | null;
  hostCpu: number | null;
  /** The panel's reports (dry runs) the companion was answering while the job ran: how many, and their ms inside it. */
  reportsDuring: number;
  reportsDuringMs: number;
  companionCpu: number;
  browserCpu: number;
  browserByType: Record<string, number>;
  playing: boolean;
  mainThread: Record<string, number>;
  resolve: number;
  hold: number;
  cut: number;
  checks: number | null;
  capture: number;
  toPanel: number;
  total: number;
  finished: number;
  strategy: string;
}

/** A log line: `<ISO time> [clipcut-companion <pid>] <text>`. */
function logLines(path: string) {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => /^(\S+) \[clipcut-companion (\d+)\] (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ at: Date.parse(m[1]!), pid: m[2]!, text: m[3]! }));
}

/** `name 12ms @34` spans of a trace line. */
function spans(trace: string) {
  const body = trace.slice(trace.indexOf("ms: ") + 4);
  return body.split(" | ").map((part) => {
    const m = /^(.*) (\d+)ms @(\d+)$/.exec(part);
    return m ? { name: m[1]!, ms: Number(m[2]), at: Number(m[3]) } : { name: part, ms: 0, at: 0 };
  });
}

/** What the launcher the browser starts runs, shortened: node through tsx, or a JavaScript file. */
function launcherKind(hostLog: string): string {
  const launcher = join(dirname(hostLog), "config", "native-host", "clipcut-companion-host");
  if (!existsSync(launcher)) return "?";
  const exec = readFileSync(launcher, "utf8")
    .split("\n")
    .find((l) => l.startsWith("exec "));
  if (!exec) return "?";
  if (exec.includes("tsx")) return "node + tsx (TypeScript compiled at start)";
  const script = /'([^']+\.(?:c?js|mjs))'/.exec(exec)?.[1];
  return script ? `node ${script.split("/").slice(-2).join("/")} (plain JavaScript)` : exec.slice(0, 80);
}

function analyse(run: number, marks: Marks, loadBefore: string, loadAfter: string): Row {
  const lines = logLines(marks.hostLog);
  // The journey's one job: the first submitted after the click on Create.
  const submitted = lines.find((l) => l.at >= marks.createAt - 5 && l.text.startsWith("submitted "));
  if (!submitted) throw new Error(`no submit in ${marks.hostLog} after Create`);
  const id = submitted.text.slice("submitted ".length, "submitted ".length + 8);
  const trace = lines.find((l) => l.text.startsWith(`[clipcut trace] job ${id} `));
  const done = lines.find((l) => l.text.startsWith(`job ${id} done`));
  if (!trace || !done) throw new Error(`job ${id} has no trace or no done line in ${marks.hostLog}`);
  const s = spans(trace.text);
  const span = (name: string) => s.find((x) => x.name === name);
  const reserve = span("reserve")!;
  const capture = span("capture")!;
  const verify = span("verify");
  const inProcess = s.find((x) => x.name.endsWith("(in-process)"));
  // The host that ran the job: started after the click on Create, or already running.
  const started = lines.find((l) => l.pid === submitted.pid && l.text.startsWith("started by "));
  const fresh = started !== undefined && started.at >= marks.createAt;
  const first = lines.find((l) => l.pid === submitted.pid && l.text.startsWith("first answer "));
  const loaded = started ? Number(/loaded in (\d+) ms/.exec(started.text)?.[1] ?? NaN) : NaN;
  const afterHold = reserve.at + reserve.ms;
  // `dryRun answered in N ms` lines (CLIPCUT_TRACE=1): the report's span, against the job's (submit → done).
  const reports = lines
    .filter((l) => l.pid === submitted.pid && l.text.startsWith("dryRun answered in "))
    .map((l) => ({ end: l.at, start: l.at - Number(/in (\d+) ms/.exec(l.text)?.[1] ?? 0) }))
    .map((r) => Math.max(0, Math.min(r.end, done.at) - Math.max(r.start, submitted.at)))
    .filter((ms) => ms > 0);
  return {
    run,
    loadBefore,
    loadAfter,
    launcher: launcherKind(marks.hostLog),
    panelPage: marks.panelOpenPageMs,
    panelHarness: marks.panelOpenHarnessMs,
    toSubmit: submitted.at - marks.createAt,
    hostStart: fresh && first ? Number(/first answer (\d+) ms/.exec(first.text)?.[1]) : null,
    hostLoad: fresh && Number.isFinite(loaded) ? loaded : null,
    hostCpu: fresh && first ? Number(/CPU (\d+) ms/.exec(first.text)?.[1] ?? NaN) : null,
    reportsDuring: reports.length,
    reportsDuringMs: reports.reduce((a, b) => a + b, 0),
    companionCpu: marks.cpu.companionMs,
    browserCpu: marks.cpu.browserMs,
    browserByType: marks.cpu.byType,
    playing: marks.playingAtCreate,
    mainThread: marks.mainThreadMs,
    resolve: span("source")?.ms ?? 0,
    hold: reserve.ms,
    cut: capture.at - afterHold - (verify?.ms ?? 0),
    checks: verify ? verify.ms : null,
    capture: capture.ms,
    toPanel: marks.savedAt - done.at,
    total: marks.savedAt - marks.createAt,
    finished: marks.finishedMs,
    strategy: inProcess ? inProcess.name : verify ? "staged (ffmpeg)" : "?",
  };
}

function runOnce(run: number): Row {
  const dir = mkdtempSync(join(tmpdir(), "clipcut-journey-bench-"));
  const marksFile = join(dir, "marks.json");
  const loadBefore = load();
  const res = spawnSync(
    "npx",
    ["playwright", "test", "tests/e2e/extension.spec.ts", "-g", "journey", "--reporter=line", "--retries=0"],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        CLIPCUT_TRACE: "1",
        CLIPCUT_JOURNEY_MARKS: marksFile,
        // The extension is built by the first run; the later ones reuse it.
        ...(run > 1 ? { E2E_EXTENSION_BUILT: "1" } : {}),
      },
    },
  );
  const loadAfter = load();
  const out = `${res.stdout}\n${res.stderr}`;
  if (res.status !== 0 || !existsSync(marksFile))
    throw new Error(`run ${run}: the journey failed (exit ${res.status}):\n${out.slice(-4000)}`);
  const marks = JSON.parse(readFileSync(marksFile, "utf8")) as Marks;
  rmSync(dir, { recursive: true, force: true });
  return analyse(run, marks, loadBefore, loadAfter);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
};
const cell = (v: number | null) => (v === null ? "–" : String(v));

/** "watch 1011 (script 150, layout 20, recalcstyle 52, devtoolscommand 245)" for each page. */
function mainThreads(ms: Record<string, number>): string {
  return Object.keys(ms)
    .filter((key) => !key.includes(" "))
    .map((page) => {
      const parts = Object.entries(ms).filter(([key]) => key.startsWith(`${page} `));
      return `${page} ${ms[page]} (${parts.map(([key, v]) => `${key.slice(page.length + 1)} ${v}`).join(", ")})`;
    })
    .join(", ");
}

function print(rows: Row[]) {
  const columns: [string, (r: Row) => number | null][] = [
    ["panel open (page)", (r) => r.panelPage],
    ["panel open (harness)", (r) => r.panelHarness],
    ["Create → submit at companion", (r) => r.toSubmit],
    ["  host start (process → 1st answer)", (r) => r.hostStart],
    ["    of which loading the program", (r) => r.hostLoad],
    ["    its CPU time to the 1st answer", (r) => r.hostCpu],
    ["resolve (yt-dlp + probe)", (r) => r.resolve],
    ["hold (reserve)", (r) => r.hold],
    ["cut", (r) => r.cut],
    ["checks", (r) => r.checks],
    ["capture", (r) => r.capture],
    ["done → panel shows it", (r) => r.toPanel],
    ['Create → "Saved as" (total)', (r) => r.total],
    ["Create → finished (+ popup reload)", (r) => r.finished],
    ["CPU during it: companion + ffmpeg", (r) => r.companionCpu],
    ["CPU during it: browser", (r) => r.browserCpu],
    ["reports answered during the job", (r) => r.reportsDuring],
    ["  their ms inside the job", (r) => r.reportsDuringMs],
  ];
  const width = Math.max(...columns.map(([name]) => name.length));
  const head = ["ms".padEnd(width), ...rows.map((r) => `run ${r.run}`.padStart(8)), "median".padStart(8)];
  console.log(head.join("  "));
  for (const [name, get] of columns) {
    const values = rows.map(get);
    const known = values.filter((v): v is number => v !== null);
    const cells = values.map((v) => cell(v).padStart(8));
    console.log([name.padEnd(width), ...cells, (known.length ? String(median(known)) : "–").padStart(8)].join("  "));
  }
  for (const r of rows)
    console.log(
      `run ${r.run}: load ${r.loadBefore} → ${r.loadAfter}; cut by ${r.strategy}; the host runs ${r.launcher}; ` +
        `browser CPU by process: ${Object.entries(r.browserByType)
          .filter(([, ms]) => ms > 0)
          .map(([type, ms]) => `${type} ${ms}`)
          .join(", ")}; pages' main threads: ${mainThreads(r.mainThread)}${
          r.playing ? "; the page's video was playing at Create" : ""
        }`,
    );
}

console.log(`Extension journey bench: ${RUNS} run(s); load at start ${load()} (1, 5, 15 min)`);
if (BUILD) {
  const build = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const rows: Row[] = [];
for (let run = 1; run <= RUNS; run++) {
  rows.push(runOnce(run));
  console.log(`run ${run} done: Create → "Saved as" ${rows.at(-1)!.total} ms (load ${rows.at(-1)!.loadAfter})`);
}
console.log("");
print(rows);
