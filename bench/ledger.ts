/**
 * Ledger benchmark: charges per second through API v1 and the delay from a charge to its WebSocket message, against
 * the built Worker under wrangler dev (local D1 and Durable Objects). The static floor (a static asset from the same
 * Worker, 50 connections) is measured in the same run and every rate is printed as a share of it.
 * Teams: a member's charge goes member's ledger → owner's ledger (object to object); its rate is printed as a
 * share of the same team's owner charging, and the delay from a member's charge to the member's page message (the
 * clip) and to the owner's page message (the balance), 8 in flight.
 * Run: npm run build && npx tsx bench/ledger.ts   (starts and stops its own server; PORT=8800 by default;
 * SCALE=0.1 for a short smoke run; BENCH_PROFILE=1 adds CPU profiles of the first two scenarios, after the figures)
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { profiled } from "./profiler";
import { benchEnv as env, freshDb, share, startServer, staticFloor, stopServer } from "./server";

const PORT = Number(process.env.PORT ?? 8800);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-ledger";
/** Multiplies every scenario's number of charges (a smoke run proves the figures print; it measures nothing). */
const SCALE = Number(process.env.SCALE ?? 1);
const scaled = (n: number) => Math.max(8, Math.round(n * SCALE));

interface BenchUser {
  id: string;
  token: string;
}

function seedUsers(count: number, credits: number, extraSql: (users: BenchUser[]) => string[] = () => []): BenchUser[] {
  const users = Array.from({ length: count }, () => ({
    id: randomUUID(),
    token: `cc_${randomBytes(32).toString("base64url")}`,
  }));
  const now = Date.now();
  const sql = [
    ...users.flatMap((u, i) => [
      `INSERT INTO users (id, email, full_name, plan, credits, email_verified_at) VALUES ('${u.id}', 'bench-${i}-${u.id}@example.com', 'Bench ${i}', 'Pro', ${credits}, ${now});`,
      `INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, idempotency_key, request_hash) VALUES ('${randomUUID()}', '${u.id}', ${credits}, ${credits}, 'adjust', 'Bench credits', 'bench', 'bench');`,
      `INSERT INTO api_tokens (id, user_id, token_hash, expires_at) VALUES ('${randomUUID()}', '${u.id}', '${createHash("sha256").update(u.token).digest("hex")}', ${now + 86_400_000});`,
    ]),
    ...extraSql(users),
  ].join("\n");
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

/**
 * A team: the first user owns it (Pro, the credits), the second is its member on Free with none of their own, so a
 * charge the owner's ledger did not pay would fail.
 */
function seedTeam(credits: number): { owner: BenchUser; member: BenchUser } {
  const [owner, member] = seedUsers(2, credits, ([o, m]) => [
    `UPDATE users SET plan = 'Free', credits = 0 WHERE id = '${m!.id}';`,
    `DELETE FROM credit_ledger WHERE user_id = '${m!.id}';`,
    `INSERT INTO team_members (member_id, owner_id, role, joined_at) VALUES ('${o!.id}', '${o!.id}', 'owner', ${Date.now()});`,
    `INSERT INTO team_members (member_id, owner_id, role, joined_at) VALUES ('${m!.id}', '${o!.id}', 'member', ${Date.now()});`,
  ]);
  return { owner: owner!, member: member! };
}

/** Balance messages a socket heard (the owner's page hears a member's charge as its balance), in order. */
type Heard = { at: number; balance: number }[];

/** Opens the user's extension socket and resolves each clip's arrival time by clip name. */
async function listen(user: BenchUser, arrivals: Map<string, number>, balances?: Heard): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${PORT}/api/v1/realtime`, ["clipcut.v1", `bearer.${user.token}`]);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.on("close", (code) => {
    if (!closedByUs.has(ws)) socketCloses.push(code);
  });
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type: string; data?: { clip?: { name: string }; balance?: number } };
    if (message.type === "clip" && message.data?.clip) arrivals.set(message.data.clip.name, performance.now());
    if (balances && message.type === "credits" && typeof message.data?.balance === "number")
      balances.push({ at: performance.now(), balance: message.data.balance });
  });
  ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
  return ws;
}

let reported = false;
/** Close codes of sockets that closed while a scenario ran (a restarted object closes them). */
const socketCloses: number[] = [];
const closedByUs = new WeakSet<WebSocket>();
async function charge(user: BenchUser, name: string): Promise<{ status: number; balance: number }> {
  for (let attempt = 0; ; attempt++) {
    const answer = await chargeOnce(user, name);
    // "busy" is an answer: retry with the same Idempotency-Key after Retry-After, as the companion does.
    if (answer.status !== 503 || attempt >= 5) return answer;
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

async function chargeOnce(user: BenchUser, name: string): Promise<{ status: number; balance: number }> {
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
  const balance = res.status === 201 ? (JSON.parse(res.body) as { credits: { balance: number } }).credits.balance : NaN;
  return { status: res.status, balance };
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
          if ((await charge(user, name)).status === 201) ok++;
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

/**
 * `charger` charges with `inFlight` requests at once while `watchers` listen: the delay from each charge to the
 * member's page message (its clip, by name) and to the owner's page message (the first balance at or below the
 * charge's answer: group commit sends one per batch).
 */
async function teamScenario(
  label: string,
  team: { owner: BenchUser; member: BenchUser },
  charger: BenchUser,
  charges: number,
  inFlight: number,
) {
  const arrivals = new Map<string, number>();
  const ownerBalances: Heard = [];
  const sockets = [await listen(team.member, arrivals), await listen(team.owner, new Map(), ownerBalances)];
  await new Promise((r) => setTimeout(r, 300));
  const sent = new Map<string, { at: number; balance: number }>();
  let ok = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < charges) {
      const name = `${label.replace(/\s+/g, "_")}-${next++}`;
      const at = performance.now();
      const answer = await charge(charger, name);
      if (answer.status === 201) {
        ok++;
        sent.set(name, { at, balance: answer.balance });
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  const toMember = [...sent].flatMap(([name, s]) => (arrivals.has(name) ? [arrivals.get(name)! - s.at] : []));
  const toOwner = [...sent].flatMap(([, s]) => {
    const heard = ownerBalances.find((b) => b.at >= s.at && b.balance <= s.balance);
    return heard ? [heard.at - s.at] : [];
  });
  for (const ws of sockets) {
    closedByUs.add(ws);
    ws.close();
  }
  return {
    scenario: label,
    charges: ok,
    seconds: elapsed.toFixed(2),
    chargesPerSecond: (ok / elapsed).toFixed(1),
    "member page: clips heard": `${toMember.length}/${sent.size}`,
    "p95 charge→member page ms": percentile(toMember, 95).toFixed(1),
    "owner page: balances heard": `${toOwner.length}/${sent.size}`,
    "p95 charge→owner page ms": percentile(toOwner, 95).toFixed(1),
  };
}

async function main() {
  freshDb(PERSIST);
  const single = seedUsers(1, 1_000_000);
  const many = seedUsers(40, 100_000);
  const team = seedTeam(1_000_000);
  const server = await startServer(PORT, PERSIST);
  try {
    await scenario("warmup", single, 20, 2);
    await teamScenario("team warmup", team, team.member, 20, 2);
    // The floor before and after the scenarios: if they differ much, the machine was busy and the shares are rough.
    const before = await staticFloor(BASE);
    const scenarios = [
      await scenario("1 user, 32 in flight", single, scaled(640), 32),
      await scenario("40 users, 1 in flight each", many, scaled(16), 1),
      await scenario("1 user, 8 in flight", single, scaled(200), 8),
    ];
    const teams = [
      await teamScenario("team owner, 32 in flight", team, team.owner, scaled(640), 32),
      await teamScenario("team member, 32 in flight", team, team.member, scaled(640), 32),
      await teamScenario("team member, 8 in flight", team, team.member, scaled(200), 8),
    ];
    const after = await staticFloor(BASE);
    const floor = (before + after) / 2;
    // BENCH_PROFILE=1: where the Worker's (and the ledger objects') CPU goes, after the measured runs (so the
    // profiler's own cost does not touch the figures).
    if (process.env.BENCH_PROFILE) {
      const profile = (label: string, users: BenchUser[], perUser: number, inFlight: number) =>
        profiled(PORT, label, async () => {
          const row = await scenario(label, users, perUser, inFlight);
          return { ...row, requests: row.charges };
        });
      await profile("profile: 1 user, 32 in flight", single, scaled(640), 32);
      await profile("profile: 40 users, 1 in flight each", many, scaled(16), 1);
    }
    const rows = scenarios.map((row) => ({ ...row, "share of static": share(Number(row.chargesPerSecond), floor) }));
    console.log("\nLedger benchmark (wrangler dev, local D1 + Durable Objects, this machine)");
    console.log(
      `load average at the end (1, 5, 15 min): ${loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")}`,
    );
    console.log(
      `static floor: ${floor.toFixed(0)} req/s (favicon.svg, 50 connections; ${before.toFixed(0)} before, ${after.toFixed(0)} after)`,
    );
    console.table(rows);
    const ownerRate = Number(teams[0]!.chargesPerSecond);
    console.log("\nTeams (one owner with one member; the member's charges are paid by the owner's ledger)");
    console.table(
      teams.map((row) => ({
        ...row,
        "share of static": share(Number(row.chargesPerSecond), floor),
        "share of owner's rate": share(Number(row.chargesPerSecond), ownerRate),
      })),
    );
    console.log(`busy (503) answers retried: ${busyAnswers}`);
  } finally {
    stopServer(server);
  }
}

await main();
