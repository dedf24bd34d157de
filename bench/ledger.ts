/**
 * Ledger benchmark: charges per second through API v1 and the delay from a charge to its WebSocket message, against
 * the built Worker under wrangler dev (local D1 and Durable Objects). The static floor (a static asset from the same
 * Worker, 50 connections) is measured in the same run and every rate is printed as a share of it.
 * Run: npm run build && npx tsx bench/ledger.ts   (starts and stops its own server; PORT=8800 by default)
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { benchEnv as env, freshDb, share, startServer, staticFloor, stopServer } from "./server";

const PORT = Number(process.env.PORT ?? 8800);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-ledger";

interface BenchUser {
  id: string;
  token: string;
}

function seedUsers(count: number, credits: number): BenchUser[] {
  const users = Array.from({ length: count }, () => ({
    id: randomUUID(),
    token: `cc_${randomBytes(32).toString("base64url")}`,
  }));
  const now = Date.now();
  const sql = users
    .flatMap((u, i) => [
      `INSERT INTO users (id, email, full_name, plan, credits, email_verified_at) VALUES ('${u.id}', 'bench-${i}-${u.id}@example.com', 'Bench ${i}', 'Pro', ${credits}, ${now});`,
      `INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, idempotency_key, request_hash) VALUES ('${randomUUID()}', '${u.id}', ${credits}, ${credits}, 'adjust', 'Bench credits', 'bench', 'bench');`,
      `INSERT INTO api_tokens (id, user_id, token_hash, expires_at) VALUES ('${randomUUID()}', '${u.id}', '${createHash("sha256").update(u.token).digest("hex")}', ${now + 86_400_000});`,
    ])
    .join("\n");
  const file = join(mkdtempSync(join(tmpdir(), "bench-")), "seed.sql");
  writeFileSync(file, sql);
  const result = spawnSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", PERSIST, "--file", file],
    { env, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(result.stderr);
  return users;
}

/** Opens the user's extension socket and resolves each clip's arrival time by clip name. */
async function listen(user: BenchUser, arrivals: Map<string, number>): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${PORT}/api/v1/realtime`, ["clipcut.v1", `bearer.${user.token}`]);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.on("close", (code) => {
    if (!closedByUs.has(ws)) socketCloses.push(code);
  });
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type: string; data?: { clip?: { name: string } } };
    if (message.type === "clip" && message.data?.clip) arrivals.set(message.data.clip.name, performance.now());
  });
  ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
  return ws;
}

let reported = false;
/** Close codes of sockets that closed while a scenario ran (a restarted object closes them). */
const socketCloses: number[] = [];
const closedByUs = new WeakSet<WebSocket>();
async function charge(user: BenchUser, name: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const status = await chargeOnce(user, name);
    // "busy" is an answer: retry with the same Idempotency-Key after Retry-After, as the companion does.
    if (status !== 503 || attempt >= 5) return status;
    busyAnswers++;
    await new Promise((r) => setTimeout(r, 200));
  }
}

let busyAnswers = 0;
/**
 * A light client, like the floor's autocannon: node:http over kept-alive sockets. (Node's fetch costs the shared
 * cores several times more per request, which showed as a lower charge rate that was the client's, not ours.)
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
function post(path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${BASE}${path}`, { method: "POST", agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function chargeOnce(user: BenchUser, name: string): Promise<number> {
  const res = await post(
    "/api/v1/clips",
    {
      Authorization: `Bearer ${user.token}`,
      "Idempotency-Key": `bench-${name}`,
      "Content-Type": "application/json",
    },
    JSON.stringify({
      name,
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      startSeconds: 0,
      endSeconds: 15,
      format: "mp4",
      quality: "720p",
    }),
  );
  if (res.status !== 201 && res.status !== 503 && !reported) {
    reported = true;
    console.error(`first failed charge: ${res.status} ${res.body.slice(0, 200)}`);
  }
  return res.status;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function scenario(label: string, users: BenchUser[], chargesPerUser: number, inFlightPerUser: number) {
  const arrivals = new Map<string, number>();
  const sockets = await Promise.all(users.map((u) => listen(u, arrivals)));
  await new Promise((r) => setTimeout(r, 300)); // let the snapshots land
  const sent = new Map<string, number>();
  const answered = new Map<string, number>();
  let ok = 0;
  const started = performance.now();
  await Promise.all(
    users.map(async (user, ui) => {
      let next = 0;
      const worker = async () => {
        while (next < chargesPerUser) {
          const name = `${label.replace(/\s+/g, "_")}-${ui}-${next++}`;
          sent.set(name, performance.now());
          if ((await charge(user, name)) === 201) ok++;
          answered.set(name, performance.now());
        }
      };
      await Promise.all(Array.from({ length: inFlightPerUser }, worker));
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  // From sending the charge to its message, and from the charge's HTTP answer to its message (the push itself).
  const delays = [...sent].flatMap(([name, t0]) => (arrivals.has(name) ? [(arrivals.get(name) ?? 0) - t0] : []));
  const pushDelays = [...answered].flatMap(([name, t1]) =>
    arrivals.has(name) ? [Math.max(0, (arrivals.get(name) ?? 0) - t1)] : [],
  );
  const closedEarly = socketCloses.splice(0).join(",") || "none";
  for (const ws of sockets) {
    closedByUs.add(ws);
    ws.close();
  }
  return {
    scenario: label,
    users: users.length,
    charges: ok,
    seconds: elapsed.toFixed(2),
    chargesPerSecond: (ok / elapsed).toFixed(1),
    wsDelivered: `${delays.length}/${sent.size}`,
    "p50 charge→ws ms": percentile(delays, 50).toFixed(1),
    "p95 charge→ws ms": percentile(delays, 95).toFixed(1),
    "p50 answer→ws ms": percentile(pushDelays, 50).toFixed(1),
    "p95 answer→ws ms": percentile(pushDelays, 95).toFixed(1),
    "sockets closed early": closedEarly,
  };
}

async function main() {
  freshDb(PERSIST);
  const single = seedUsers(1, 1_000_000);
  const many = seedUsers(40, 100_000);
  const server = await startServer(PORT, PERSIST);
  try {
    await scenario("warmup", single, 20, 2);
    // The floor before and after the scenarios: if they differ much, the machine was busy and the shares are rough.
    const before = await staticFloor(BASE);
    const scenarios = [
      await scenario("1 user, 32 in flight", single, 640, 32),
      await scenario("40 users, 1 in flight each", many, 16, 1),
      await scenario("1 user, 8 in flight", single, 200, 8),
    ];
    const after = await staticFloor(BASE);
    const floor = (before + after) / 2;
    const rows = scenarios.map((row) => ({ ...row, "share of static": share(Number(row.chargesPerSecond), floor) }));
    console.log("\nLedger benchmark (wrangler dev, local D1 + Durable Objects, this machine)");
    console.log(
      `static floor: ${floor.toFixed(0)} req/s (favicon.svg, 50 connections; ${before.toFixed(0)} before, ${after.toFixed(0)} after)`,
    );
    console.table(rows);
    console.log(`busy (503) answers retried: ${busyAnswers}`);
  } finally {
    stopServer(server);
  }
}

await main();
