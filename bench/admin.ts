/**
 * Admin loader benchmark: p50/p95 response time of the loaders behind Overviews, Users (search + filter + sort),
 * Calendars and Reports, fetched as Remix single-fetch data requests (`<path>.data?_routes=<route>`: the admin layout
 * is skipped, only the page's loader runs) from the built Worker under wrangler dev with a local D1, at the default
 * seed and at `--scale large` (~20,000 users, 300,000 clips).
 * Run: npm run build && npx tsx bench/admin.ts [--only default|large]   (own server on port 8841)
 * The large database is kept in .wrangler/bench-admin-large between runs (seeding it takes minutes).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { signInAs } from "./server";

const PORT = 8841;
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.RUNS ?? 40);
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

const PAGES: [label: string, url: string][] = [
  ["Overviews", "/admin.data?_routes=routes/admin._index"],
  [
    "Users (search+filter+sort)",
    "/admin/users.data?_routes=routes/admin.users&q=an&plan=Basic&status=offline&min=100&sort=credits&dir=desc&page=2",
  ],
  ["Calendars", "/admin/calendars.data?_routes=routes/admin.calendars"],
  ["Reports", "/admin/reports.data?_routes=routes/admin.reports"],
];

function run(args: string[], label: string) {
  const started = Date.now();
  const result = spawnSync("npx", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`${label} failed:\n${result.stdout}${result.stderr}`);
  console.log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function prepare(scale: "default" | "large"): string {
  const persist = `.wrangler/bench-admin-${scale}`;
  if (scale === "default") rmSync(persist, { recursive: true, force: true });
  if (scale === "large" && !existsSync(persist)) console.log("  seeding the large database once; this takes minutes");
  run(["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], "migrations");
  run(["tsx", "scripts/seed.ts", "--persist-to", persist, ...(scale === "large" ? ["--scale", "large"] : [])], "seed");
  return persist;
}

async function waitUp() {
  for (let i = 0; i < 120; i++) {
    if ((await fetch(`${BASE}/`).catch(() => null))?.ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

function serve(persist: string): ChildProcess {
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
      "8848",
      "--persist-to",
      persist,
      "--var",
      "APP_MODE:local",
      "--show-interactive-dev-session=false",
    ],
    { env, stdio: "ignore", detached: true },
  );
}

const signIn = () => signInAs(BASE, "admin@clipcut.local");

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function measure(cookie: string, url: string) {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now();
    const res = await fetch(`${BASE}${url}`, { headers: { Cookie: cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 3) times.push(performance.now() - started); // 3 warm-up requests
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;
const rows: string[] = [];
for (const scale of ["default", "large"] as const) {
  if (only && only !== scale) continue;
  console.log(`${scale} seed:`);
  const persist = prepare(scale);
  const server = serve(persist);
  try {
    await waitUp();
    const cookie = await signIn();
    for (const [label, url] of PAGES) {
      const { p50, p95 } = await measure(cookie, url);
      rows.push(
        `| ${scale.padEnd(7)} | ${label.padEnd(26)} | ${p50.toFixed(1).padStart(7)} | ${p95.toFixed(1).padStart(7)} |`,
      );
    }
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}
console.log(`\n${RUNS} sequential requests per page after 3 warm-ups, times in ms (wall clock, local wrangler dev):`);
console.log(
  "| seed    | loader                     | p50 ms  | p95 ms  |\n|---------|----------------------------|---------|---------|",
);
console.log(rows.join("\n"));
