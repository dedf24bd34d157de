/**
 * ClipCut beside its peers (bench/peers/: minimal apps of our own on the same wrangler, Remix, D1 and Durable
 * Objects): each under its own `wrangler dev`, with wrangler's inspector proxy off and on, measured in alternating
 * rounds (ClipCut, peer, then peer, ClipCut, …) so a busy spell on the machine falls on both. Each round reads the
 * CPU of every process of the server measured, so the figures say where a request's CPU went.
 */
import autocannon from "autocannon";
import { spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import {
  benchEnv,
  ROLES,
  serverCpuByProcess,
  startServer,
  startWrangler,
  stopServer,
  type CpuSplit,
  type Inspector,
} from "./server";

export type Peer = "page" | "counter";
const peerConfig = (peer: Peer) => `bench/peers/${peer}/wrangler.toml`;

/** A running server: ClipCut or a peer, with the inspector proxy on or off. */
export interface Side {
  side: "ClipCut" | "peer";
  inspector: Inspector;
  server: ChildProcess;
  port: number;
  base: string;
}

/** BENCH_INSPECTOR=off, on or both (the default): which inspector settings to measure. */
export function inspectorModes(): Inspector[] {
  const chosen = process.env.BENCH_INSPECTOR ?? "both";
  if (chosen === "off" || chosen === "on") return [chosen];
  return ["off", "on"];
}

const run = (args: string[], what: string) => {
  const result = spawnSync("npx", args, { env: benchEnv, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${what} failed: ${result.stderr}`);
};

/** The page peer is a Remix app: built like ClipCut (production mode) before each run. */
export function buildPagePeer(): void {
  run(["remix", "vite:build", "bench/peers/page"], "the page peer's build");
}

/** A fresh local D1 for a peer: its migrations, then its seed.sql. */
export function preparePeerDb(peer: Peer, persist: string): void {
  rmSync(persist, { recursive: true, force: true });
  const where = ["--local", "--config", peerConfig(peer), "--persist-to", persist];
  run(["wrangler", "d1", "migrations", "apply", "DB", ...where], `the ${peer} peer's migrations`);
  run(["wrangler", "d1", "execute", "DB", ...where, "--file", `bench/peers/${peer}/seed.sql`], `the ${peer} seed`);
}

/**
 * Starts ClipCut and the peer for each inspector setting: ClipCut on `port + 4i`, the peer on `port + 4i + 2` (each
 * inspector on the port after). Each server gets its own copy of the seeded data (two processes must never share a
 * Durable Object's storage).
 */
export async function startSides(
  peer: Peer,
  port: number,
  persist: { clipcut: string; peer: string },
): Promise<Side[]> {
  const sides: Side[] = [];
  try {
    for (const [i, inspector] of inspectorModes().entries()) {
      const copy = (from: string) => {
        const to = `${from}-inspector-${inspector}`;
        rmSync(to, { recursive: true, force: true });
        cpSync(from, to, { recursive: true });
        return to;
      };
      const clipcutPort = port + 4 * i;
      const peerPort = clipcutPort + 2;
      const clipcut = await startServer(clipcutPort, copy(persist.clipcut), inspector);
      sides.push({ side: "ClipCut", inspector, server: clipcut, port: clipcutPort, base: base(clipcutPort) });
      const server = await startWrangler({
        config: peerConfig(peer),
        port: peerPort,
        persist: copy(persist.peer),
        inspector,
      });
      sides.push({ side: "peer", inspector, server, port: peerPort, base: base(peerPort) });
    }
  } catch (error) {
    stopSides(sides);
    throw error;
  }
  return sides;
}

const base = (port: number) => `http://127.0.0.1:${port}`;

export function stopSides(sides: Side[]): void {
  for (const s of sides) stopServer(s.server);
}

export interface Measured {
  /** Answers that counted (2xx). */
  requests: number;
  failed: number;
  seconds: number;
}

export interface Round extends Measured {
  /** CPU seconds of the side's processes during the round, by role. */
  cpu: CpuSplit;
}

/** Runs one round against one side, with its processes' CPU read before and after. */
export async function round(side: Side, work: () => Promise<Measured>): Promise<Round> {
  const before = serverCpuByProcess(side.server, side.port);
  const measured = await work();
  const after = serverCpuByProcess(side.server, side.port);
  const cpu = Object.fromEntries(ROLES.map((role) => [role, after[role] - before[role]])) as CpuSplit;
  return { ...measured, cpu };
}

/**
 * `rounds` rounds of `work` on every side: inspector settings in turn, ClipCut first in odd rounds and the peer first
 * in even ones. Returns each side's rounds.
 */
export async function alternate(
  sides: Side[],
  rounds: number,
  work: (side: Side) => Promise<Measured>,
): Promise<Map<Side, Round[]>> {
  const results = new Map<Side, Round[]>(sides.map((s) => [s, []]));
  for (let r = 0; r < rounds; r++) {
    for (const inspector of inspectorModes()) {
      const pair = sides.filter((s) => s.inspector === inspector);
      for (const side of r % 2 === 0 ? pair : [...pair].reverse())
        results.get(side)?.push(await round(side, () => work(side)));
    }
  }
  return results;
}

/** autocannon against one URL for `seconds` (no warm-up: the caller warms up once). */
export async function httpRound(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<Measured> {
  const started = performance.now();
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const ok = result.requests.total - result.non2xx;
  return {
    requests: ok,
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: (performance.now() - started) / 1000,
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * One row per side: the rate of each round and over all rounds, the CPU per request of all its processes and of
 * each, and (for ClipCut) its rate and CPU as multiples of the peer's with the same inspector setting.
 */
export function printSideBySide(title: string, unit: string, results: Map<Side, Round[]>): void {
  const totals = new Map(
    [...results].map(([side, rounds]) => {
      const requests = sum(rounds.map((r) => r.requests));
      const rate = requests / sum(rounds.map((r) => r.seconds));
      const cpuMs = (role: (typeof ROLES)[number]) => (sum(rounds.map((r) => r.cpu[role])) / requests) * 1000;
      const total = sum(ROLES.map(cpuMs));
      return [side, { rounds, rate, cpuMs, total }];
    }),
  );
  const rows = [...totals].map(([side, t]) => {
    const peer = [...totals].find(([s]) => s.side === "peer" && s.inspector === side.inspector)?.[1];
    const mine = side.side === "ClipCut" && peer;
    return {
      side: side.side,
      inspector: side.inspector,
      [`${unit}/s by round`]: t.rounds.map((r) => (r.requests / r.seconds).toFixed(0)).join(" "),
      [`${unit}/s`]: t.rate.toFixed(1),
      failed: sum(t.rounds.map((r) => r.failed)),
      [`CPU ms/${unit}`]: t.total.toFixed(2),
      ...Object.fromEntries(ROLES.map((role) => [role, t.cpuMs(role).toFixed(2)])),
      "rate ÷ peer": mine ? (t.rate / peer.rate).toFixed(2) : "",
      "CPU ÷ peer": mine ? (t.total / peer.total).toFixed(2) : "",
    };
  });
  console.log(`\n${title}`);
  console.table(rows);
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** What the CPU columns mean, printed under the tables. */
export const CPU_NOTE =
  "CPU ms per request: user+system CPU of the side's processes (from /proc/<pid>/stat) over the answered requests. " +
  "workerd: Worker = the Worker, its Durable Objects and local D1; workerd: proxy = wrangler's proxy (and the " +
  "inspector proxy, when on); wrangler node = wrangler's own process (request logs; with the inspector on, every " +
  "runtime message); rest = npx, esbuild. The load generator runs on the same machine and is not counted.";
