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
import { loadavg } from "node:os";
import WebSocket from "ws";
import { benchEnv, freshDb, load, serverCpuSeconds, startServer, stopServer } from "./server";

const PORT = Number(process.env.PORT ?? 8804);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-profile";
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8));
const path = process.argv[2] ?? "/dashboard";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

async function signIn(): Promise<string> {
  const res = await fetch(`${BASE}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    body: new URLSearchParams({ email: "creator@clipcut.local", password: "ClipCut-demo-1" }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

/** A minimal CDP client over the inspector's WebSocket. */
async function inspector(): Promise<(method: string, params?: object) => Promise<unknown>> {
  const targets = (await (await fetch(`http://127.0.0.1:${PORT + 1}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const target = targets[0];
  if (!target) throw new Error("no inspector target");
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  let next = 1;
  const pending = new Map<number, (value: unknown) => void>();
  ws.on("message", (raw) => {
    const message = JSON.parse(String(raw)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return (method, params = {}) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
}

/** Which part of the code a frame belongs to, from its URL and name. */
function area(frame: ProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const match = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url);
  if (match) return match[1]!;
  return url.replace(/^.*\/(build|app|workers)\//, "$1/");
}

async function main() {
  freshDb(PERSIST);
  const seeded = spawnSync("npx", ["tsx", "scripts/seed.ts", "--persist-to", PERSIST], { env: benchEnv });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  const server = await startServer(PORT, PERSIST);
  try {
    const cookie = await signIn();
    const headers = { Cookie: cookie };
    const check = await fetch(`${BASE}${path}`, { headers, redirect: "manual" });
    if (!check.ok) throw new Error(`${path} answered ${check.status}`);
    const send = await inspector();
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: 200 });
    await send("Profiler.start");
    const result = await load(`${BASE}${path}`, {
      connections: 50,
      seconds: SECONDS,
      headers,
      cpu: () => serverCpuSeconds(server),
    });
    const { profile } = (await send("Profiler.stop")) as { profile: Profile };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const selfMicros = new Map<number, number>();
    profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
    const idle = [...selfMicros].filter(([id]) => byId.get(id)?.callFrame.functionName === "(idle)");
    const busy = total - idle.reduce((a, [, v]) => a + v, 0);
    const requests = result.requestsPerSecond * SECONDS;
    const areas = new Map<string, number>();
    const functions = new Map<string, number>();
    for (const [id, micros] of selfMicros) {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === "(idle)") continue;
      areas.set(area(frame), (areas.get(area(frame)) ?? 0) + micros);
      const fn = `${frame.functionName || "(anonymous)"} ${area(frame)}:${frame.lineNumber + 1}`;
      functions.set(fn, (functions.get(fn) ?? 0) + micros);
    }
    // Inclusive time: a function's own time plus its callees', counted once per stack (recursion is not doubled).
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const inclusive = new Map<string, number>();
    for (const [id, micros] of selfMicros) {
      if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const f = byId.get(at)!.callFrame;
        const name = `${f.functionName || "(anonymous)"} ${area(f)}:${f.lineNumber + 1}`;
        if (seen.has(name)) continue;
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
      }
    }
    const rows = (m: Map<string, number>, n: number) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, micros]) => ({
          name,
          "share of busy": `${((micros / busy) * 100).toFixed(1)}%`,
          "µs/request": (micros / requests).toFixed(0),
        }));
    console.log(`\nProfile of ${path}: ${result.requestsPerSecond.toFixed(0)} req/s for ${SECONDS} s, 50 connections`);
    console.log(
      `Worker JS busy ${(busy / requests).toFixed(0)} µs/request; server processes' CPU ` +
        `${result.cpuMicrosPerRequest?.toFixed(0)} µs/request; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}`,
    );
    console.table(rows(areas, 15));
    console.log("Self time, heaviest functions:");
    console.table(rows(functions, 30));
    console.log("Inclusive time (with callees), heaviest named functions:");
    console.table(
      rows(new Map([...inclusive].filter(([name]) => !name.startsWith("(") && !name.startsWith("(anonymous)"))), 45),
    );
  } finally {
    stopServer(server);
  }
}

await main();
