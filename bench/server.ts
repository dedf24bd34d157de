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

/**
 * wrangler dev's inspector proxy: on is wrangler's default; off is what it does in a VS Code debug terminal (it skips
 * the proxy when VSCODE_INSPECTOR_OPTIONS is set). When on, it sends `Network.enable` and forwards every runtime
 * message to wrangler's node as a debug log, so each D1 call of a request costs CPU outside the Worker.
 */
export type Inspector = "on" | "off";

export interface WranglerOptions {
  config: string;
  port: number;
  persist: string;
  inspector?: Inspector;
  vars?: Record<string, string>;
  /** Polled until it answers below 500: the server is up. */
  readyPath?: string;
}

/** `wrangler dev` in a process group of its own (stopServer ends the group), on 127.0.0.1, inspector on port+1. */
export async function startWrangler(options: WranglerOptions): Promise<ChildProcess> {
  const { port } = options;
  const serverLog = process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, "a") : "ignore";
  const env: NodeJS.ProcessEnv = { ...benchEnv };
  // "{}" is enough for wrangler and miniflare to skip the proxy (without VS Code's bootloader in NODE_OPTIONS they
  // start nothing else); "on" must not inherit the variable from a VS Code terminal.
  if (options.inspector === "off") env.VSCODE_INSPECTOR_OPTIONS = "{}";
  else delete env.VSCODE_INSPECTOR_OPTIONS;
  const server = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      options.config,
      "--port",
      String(port),
      "--inspector-port",
      String(port + 1),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      options.persist,
      ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
      "--show-interactive-dev-session=false",
    ],
    // BENCH_SERVER_LOG=path keeps wrangler's output (to see why a server stopped answering mid-run).
    { env, stdio: ["ignore", serverLog, serverLog], detached: true },
  );
  for (let i = 0; i < 240; i++) {
    const res = await fetch(`http://127.0.0.1:${port}${options.readyPath ?? "/"}`, { redirect: "manual" }).catch(
      () => null,
    );
    if (res && res.status < 500) return server;
    await new Promise((r) => setTimeout(r, 500));
  }
  stopServer(server);
  throw new Error(`wrangler dev (${options.config}) did not answer on port ${port} within 120 s`);
}

/** ClipCut's built Worker under wrangler dev, with the local stand-ins. */
export function startServer(port: number, persist: string, inspector: Inspector = "on"): Promise<ChildProcess> {
  return startWrangler({
    // The local Worker (workers/local.ts): the production one refuses to start without Stripe's secrets.
    config: "wrangler.local.toml",
    port,
    persist,
    inspector,
    vars: { APP_MODE: "local" },
    readyPath: "/favicon.svg",
  });
}

export function stopServer(server: ChildProcess): void {
  try {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/** The processes of one `wrangler dev`, by what they do for a request. */
export const ROLES = ["workerd: Worker", "workerd: proxy", "wrangler node", "rest"] as const;
export type Role = (typeof ROLES)[number];
export type CpuSplit = Record<Role, number>;

const ticksPerSecond = 100; // USER_HZ, the unit of /proc/<pid>/stat on Linux

/**
 * CPU seconds used so far by each process in the server's process group, by role: the workerd running the Worker
 * (and its Durable Objects and local D1), the workerd of wrangler's proxy (the one listening on `port`; the inspector
 * proxy runs there too), wrangler's node, and the rest (npx, esbuild). Per request, the fairest figure on a shared
 * machine, where requests per second move with everyone else's load.
 */
export function serverCpuByProcess(server: ChildProcess, port: number): CpuSplit {
  const split: CpuSplit = { "workerd: Worker": 0, "workerd: proxy": 0, "wrangler node": 0, rest: 0 };
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    let cmdline: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      continue; // the process ended while we looked
    }
    // Fields after the parenthesised command name: state, ppid, pgrp, …, utime (14th), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== server.pid) continue;
    const role: Role = cmdline.includes("/bin/workerd ")
      ? cmdline.includes(`--socket-addr=entry=127.0.0.1:${port} `)
        ? "workerd: proxy"
        : "workerd: Worker"
      : cmdline.includes("wrangler-dist/cli.js")
        ? "wrangler node"
        : "rest";
    split[role] += (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  }
  return split;
}

/** CPU seconds used so far by every process in the server's process group (wrangler and its workerd processes). */
export function serverCpuSeconds(server: ChildProcess): number {
  return Object.values(serverCpuByProcess(server, 0)).reduce((a, b) => a + b, 0);
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
