/**
 * The V8 CPU profiler of the Worker under wrangler dev (its inspector on PORT+1), for the benches: start it, run a
 * load, stop it, and print the self time grouped by source area, the heaviest functions, and inclusive times. The
 * Durable Objects run in the same isolate as the Worker, so their code is in the profile too; D1's SQLite and
 * wrangler's proxy are not.
 */
import { loadavg } from "node:os";
import WebSocket from "ws";

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

type Send = ((method: string, params?: object) => Promise<unknown>) & { close: () => void };

/** A minimal CDP client over the inspector's WebSocket (closed after use: the inspector takes one client at a time). */
async function inspector(port: number): Promise<Send> {
  const targets = (await (await fetch(`http://127.0.0.1:${port + 1}/json`)).json()) as {
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
  const send = ((method: string, params = {}) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    })) as Send;
  send.close = () => ws.close();
  return send;
}

/** Which part of the code a frame belongs to, from its URL and name. */
function area(frame: ProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const match = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url);
  if (match) return match[1]!;
  return url.replace(/^.*\/(build|app|workers)\//, "$1/");
}

/** Profiles the Worker while `run` runs; prints the tables for `requests` requests served in that time. */
export async function profiled<T extends { requests: number }>(
  port: number,
  title: string,
  run: () => Promise<T>,
): Promise<T> {
  const send = await inspector(port);
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 200 });
  await send("Profiler.start");
  const outcome = await run();
  const { profile } = (await send("Profiler.stop")) as { profile: Profile };
  send.close();
  const requests = outcome.requests;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfMicros].filter(([id]) => byId.get(id)?.callFrame.functionName === "(idle)");
  const busy = total - idle.reduce((a, [, v]) => a + v, 0);
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
  console.log(`\nProfile: ${title}`);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(`Worker JS busy ${(busy / requests).toFixed(0)} µs/request over ${requests} requests; load ${load}`);
  console.table(rows(areas, 15));
  console.log("Self time, heaviest functions:");
  console.table(rows(functions, 30));
  console.log("Inclusive time (with callees), heaviest named functions:");
  console.table(
    rows(new Map([...inclusive].filter(([name]) => !name.startsWith("(") && !name.startsWith("(anonymous)"))), 45),
  );
  return outcome;
}
