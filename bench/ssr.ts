/**
 * Server rendering benchmark: requests per second at 50 connections for the public pages (/, /pricing — served from
 * the edge cache once warm) and the signed-in /dashboard, each as a share of the static floor measured in the same
 * run (a static asset from the same Worker). Also checks that responses were 2xx.
 * Run: npm run build && npx tsx bench/ssr.ts   (starts and stops its own server; PORT=8802 by default)
 */
import { spawnSync } from "node:child_process";
import { benchEnv, freshDb, load, share, startServer, staticFloor, stopServer } from "./server";

const PORT = Number(process.env.PORT ?? 8802);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-ssr";
const CONNECTIONS = 50;

/** Signs the demo creator in through the real form and returns the session cookie. */
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

async function main() {
  freshDb(PERSIST);
  const seeded = spawnSync("npx", ["tsx", "scripts/seed.ts", "--persist-to", PERSIST], { env: benchEnv });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  const server = await startServer(PORT, PERSIST);
  try {
    const cookie = await signIn();
    const before = await staticFloor(BASE, CONNECTIONS);
    const routes: [string, string, Record<string, string> | undefined][] = [
      ["/", "/", undefined],
      ["/pricing", "/pricing", undefined],
      ["/clip", "/clip", undefined],
      ["signed-in /dashboard", "/dashboard", { Cookie: cookie }],
    ];
    const results = [];
    for (const [label, path, headers] of routes)
      results.push({ label, r: await load(`${BASE}${path}`, { connections: CONNECTIONS, headers }) });
    // The floor before and after: if they differ much, the machine was busy and the shares are rough.
    const after = await staticFloor(BASE, CONNECTIONS);
    const floor = (before + after) / 2;
    const rows = [];
    for (const { label, r } of results) {
      rows.push({
        route: label,
        "req/s": r.requestsPerSecond.toFixed(0),
        "share of static": share(r.requestsPerSecond, floor),
        "p99 ms": r.p99,
        non2xx: r.non2xx,
        errors: r.errors,
      });
    }
    console.log("\nSSR benchmark (wrangler dev, 50 connections, load generator on the same machine)");
    console.log(
      `static floor: ${floor.toFixed(0)} req/s (favicon.svg; ${before.toFixed(0)} before, ${after.toFixed(0)} after)`,
    );
    console.table(rows);
  } finally {
    stopServer(server);
  }
}

await main();
