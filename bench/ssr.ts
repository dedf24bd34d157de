/**
 * Server rendering benchmark: requests per second at 50 connections for the public pages (/, /pricing, /features,
 * a blog post, /clip — served from the Worker's page store once warm) and the signed-in /dashboard, each as a share
 * of the static floor (a static asset from the same Worker) measured right before and right after it, with the load
 * average beside the figures (on a busy machine the shares are rough). Beside the rate, the server's CPU per request
 * (wrangler and workerd processes) and the same share by cost, which a shared machine disturbs far less. Also checks
 * that responses were 2xx and says where one more answer of each page came from (X-Page-Cache / X-Page-Cache-Tier).
 * Run: npm run build && npx tsx bench/ssr.ts   (starts and stops its own server)
 *   PORT=8802           wrangler dev's port (the inspector takes PORT+1)
 *   BENCH_SECONDS=8     measured seconds per route and per floor run (after a 1 s warm-up)
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { sortedArticles } from "../app/domain/blog";
import {
  benchEnv,
  freshDb,
  load,
  serverCpuSeconds,
  share,
  startServer,
  stopServer,
  type LoadResult,
  signInAs,
} from "./server";

const PORT = Number(process.env.PORT ?? 8802);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-ssr";
const CONNECTIONS = 50;
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8));

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const signIn = () => signInAs(BASE, "creator@clipcut.local");

/** Where one more answer of the page came from, after the load: memory, the Workers cache, or a render. */
async function servedFrom(path: string, headers?: Record<string, string>): Promise<string> {
  const res = await fetch(`${BASE}${path}`, { headers });
  await res.arrayBuffer();
  const cache = res.headers.get("X-Page-Cache");
  if (!cache) return "render (not stored)";
  return [cache, res.headers.get("X-Page-Cache-Tier")].filter(Boolean).join(" / ");
}

async function main() {
  freshDb(PERSIST);
  const seeded = spawnSync("npx", ["tsx", "scripts/seed.ts", "--persist-to", PERSIST], { env: benchEnv });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  const loadAtStart = loadAverage();
  const server = await startServer(PORT, PERSIST);
  try {
    const cookie = await signIn();
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
    const cpu = () => serverCpuSeconds(server);
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
        "served from": await servedFrom(path, headers),
      });
    }
    console.log(
      `\nSSR benchmark (wrangler dev, ${CONNECTIONS} connections, ${SECONDS} s per run, load generator on the same machine)`,
    );
    console.log(
      `static floor (favicon.svg): ${floors.map((f) => f.requestsPerSecond.toFixed(0)).join(", ")} req/s, run by run`,
    );
    console.log(`load average (1, 5, 15 min): ${loadAtStart} at start, ${loadAverage()} at end`);
    console.log(
      "CPU µs/req: user+system CPU of the server's processes (wrangler, workerd) per request; on a busy machine the " +
        "CPU share is steadier than the rate share",
    );
    console.table(rows);
  } finally {
    stopServer(server);
  }
}

await main();
