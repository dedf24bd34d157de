import { mkdirSync } from "node:fs";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vitest/config";
import { REMIX_FUTURE } from "./vite.config";

// Domain, data and Worker tests run inside workerd with real D1 and Durable Objects.
// The Worker imports the app from source: Remix's Vite plugin serves its server build as a virtual module, so the
// suite starts at once instead of waiting for `remix vite:build`.
// WORKERD_ISOLATE=1: a fresh runtime per file (see `isolate` below).
const SHARED = process.env.WORKERD_ISOLATE !== "1";

const INCLUDE = ["app/**/*.test.ts", "workers/**/*.test.ts", "tests/worker/**/*.test.ts"];

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
      include: INCLUDE,
      // Pure domain tests run in Node (vitest.domain.config.ts): workerd start-up per file cost more than the tests.
      exclude: ["app/domain/**", "**/node_modules/**"],
      // Every file runs in one workerd runtime; tests/worker/setup.ts gives each file fresh storage and a fresh module
      // graph. A runtime per file cost ~9 s a file under load. @cloudflare/vitest-pool-workers (0.15.1, still in
      // 0.23.0) wrapped the entrypoint and Durable Object prototypes in one more Proxy per construction
      // (cloudflare/workers-sdk#15092): reads slowed with every request of a runtime and, after ~25 files, threw
      // "Maximum call stack size exceeded", so the files ran in seven groups of runtimes. patches/ wraps them once
      // (scripts/pool-workers-patch.test.ts checks it is applied): one runtime for all 42 files took 108 s and 87 CPU-s
      // alone, the seven groups 224 s and 212 CPU-s.
      isolate: !SHARED,
      setupFiles: ["./tests/worker/setup.ts"],
      // npm test runs this suite beside the browser suites on 2 cores: a test of 60 sequential requests took over
      // vitest's default 5 s there (it takes ~1 s alone). A slow test still fails; only the ceiling is higher.
      testTimeout: 30_000,
      // Set-up hooks get the same ceiling (vitest's default for them is 10 s): a hook that makes accounts on a loaded
      // machine is slower, not broken.
      hookTimeout: 30_000,
      deps: {
        optimizer: {
          ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime"] },
        },
      },
    },
  };
});
