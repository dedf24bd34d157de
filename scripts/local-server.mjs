// Local mode: build, migrate the local D1, seed demo data when empty, then serve with wrangler dev.
// No Cloudflare account and no network needed. Used by `npm start` and by the e2e tests.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";

const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  // Run what ships: `wrangler dev` otherwise bundles React's development build (`wrangler deploy` uses production),
  // with its extra checks (about 15% slower per signed-in page here). NODE_ENV=development npm start brings it back.
  NODE_ENV: process.env.NODE_ENV === "development" ? "development" : "production",
};

/** The local Worker: production's, with the stand-ins (Stripe checkout, e-mail outbox) and their binding. */
const LOCAL_CONFIG = "wrangler.local.toml";

function run(cmd, args, label) {
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env, encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`${label} failed (exit ${result.status}). See the output above.`);
  }
  console.log(`✓ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result.stdout;
}

/**
 * `inspector: false` turns off wrangler's DevTools proxy. It forwards every runtime message (four for each D1 call)
 * to wrangler's node process, which about doubles a signed-in page's CPU: test servers don't need DevTools, and
 * wrangler offers no flag for it, only this variable (it skips the proxy inside VS Code's debug terminal).
 * @param {{ port: number, persistTo?: string, fresh?: boolean, build?: boolean, vars?: Record<string,string>,
 *   inspector?: boolean }} options
 */
export function startLocalServer({ port, persistTo, fresh = false, build = true, vars = {}, inspector = true }) {
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  if (fresh && persistTo) rmSync(persistTo, { recursive: true, force: true });
  if (build || !existsSync("build/server/index.js")) run("npx", ["remix", "vite:build"], "Build");
  // Migrations and demo data in one process (scripts/local-d1.ts): one runtime start, not three wrangler commands.
  process.stdout.write(run("npx", ["tsx", "scripts/seed.ts", ...persist], "Local D1 migrated and demo data checked"));
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      LOCAL_CONFIG,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--show-interactive-dev-session=false",
      ...persist,
      ...varArgs,
      // Parallel servers on one machine each need their own inspector port (default unchanged).
      ...(process.env.INSPECTOR_PORT ? ["--inspector-port", process.env.INSPECTOR_PORT] : []),
    ],
    { stdio: "inherit", env: inspector ? env : { ...env, VSCODE_INSPECTOR_OPTIONS: "{}" } },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code) => process.exit(code ?? 0));
  return child;
}
