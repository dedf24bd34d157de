import { mkdirSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vitest/config";
import { REMIX_FUTURE } from "./vite.config";

// Domain, data and Worker tests run inside workerd with real D1 and Durable Objects.
// The Worker imports the app from source: Remix's Vite plugin serves its server build as a virtual module, so the
// suite starts at once instead of waiting for `remix vite:build`.
// WORKERD_ISOLATE=1: a fresh runtime per file, as before the groups (see `isolate` below).
const SHARED = process.env.WORKERD_ISOLATE !== "1";

const INCLUDE = ["app/**/*.test.ts", "workers/**/*.test.ts", "tests/worker/**/*.test.ts"];

/**
 * Files grouped by name, one runtime per group, so that no runtime lives long enough for the pool's prototype chain
 * (see `isolate` below) to grow deep; the property tests (api-fuzz, thousands of requests) get a runtime of their own.
 * Every test file is in exactly one group: the last one takes whatever the others do not name. (A project's `include`
 * is added to the root's, so the root names none when the projects do.)
 */
function sharedGroups() {
  const groups = [
    ["tests/worker/api-fuzz.test.ts"],
    ["tests/worker/admin*.test.ts", "tests/worker/analytics.test.ts"],
    ["tests/worker/api-[!f]*.test.ts", "tests/worker/auth*.test.ts"],
    ["tests/worker/[c-l]*.test.ts"],
    ["tests/worker/[m-q]*.test.ts"],
    // The realtime files make the most requests; in a longer-lived runtime (the pool's growing Proxy chain, see
    // `isolate`) the upgrade-limit tests went past their timeout under CI load.
    ["tests/worker/r*.test.ts"],
  ];
  return [
    ...groups.map((include, i) => ({ extends: true as const, test: { name: `workerd-${i + 1}`, include } })),
    { extends: true as const, test: { name: "workerd-rest", include: INCLUDE, exclude: groups.flat() } },
  ];
}

export default defineConfig(async () => {
  // wrangler.toml's static assets folder must exist for the config to load; the tests fetch the Worker itself,
  // never the assets, so an empty one (before any build) is enough.
  mkdirSync(path.join(__dirname, "build/client"), { recursive: true });
  const migrations = await readD1Migrations(path.join(__dirname, "migrations"));
  return {
    plugins: [
      remix({ future: REMIX_FUTURE }),
      cloudflareTest({
        wrangler: { configPath: "./wrangler.local.toml" },
        miniflare: {
          // EXTENSION_IDS as a deploy would list its store id (the tests switch the setting to it).
          bindings: {
            TEST_MIGRATIONS: migrations,
            APP_MODE: "local",
            EXTENSION_IDS: "abcdefghijklmnopabcdefghijklmnop",
            ADMIN_OWNERS: "owner@example.com",
          },
        },
      }),
    ],
    resolve: {
      alias: {
        "~": path.join(__dirname, "app"),
        "remix-server-build": "virtual:remix/server-build",
      },
    },
    test: {
      // Remix's virtual build takes Vite's mode: "production" sanitizes errors (no stack traces to clients) as the
      // deployed build does; vitest's default "test" mode would send them.
      mode: "production",
      include: SHARED ? [] : INCLUDE,
      // Pure domain tests run in Node (vitest.domain.config.ts): workerd start-up per file cost more than the tests.
      exclude: ["app/domain/**", "**/node_modules/**"],
      // Files share a workerd runtime in six groups (sharedGroups above): a fresh runtime per file cost ~9 s a file
      // under load, ~5 of the suite's ~14 minutes; tests/worker/setup.ts gives each file fresh storage and a fresh
      // module graph. Not one runtime for all: @cloudflare/vitest-pool-workers (0.15.1, still in 0.23.0) wraps the
      // entrypoint and Durable Object prototypes in one more Proxy per construction (cloudflare/workers-sdk#15092),
      // so reads slow down with every request of a runtime and, after ~25 files, throw "Maximum call stack size
      // exceeded". Measured: all 36 files, 285 tests, 252 s with the groups on a quiet machine.
      isolate: !SHARED,
      ...(SHARED ? { projects: sharedGroups() } : {}),
      setupFiles: ["./tests/worker/setup.ts"],
      // npm test runs this suite beside the browser suites on 2 cores: a test of 60 sequential requests took over
      // vitest's default 5 s there (it takes ~1 s alone). A slow test still fails; only the ceiling is higher.
      testTimeout: 30_000,
      deps: {
        optimizer: {
          ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime"] },
        },
      },
    },
  };
});
