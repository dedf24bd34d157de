/**
 * Where a page's server time goes: loads one route under autocannon while the V8 CPU profiler of the Worker runs
 * (wrangler dev's inspector), then prints the self time grouped by source area and the heaviest functions.
 * The profile is of the Worker's JavaScript; D1's SQLite and wrangler's own proxy are outside it (the bench's CPU
 * µs/req covers those).
 * Run: npm run build && npx tsx bench/profile.ts [/dashboard]   (starts and stops its own server; signs in first)
 *   PORT=8804           wrangler dev's port (the inspector takes PORT+1)
 *   BENCH_SECONDS=8     profiled seconds under load
 */
import { spawnSync } from "node:child_process";
import { profiled } from "./profiler";
import { benchEnv, freshDb, load, serverCpuSeconds, startServer, stopServer, signInAs } from "./server";

const PORT = Number(process.env.PORT ?? 8804);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-profile";
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8));
const path = process.argv[2] ?? "/dashboard";

const signIn = () => signInAs(BASE, "creator@clipcut.local");

async function main() {
  freshDb(PERSIST);
  const seeded = spawnSync("npx", ["tsx", "scripts/seed.ts", "--persist-to", PERSIST], { env: benchEnv });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  const server = await startServer(PORT, PERSIST);
  try {
    const headers = { Cookie: await signIn() };
    const check = await fetch(`${BASE}${path}`, { headers, redirect: "manual" });
    if (!check.ok) throw new Error(`${path} answered ${check.status}`);
    const result = await profiled(PORT, `${path}, 50 connections, ${SECONDS} s`, async () => {
      const r = await load(`${BASE}${path}`, {
        connections: 50,
        seconds: SECONDS,
        headers,
        cpu: () => serverCpuSeconds(server),
      });
      return { ...r, requests: Math.round(r.requestsPerSecond * SECONDS) };
    });
    console.log(
      `${result.requestsPerSecond.toFixed(0)} req/s; server processes' CPU ${result.cpuMicrosPerRequest?.toFixed(0)} µs/request`,
    );
  } finally {
    stopServer(server);
  }
}

await main();
