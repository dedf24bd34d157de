/**
 * Server rendering benchmark, in two parts.
 * 1. The signed-in /dashboard beside the page peer (bench/peers/page: a minimal Remix v2 page on Workers that checks
 *    a session cookie, reads the session, the user and ten rows from D1 and renders them), each under its own
 *    `wrangler dev`, with wrangler's inspector proxy off and on, in alternating rounds at 50 connections: req/s, and
 *    CPU per request split by process, beside the peer's (bench/side-by-side.ts).
 * 2. The public pages (/, /pricing, /features, a blog post, /clip — served from the Worker's page store once warm) and
 *    /dashboard as a share of the static floor (a static asset from the same Worker) measured right before and right
 *    after each, on ClipCut with the first inspector setting measured. Also checks that responses were 2xx and says
 *    where one more answer of each page came from (X-Page-Cache / X-Page-Cache-Tier).
 * The load average is printed at the start and the end.
 * Run: npm run build && npm run bench:ssr   (starts and stops its own servers)
 *   PORT=8802           first port: ClipCut on PORT, the peer on PORT+2, then PORT+4 and PORT+6 for the second
 *                       inspector setting (each inspector on the port after)
 *   BENCH_INSPECTOR=both  off, on or both
 *   BENCH_ROUNDS=4      alternating rounds of part 1
 *   BENCH_SECONDS=8     measured seconds per round and per run of part 2
 *   BENCH_PUBLIC=0      skips part 2
 */
import { spawnSync } from "node:child_process";
import { sortedArticles } from "../app/domain/blog";
import { benchEnv, freshDb, load, serverCpuSeconds, share, signInAs, type LoadResult } from "./server";
import {
  alternate,
  buildPagePeer,
  CPU_NOTE,
  httpRound,
  loadAverage,
  preparePeerDb,
  printSideBySide,
  startSides,
  stopSides,
  type Side,
} from "./side-by-side";

const PORT = Number(process.env.PORT ?? 8802);
const PERSIST = ".wrangler/bench-ssr";
const PEER_PERSIST = ".wrangler/bench-ssr-peer";
const CONNECTIONS = 50;
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8));
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
/** The page peer's seeded session (bench/peers/page/seed.sql keeps its SHA-256). */
const PEER_COOKIE = "peer_session=peer-bench-token";

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Where one more answer of the page came from, after the load: memory, the Workers cache, or a render. */
async function servedFrom(base: string, path: string, headers?: Record<string, string>): Promise<string> {
  const res = await fetch(`${base}${path}`, { headers });
  await res.arrayBuffer();
  const cache = res.headers.get("X-Page-Cache");
  if (!cache) return "render (not stored)";
  return [cache, res.headers.get("X-Page-Cache-Tier")].filter(Boolean).join(" / ");
}

/** The signed-in page of each side: ClipCut's /dashboard as the seeded creator, the peer's one page. */
async function pageOf(side: Side): Promise<{ url: string; headers: Record<string, string> }> {
  const page =
    side.side === "ClipCut"
      ? { url: `${side.base}/dashboard`, headers: { Cookie: await signInAs(side.base, "creator@clipcut.local") } }
      : { url: `${side.base}/`, headers: { Cookie: PEER_COOKIE } };
  const check = await fetch(page.url, { headers: page.headers, redirect: "manual" });
  if (check.status !== 200) throw new Error(`${side.side}'s page answered ${check.status}`);
  return page;
}

/** Part 2: each public page (and /dashboard) between two runs of the static floor, on one ClipCut server. */
async function publicPages(clipcut: Side, cookie: string) {
  const BASE = clipcut.base;
  const post = sortedArticles()[0];
  if (!post) throw new Error("no blog article to measure");
  const routes: [string, string, Record<string, string> | undefined][] = [
    ["/", "/", undefined],
    ["/pricing", "/pricing", undefined],
    ["/features", "/features", undefined],
    [`blog post /blog/${post.slug}`, `/blog/${post.slug}`, undefined],
    ["/clip", "/clip", undefined],
    ["signed-in /dashboard", "/dashboard", { Cookie: cookie }],
  ];
  // Each route sits between two floor runs and is compared with their mean: a busy spell moves both.
  const cpu = () => serverCpuSeconds(clipcut.server);
  const floorRun = () => load(`${BASE}/favicon.svg`, { connections: CONNECTIONS, seconds: SECONDS, cpu });
  const floors: LoadResult[] = [await floorRun()];
  const rows = [];
  for (const [label, path, headers] of routes) {
    const r = await load(`${BASE}${path}`, { connections: CONNECTIONS, seconds: SECONDS, headers, cpu });
    floors.push(await floorRun());
    const around = floors.slice(-2);
    const floor = mean(around.map((f) => f.requestsPerSecond));
    const floorCpu = mean(around.map((f) => f.cpuMicrosPerRequest ?? NaN));
    rows.push({
      route: label,
      "req/s": r.requestsPerSecond.toFixed(0),
      "floor req/s": floor.toFixed(0),
      "share of static": share(r.requestsPerSecond, floor),
      "CPU µs/req": r.cpuMicrosPerRequest?.toFixed(0) ?? "?",
      "floor CPU µs/req": floorCpu.toFixed(0),
      // As the rate share: the static asset's cost over the page's (100% = a page costs what the asset does).
      "CPU share of static": r.cpuMicrosPerRequest ? share(floorCpu, r.cpuMicrosPerRequest) : "?",
      "p99 ms": r.p99,
      non2xx: r.non2xx,
      errors: r.errors,
      "served from": await servedFrom(BASE, path, headers),
    });
  }
  console.log(
    `\nPublic pages beside the static floor (ClipCut, inspector proxy ${clipcut.inspector}, ${CONNECTIONS} connections, ${SECONDS} s per run)`,
  );
  console.log(
    `static floor (favicon.svg): ${floors.map((f) => f.requestsPerSecond.toFixed(0)).join(", ")} req/s, run by run`,
  );
  console.log(
    "CPU µs/req: user+system CPU of the server's processes (wrangler, workerd) per request; on a busy machine the " +
      "CPU share is steadier than the rate share",
  );
  console.table(rows);
}

async function main() {
  const loadAtStart = loadAverage();
  freshDb(PERSIST);
  const seeded = spawnSync("npx", ["tsx", "scripts/seed.ts", "--persist-to", PERSIST], { env: benchEnv });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  buildPagePeer();
  preparePeerDb("page", PEER_PERSIST);
  const sides = await startSides("page", PORT, { clipcut: PERSIST, peer: PEER_PERSIST });
  try {
    const pages = new Map<Side, { url: string; headers: Record<string, string> }>();
    for (const side of sides) pages.set(side, await pageOf(side));
    const page = (side: Side) => pages.get(side) as { url: string; headers: Record<string, string> };
    // One warm-up run each (JIT, caches), not counted.
    for (const side of sides) await httpRound(page(side).url, page(side).headers, CONNECTIONS, 1);
    const results = await alternate(sides, ROUNDS, (side) =>
      httpRound(page(side).url, page(side).headers, CONNECTIONS, SECONDS),
    );
    const loadAfterRounds = loadAverage();
    if (process.env.BENCH_PUBLIC !== "0") {
      const clipcut = sides[0] as Side;
      await publicPages(clipcut, page(clipcut).headers.Cookie as string);
    }
    printSideBySide(
      `Signed-in page beside the peer (wrangler dev, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s; ` +
        "ClipCut: /dashboard as the seeded creator; peer: bench/peers/page)",
      "req",
      results,
    );
    console.log(CPU_NOTE);
    console.log(
      `load average (1, 5, 15 min): ${loadAtStart} at start, ${loadAfterRounds} after the rounds, ${loadAverage()} at end`,
    );
  } finally {
    stopSides(sides);
  }
}

await main();
