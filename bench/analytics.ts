/**
 * Creator Analytics Dashboard benchmark: p50/p95 of the /analytics loader (Remix single-fetch data request,
 * only the page's loader runs) and of the CSV export, for a Pro creator with 50,000 clips spread over three years,
 * on every range, from the built Worker under wrangler dev with a local D1. The figures read the index
 * clips(user_id, created_at).
 * Run: npm run build && npx tsx bench/analytics.ts   (ports BENCH_PORT=8850 and BENCH_PORT+1 for the inspector)
 * The database is kept in .wrangler/bench-analytics between runs (delete it to seed again).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signInAs } from "./server";

const PORT = Number(process.env.BENCH_PORT ?? 8850);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.RUNS ?? 40);
const CLIPS = 50_000;
const PERSIST = ".wrangler/bench-analytics";
const CREATOR = "admin@clipcut.local"; // Pro in the seed
const LOG = openSync(process.env.BENCH_LOG ?? "/dev/null", "w");
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

function run(args: string[], label: string) {
  const started = Date.now();
  const result = spawnSync("npx", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`${label} failed:\n${result.stdout}${result.stderr}`);
  console.log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function prepare() {
  if (existsSync(PERSIST)) return;
  run(["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", PERSIST], "migrations");
  run(["tsx", "scripts/seed.ts", "--persist-to", PERSIST], "seed");
  // 50,000 clips for one creator over the last ~3 years, generated inside SQLite (one statement).
  const now = Date.now();
  const span = 3 * 365 * 86_400_000;
  const sql = `INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, format, quality, cost, status, source, created_at)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CLIPS})
SELECT 'bench-' || i, (SELECT id FROM users WHERE email = '${CREATOR}'), (SELECT id FROM users WHERE email = '${CREATOR}'), 'Bench clip ' || i,
  'https://www.youtube.com/watch?v=bench' || (i % 400), (i % 50), (i % 50) + 5 + (i % 90),
  CASE i % 4 WHEN 0 THEN 'mp4' WHEN 1 THEN 'mp3' WHEN 2 THEN 'webm' ELSE 'gif' END,
  CASE i % 3 WHEN 0 THEN '720p' WHEN 1 THEN '1080p' ELSE '360p' END,
  1 + (i % 6), 'Completed', 'seed', ${now} - i * ${Math.floor(span / CLIPS)} - ((i * 7919) % 86400000)
FROM n;`;
  const file = join(mkdtempSync(join(tmpdir(), "bench-analytics-")), "clips.sql");
  writeFileSync(file, sql);
  run(["wrangler", "d1", "execute", "DB", "--local", "--persist-to", PERSIST, "--file", file], `${CLIPS} clips`);
}

async function waitUp() {
  for (let i = 0; i < 120; i++) {
    if ((await fetch(`${BASE}/`).catch(() => null))?.ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

function serve(): ChildProcess {
  return spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--port",
      String(PORT),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(PORT + 1),
      "--persist-to",
      PERSIST,
      "--var",
      "APP_MODE:local",
      "--show-interactive-dev-session=false",
    ],
    { env, stdio: ["ignore", LOG, LOG], detached: true },
  );
}

const signIn = () => signInAs(BASE, CREATOR);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function measure(cookie: string, url: string, runs: number) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs + 3; i++) {
    const started = performance.now();
    const res = await fetch(`${BASE}${url}`, { headers: { Cookie: cookie } });
    bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 3) times.push(performance.now() - started); // 3 warm-up requests
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes };
}

prepare();
const server = serve();
const rows: string[] = [];
try {
  await waitUp();
  const cookie = await signIn();
  // Baseline: a signed-in page whose loader reads one small page of rows, to tell the machine's load from the query.
  const base = await measure(cookie, "/credits.data?_routes=routes/_app.credits", RUNS);
  rows.push(
    `| baseline /credits             | ${base.p50.toFixed(1).padStart(7)} | ${base.p95.toFixed(1).padStart(7)} |`,
  );
  for (const range of ["7d", "30d", "12m", "all"]) {
    const { p50, p95 } = await measure(cookie, `/analytics.data?_routes=routes/_app.analytics&range=${range}`, RUNS);
    rows.push(
      `| /analytics ${range.padEnd(4)}          | ${p50.toFixed(1).padStart(7)} | ${p95.toFixed(1).padStart(7)} |`,
    );
  }
  const csv = await measure(cookie, "/analytics/export?range=all", 5);
  rows.push(
    `| CSV export, all (${(csv.bytes / 1e6).toFixed(1)} MB) | ${csv.p50.toFixed(1).padStart(7)} | ${csv.p95.toFixed(1).padStart(7)} |`,
  );
} finally {
  if (server.pid) process.kill(-server.pid, "SIGTERM");
}
console.log(
  `\nOne Pro creator with ${CLIPS.toLocaleString("en-US")} clips; ${RUNS} sequential requests per range after 3 warm-ups (CSV: 5), ms, wall clock, local wrangler dev:`,
);
console.log(
  "| request                      | p50 ms  | p95 ms  |\n|------------------------------|---------|---------|",
);
console.log(rows.join("\n"));
