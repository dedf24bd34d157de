/**
 * Ledger benchmark, in two parts.
 * 1. Charges beside the charge peer (bench/peers/counter: a minimal Durable Object counter per user that
 *    group-commits one D1 batch per group of charges), each under its own `wrangler dev`, with wrangler's inspector
 *    proxy off and on, in alternating rounds: 40 users with 1 charge in flight each, and one user with 32 in flight.
 *    Charges per second, and CPU per charge split by process, beside the peer's (bench/side-by-side.ts). No page
 *    socket is open on either side here (the peer has none).
 * 2. On ClipCut with the first inspector setting measured: charges per second through API v1 with the users' page
 *    sockets open and the delay from a charge to its WebSocket message, each rate as a share of the static floor (a
 *    static asset from the same Worker, 50 connections) measured before and after. Teams: a member's charge goes
 *    member's ledger → owner's ledger (object to object); its rate is printed as a share of the same team's owner
 *    charging, and the delay from a member's charge to the member's page message (the clip) and to the owner's page
 *    message (the balance), 8 in flight.
 * The load average is printed at the start and the end.
 * Run: npm run build && npm run bench:ledger   (starts and stops its own servers)
 *   PORT=8810           first port: ClipCut on PORT, the peer on PORT+2, then PORT+4 and PORT+6 for the second
 *                       inspector setting (each inspector on the port after)
 *   BENCH_INSPECTOR=both  off, on or both
 *   BENCH_ROUNDS=4      alternating rounds of part 1
 *   SCALE=0.1           a short smoke run (multiplies every scenario's number of charges)
 *   BENCH_PROFILE=1     CPU profiles of two scenarios after the figures (needs the inspector proxy: it profiles the
 *                       server with the inspector on)
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { profiled } from "./profiler";
import { benchEnv as env, freshDb, share, staticFloor } from "./server";
import {
  alternate,
  CPU_NOTE,
  loadAverage,
  preparePeerDb,
  printSideBySide,
  startSides,
  stopSides,
  type Measured,
  type Side,
} from "./side-by-side";

const FIRST_PORT = Number(process.env.PORT ?? 8810);
const PERSIST = ".wrangler/bench-ledger";
const PEER_PERSIST = ".wrangler/bench-ledger-peer";
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
/** The ClipCut server part 2 (the sockets, the teams, the profiles) talks to; set once the servers are up. */
let PORT = 0;
let BASE = "";
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
async function charge(user: BenchUser, name: string, base = BASE): Promise<{ status: number; balance: number }> {
  for (let attempt = 0; ; attempt++) {
    const answer = await chargeOnce(user, name, base).catch((error: unknown) => {
      // wrangler dev's proxy may reset a kept-alive socket that sat idle (workers-sdk#14641): the charge is sent
      // again with the same Idempotency-Key, as a client would, and counted; anything else still ends the run.
      const code = (error as { code?: string }).code;
      if (code !== "ECONNRESET" || attempt >= 5) throw error;
      resets++;
      return null;
    });
    if (answer === null) continue;
    // "busy" is an answer: retry with the same Idempotency-Key after Retry-After, as the companion does.
    if (answer.status !== 503 || attempt >= 5) return answer;
    busyAnswers++;
    await new Promise((r) => setTimeout(r, 200));
  }
}

let busyAnswers = 0;
let resets = 0;
/**
 * A light client, like the floor's autocannon: node:http over kept-alive sockets. (Node's fetch costs the shared
 * cores several times more per request, which showed as a lower charge rate that was the client's, not ours.)
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function chargeOnce(user: BenchUser, name: string, base: string): Promise<{ status: number; balance: number }> {
  const res = await post(
    `${base}/api/v1/clips`,
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

let roundNo = 0;
/** Part 1: `perUser` charges for each of `users` users, `inFlight` at a time per user; counts the ones that went in. */
async function chargeRound(
  chargeAs: (user: number, name: string) => Promise<boolean>,
  users: number,
  perUser: number,
  inFlight: number,
): Promise<Measured> {
  // Fresh names (and so Idempotency-Keys) every round: a replayed charge would cost less.
  const label = `round-${++roundNo}`;
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: users }, async (_, ui) => {
      let next = 0;
      const worker = async () => {
        while (next < perUser) {
          if (await chargeAs(ui, `${label}-${ui}-${next++}`)) ok++;
          else failed++;
        }
      };
      await Promise.all(Array.from({ length: inFlight }, worker));
    }),
  );
  return { requests: ok, failed, seconds: (performance.now() - started) / 1000 };
}

/** The peer's charge: the same body as ClipCut's, the user named by X-User (bench/peers/counter/seed.sql: u0 … u40). */
async function peerCharge(base: string, userId: string, name: string): Promise<boolean> {
  const res = await post(
    `${base}/charge`,
    { "X-User": userId, "Content-Type": "application/json" },
    JSON.stringify({ name, videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", startSeconds: 0, endSeconds: 15 }),
  );
  if (res.status !== 201 && !reported) {
    reported = true;
    console.error(`first failed peer charge: ${res.status} ${res.body.slice(0, 200)}`);
  }
  return res.status === 201;
}

async function main() {
  const loadAtStart = loadAverage();
  freshDb(PERSIST);
  const single = seedUsers(1, 1_000_000);
  const many = seedUsers(40, 100_000);
  const team = seedTeam(1_000_000);
  preparePeerDb("counter", PEER_PERSIST);
  const sides = await startSides("counter", FIRST_PORT, { clipcut: PERSIST, peer: PEER_PERSIST });
  try {
    const first = sides[0] as Side;
    PORT = first.port;
    BASE = first.base;
    const fortyUsers = (side: Side, perUser: number) =>
      side.side === "ClipCut"
        ? chargeRound(async (ui, name) => (await charge(many[ui]!, name, side.base)).status === 201, 40, perUser, 1)
        : chargeRound((ui, name) => peerCharge(side.base, `u${ui + 1}`, name), 40, perUser, 1);
    const oneUser = (side: Side, charges: number) =>
      side.side === "ClipCut"
        ? chargeRound(async (_, name) => (await charge(single[0]!, name, side.base)).status === 201, 1, charges, 32)
        : chargeRound((_, name) => peerCharge(side.base, "u0", name), 1, charges, 32);
    // A warm-up on every side (JIT, each user's object loaded), not counted.
    for (const side of sides) {
      await fortyUsers(side, 2);
      await oneUser(side, 64);
    }
    const forty = await alternate(sides, ROUNDS, (side) => fortyUsers(side, scaled(16)));
    const one = await alternate(sides, ROUNDS, (side) => oneUser(side, scaled(640)));
    const loadAfterRounds = loadAverage();

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
    // profiler's own cost does not touch the figures). The profiler talks to wrangler's inspector proxy.
    const profiledSide = sides.find((s) => s.side === "ClipCut" && s.inspector === "on");
    if (process.env.BENCH_PROFILE && !profiledSide) console.log("BENCH_PROFILE needs BENCH_INSPECTOR=on or both");
    if (process.env.BENCH_PROFILE && profiledSide) {
      PORT = profiledSide.port;
      BASE = profiledSide.base;
      const profile = (label: string, users: BenchUser[], perUser: number, inFlight: number) =>
        profiled(PORT, label, async () => {
          const row = await scenario(label, users, perUser, inFlight);
          return { ...row, requests: row.charges };
        });
      await profile("profile: 1 user, 32 in flight", single, scaled(640), 32);
      await profile("profile: 40 users, 1 in flight each", many, scaled(16), 1);
    }

    const rounds = `${ROUNDS} alternating rounds`;
    printSideBySide(
      `Charges beside the group-commit peer: 40 users, 1 in flight each (${rounds} of ${scaled(16)} charges a user)`,
      "charge",
      forty,
    );
    printSideBySide(
      `Charges beside the group-commit peer: 1 user, 32 in flight (${rounds} of ${scaled(640)} charges)`,
      "charge",
      one,
    );
    console.log(CPU_NOTE);

    const rows = scenarios.map((row) => ({ ...row, "share of static": share(Number(row.chargesPerSecond), floor) }));
    console.log(
      `\nLedger benchmark with page sockets open (ClipCut, inspector proxy ${first.inspector}, wrangler dev, local D1 + Durable Objects)`,
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
    console.log(
      `busy (503) answers retried: ${busyAnswers}; connections reset by wrangler dev and sent again: ${resets}`,
    );
    console.log(
      `load average (1, 5, 15 min): ${loadAtStart} at start, ${loadAfterRounds} after the rounds, ${loadAverage()} at end`,
    );
  } finally {
    stopSides(sides);
  }
}

await main();
