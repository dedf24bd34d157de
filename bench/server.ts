/**
 * Shared by the benches: a fresh local D1, the built Worker under wrangler dev on a given port, and the platform's
 * floor measured in the same run (a static asset from the same Worker), so every figure can be given as a share of it.
 */
import autocannon from "autocannon";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { openSync, readdirSync, readFileSync, rmSync } from "node:fs";

export const benchEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  // What ships: `wrangler deploy` bundles with NODE_ENV=production, `wrangler dev` with development (React's dev build).
  NODE_ENV: "production",
};

export function freshDb(persist: string): void {
  rmSync(persist, { recursive: true, force: true });
  const migrated = spawnSync(
    "npx",
    ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist],
    { env: benchEnv },
  );
  if (migrated.status !== 0) throw new Error("migrations failed");
}

export async function startServer(port: number, persist: string): Promise<ChildProcess> {
  const serverLog = process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, "a") : "ignore";
  const server = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      // The local Worker (workers/local.ts): the production one refuses to start without Stripe's secrets.
      "--config",
      "wrangler.local.toml",
      "--port",
      String(port),
      "--inspector-port",
      String(port + 1),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persist,
      "--var",
      "APP_MODE:local",
      "--show-interactive-dev-session=false",
    ],
    // BENCH_SERVER_LOG=path keeps wrangler's output (to see why a server stopped answering mid-run).
    { env: benchEnv, stdio: ["ignore", serverLog, serverLog], detached: true },
  );
  for (let i = 0; i < 120; i++) {
    if ((await fetch(`http://127.0.0.1:${port}/favicon.svg`).catch(() => null))?.ok) return server;
    await new Promise((r) => setTimeout(r, 500));
  }
  stopServer(server);
  throw new Error(`wrangler dev did not answer on port ${port} within 60 s`);
}

export function stopServer(server: ChildProcess): void {
  try {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/**
 * CPU seconds used so far by every process in the server's process group (wrangler and its workerd processes): per
 * request, the fairest figure on a shared machine, where requests per second move with everyone else's load.
 */
export function serverCpuSeconds(server: ChildProcess): number {
  const ticksPerSecond = 100; // USER_HZ, the unit of /proc/<pid>/stat on Linux
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // the process ended while we looked
    }
    // Fields after the parenthesised command name: state, ppid, pgrp, …, utime (14th), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === server.pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / ticksPerSecond;
}

export interface LoadResult {
  requestsPerSecond: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Server CPU per request in µs over the measured run, when `load` was given the server's CPU clock. */
  cpuMicrosPerRequest?: number;
}

/** autocannon for `seconds` at `connections`, after a short warm-up. */
export async function load(
  url: string,
  options: { connections?: number; seconds?: number; headers?: Record<string, string>; cpu?: () => number } = {},
): Promise<LoadResult> {
  const run = (duration: number) =>
    autocannon({
      url,
      connections: options.connections ?? 50,
      duration,
      headers: options.headers,
    });
  await run(1);
  const cpuBefore = options.cpu?.();
  const result = await run(options.seconds ?? 8);
  const cpuAfter = options.cpu?.();
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMicrosPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
        ? undefined
        : ((cpuAfter - cpuBefore) / result.requests.total) * 1e6,
  };
}

/** The floor: a static asset served by the same Worker, at the same concurrency. */
export async function staticFloor(base: string, connections = 50): Promise<number> {
  return (await load(`${base}/favicon.svg`, { connections })).requestsPerSecond;
}

export const share = (value: number, floor: number) => `${((value / floor) * 100).toFixed(0)}%`;

/** Signs a seeded demo account in through the real form and returns its session cookie. */
export async function signInAs(base: string, email: string, password = "ClipCut-demo-1"): Promise<string> {
  const res = await fetch(`${base}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("clipcut_session="));
  if (!cookie) throw new Error(`sign-in failed (${res.status})`);
  return cookie.split(";")[0] as string;
}
