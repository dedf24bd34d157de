/**
 * Demo data for local mode: the two demo accounts, ~40 users over the last 12 months on every plan, and a few
 * hundred clips. Credits follow the ledger rules (every balance is the sum of its ledger rows), so the invariant
 * holds on seeded data too. First applies the pending migrations (as `wrangler d1 migrations apply` would); seeds
 * only when the users table is empty. Both in this one process, through wrangler's platform proxy (local-d1.ts).
 * Usage: tsx scripts/seed.ts [--persist-to DIR] [--scale large]
 * `--scale large` adds about 20,000 users and 300,000 clips (for bench/admin.ts), written as multi-row INSERTs.
 */
import { clipCost, NEW_USER_CREDITS } from "../app/domain/credits";
import type { Format, Quality } from "../app/domain/media";
import { PLANS, type PlanId } from "../app/domain/plans";
import { hashPassword } from "../app/services/password.server";
import { applyMigrations, openLocalD1 } from "./local-d1";

export const DEMO_PASSWORD = "ClipCut-demo-1";
export const DEMO_ACCOUNTS = [
  { email: "admin@clipcut.local", fullName: "Avery Admin", role: "admin", plan: "Pro" },
  { email: "creator@clipcut.local", fullName: "Casey Creator", role: "user", plan: "Free" },
] as const;

const DAY = 24 * 60 * 60 * 1000;
const persistTo = (() => {
  const i = process.argv.indexOf("--persist-to");
  return i > 0 ? process.argv[i + 1] : undefined;
})();

// Deterministic randomness, so every fresh start shows the same demo.
let state = 20250101;
const rand = () => (state = (state * 1664525 + 1013904223) % 2 ** 32) / 2 ** 32;
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const sql = (value: string | number | null) =>
  value === null ? "NULL" : typeof value === "number" ? String(value) : `'${value.replace(/'/g, "''")}'`;

const FIRST = [
  "Maya",
  "Liam",
  "Noah",
  "Zoe",
  "Ethan",
  "Ava",
  "Lucas",
  "Mia",
  "Leo",
  "Isla",
  "Omar",
  "Priya",
  "Kenji",
  "Sofia",
  "Mateo",
  "Chloe",
  "Diego",
  "Hana",
  "Ivan",
  "Nora",
];
const LAST = [
  "Patel",
  "Kim",
  "Garcia",
  "Nguyen",
  "Smith",
  "Rossi",
  "Okafor",
  "Müller",
  "Silva",
  "Cohen",
  "Tanaka",
  "Dubois",
  "Larsen",
  "Haddad",
];
const TOPICS = [
  "Podcast highlight",
  "Gameplay moment",
  "Tutorial intro",
  "Interview quote",
  "Reaction",
  "Live stream clutch",
  "Product demo",
  "Recipe step",
  "Workout tip",
  "Music drop",
];
const VIDEOS = [
  "dQw4w9WgXcQ",
  "9bZkp7q19f0",
  "kJQP7kiw5Fk",
  "RgKAFK5djSk",
  "OPf0YbXqDm0",
  "JGwWNGJdvx8",
  "fRh_vgS2dFE",
  "60ItHLz5WEA",
];
const QUALITIES: Quality[] = ["360p", "480p", "720p", "720p", "1080p", "1080p", "1440p", "2160p"];
const FORMATS: Format[] = ["mp4", "mp4", "mp4", "mp3", "gif", "mkv", "wav"];

interface Seeded {
  statements: string[];
  users: number;
  clips: number;
}

async function build(now: number): Promise<Seeded> {
  const statements: string[] = [];
  let clipTotal = 0;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const people = [
    ...DEMO_ACCOUNTS.map((a, i) => ({
      ...a,
      createdAt: now - (200 - i * 30) * DAY,
      status: "offline",
      password: true,
    })),
    ...Array.from({ length: 40 }, (_, i) => {
      const first = pick(FIRST);
      const last = pick(LAST);
      return {
        email: `${first}.${last}.${i}@example.com`.toLowerCase().replace("ü", "u"),
        fullName: `${first} ${last}`,
        role: "user" as const,
        plan: pick(["Free", "Free", "Free", "Basic", "Basic", "Advanced", "Pro", "Plugin"] as const),
        createdAt: now - Math.floor(rand() * 360 * DAY) - DAY,
        status: i % 13 === 5 ? "Banned" : rand() < 0.2 ? "online" : "offline",
        password: false,
      };
    }),
  ];

  for (const person of people) {
    const id = crypto.randomUUID();
    const effective: PlanId = person.plan === "Plugin" ? "Free" : person.plan;
    const ledger: { delta: number; kind: string; description: string; at: number; key: string; clipId?: string }[] = [];
    let balance = 0;
    const add = (delta: number, kind: string, description: string, at: number, key: string, clipId?: string) => {
      balance += delta;
      ledger.push({ delta, kind, description, at, key, clipId });
    };
    add(NEW_USER_CREDITS, "signup", "Welcome credits", person.createdAt, "signup");
    if (person.plan === "Plugin")
      add(1, "plugin_connect", "Plugin connection bonus", person.createdAt + DAY, "plugin-connect");
    let periodStart: number | null = null;
    if (effective !== "Free") {
      // Monthly plan credits from sign-up until now, one grant per period.
      for (let at = person.createdAt, n = 0; at < now; at += 30 * DAY, n++) {
        add(PLANS[effective].credits, n === 0 ? "plan_grant" : "renewal", `${effective} plan credits`, at, `plan:${n}`);
        periodStart = at;
      }
    }
    const clipCount = person.email === "creator@clipcut.local" ? 6 : Math.floor(rand() * 18);
    const clipRows: string[] = [];
    for (let c = 0; c < clipCount; c++) {
      const at = person.createdAt + Math.floor(rand() * (now - person.createdAt));
      const start = Math.floor(rand() * 600);
      const length = 5 + Math.floor(rand() * (PLANS[effective].maxClipSeconds - 5));
      const quality = effective === "Free" ? pick(["360p", "480p", "720p"] as const) : pick(QUALITIES);
      const format = effective === "Free" ? pick(["mp4", "mp3", "gif"] as const) : pick(FORMATS);
      const cost = clipCost(length, format, quality);
      if (cost > balance) continue;
      const clipId = crypto.randomUUID();
      const name = `${pick(TOPICS)} #${c + 1}`;
      clipRows.push(
        `INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, format, quality, cost, status, source, created_at) VALUES (${[
          clipId,
          id,
          id,
          name,
          `https://www.youtube.com/watch?v=${pick(VIDEOS)}`,
          start,
          start + length,
          format,
          quality,
          cost,
          "Completed",
          "seed",
          at,
        ]
          .map(sql)
          .join(", ")});`,
      );
      add(-cost, "clip", `Clip Creation: "${name}"`, at, `clip:${clipId}`, clipId);
      clipTotal++;
    }
    const periodEnd = periodStart === null ? null : periodStart + 30 * DAY;
    statements.push(
      `INSERT INTO users (id, email, email_verified_at, password_hash, full_name, role, plan, credits, status, plan_period_start, plan_period_end, created_at, updated_at, last_seen) VALUES (${[
        id,
        person.email,
        person.createdAt,
        person.password ? passwordHash : null,
        person.fullName,
        person.role,
        person.plan,
        balance,
        person.status,
        periodStart,
        periodEnd,
        person.createdAt,
        now,
        now - Math.floor(rand() * 3 * DAY),
      ]
        .map(sql)
        .join(", ")});`,
      ...clipRows,
    );
    // Ledger rows in time order with running balances.
    let running = 0;
    for (const row of ledger.sort((a, b) => a.at - b.at)) {
      running += row.delta;
      statements.push(
        `INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, clip_id, idempotency_key, request_hash, created_at) VALUES (${[
          crypto.randomUUID(),
          id,
          row.delta,
          running,
          row.kind,
          row.description,
          row.clipId ?? null,
          `seed:${row.key}`,
          "seed",
          row.at,
        ]
          .map(sql)
          .join(", ")});`,
      );
    }
  }
  return { statements, users: people.length, clips: clipTotal };
}

const LARGE_USERS = 20_000;
const LARGE_CLIPS = 300_000;
const ROWS_PER_INSERT = 400;

function* multiRowInserts(head: string, rows: Iterable<string>): Generator<string> {
  let batch: string[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === ROWS_PER_INSERT) {
      yield `${head} VALUES ${batch.join(",")};`;
      batch = [];
    }
  }
  if (batch.length) yield `${head} VALUES ${batch.join(",")};`;
}

/**
 * The large scale: users on every plan over the last 12 months, each with a welcome row, one seed grant and their
 * clips (ledger row per clip), so balances still equal their ledger sums. No passwords (nobody signs in as them).
 */
function buildLarge(
  now: number,
  userTotal: number,
  clipTotal: number,
): { statements: string[]; users: number; clips: number } {
  const users: string[] = [];
  const clipRows: string[] = [];
  const ledgerRows: string[] = [];
  const perUser = clipTotal / userTotal;
  let clipsMade = 0;
  for (let i = 0; i < userTotal; i++) {
    const id = crypto.randomUUID();
    const first = pick(FIRST);
    const last = pick(LAST);
    const createdAt = now - Math.floor(rand() * 365 * DAY) - DAY;
    const plan = pick(["Free", "Free", "Free", "Basic", "Basic", "Advanced", "Pro", "Plugin"] as const);
    const grant = 10_000;
    let balance = NEW_USER_CREDITS + grant;
    ledgerRows.push(
      `(${[crypto.randomUUID(), id, NEW_USER_CREDITS, NEW_USER_CREDITS, "signup", "Welcome credits", null, "seed:signup", "seed", createdAt].map(sql).join(",")})`,
      `(${[crypto.randomUUID(), id, grant, balance, "adjust", "Seed grant", null, "seed:grant", "seed", createdAt + 1].map(sql).join(",")})`,
    );
    const count = Math.min(clipTotal - clipsMade, Math.round(perUser * 2 * rand()));
    for (let c = 0; c < count; c++) {
      const clipId = crypto.randomUUID();
      const at = createdAt + 2 + Math.floor(rand() * (now - createdAt - 2));
      const length = 5 + Math.floor(rand() * 55);
      const cost = clipCost(length, "mp4", "720p");
      balance -= cost;
      const name = `${pick(TOPICS)} #${c + 1}`;
      clipRows.push(
        `(${[clipId, id, name, `https://www.youtube.com/watch?v=${pick(VIDEOS)}`, 0, length, "mp4", "720p", cost, "Completed", "seed", at].map(sql).join(",")})`,
      );
      ledgerRows.push(
        `(${[crypto.randomUUID(), id, -cost, balance, "clip", "Clip Creation", clipId, `seed:clip:${c}`, "seed", at].map(sql).join(",")})`,
      );
    }
    clipsMade += count;
    const status = i % 97 === 3 ? "Banned" : rand() < 0.1 ? "online" : "offline";
    users.push(
      `(${[id, `${first}.${last}.l${i}@example.com`.toLowerCase().replace("ü", "u"), createdAt, `${first} ${last}`, "user", plan, balance, status, createdAt, now, now - Math.floor(rand() * 30 * DAY)].map(sql).join(",")})`,
    );
  }
  return {
    statements: [
      ...multiRowInserts(
        "INSERT INTO users (id, email, email_verified_at, full_name, role, plan, credits, status, created_at, updated_at, last_seen)",
        users,
      ),
      ...multiRowInserts(
        "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, format, quality, cost, status, source, created_at)",
        clipRows,
      ),
      ...multiRowInserts(
        "INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, clip_id, idempotency_key, request_hash, created_at)",
        ledgerRows,
      ),
    ],
    users: userTotal,
    clips: clipsMade,
  };
}

/** Statements per batch: each batch is one transaction, and the large scale has thousands of multi-row inserts. */
const BATCH = 50;

async function main() {
  const { db, close } = await openLocalD1(persistTo);
  try {
    const applied = await applyMigrations(db);
    if (applied.length > 0) console.log(`Applied ${applied.length} migration(s): ${applied.join(", ")}.`);
    const users = await db.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    if ((users?.n ?? 0) > 0) {
      console.log("Database already has users: seed skipped.");
      return;
    }
    const started = Date.now();
    const now = Date.now();
    const seeded = await build(now);
    const large = process.argv.includes("--scale") && process.argv[process.argv.indexOf("--scale") + 1] === "large";
    const extra = large ? buildLarge(now, LARGE_USERS - seeded.users, LARGE_CLIPS - seeded.clips) : null;
    if (large) console.log(`Applying ${extra?.users} users and ${extra?.clips} clips (large scale)...`);
    const statements = [...seeded.statements, ...(extra?.statements ?? [])];
    for (let i = 0; i < statements.length; i += BATCH) {
      await db.batch(statements.slice(i, i + BATCH).map((s) => db.prepare(s)));
    }
    console.log(
      `Seeded ${seeded.users + (extra?.users ?? 0)} users and ${seeded.clips + (extra?.clips ?? 0)} clips in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    await close();
  }
}

await main();
