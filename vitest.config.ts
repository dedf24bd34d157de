import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Domain, data and Worker tests run inside workerd with real D1 and Durable Objects.
// Tests that fetch through the Worker import the built server: run `npm run build` first (npm test does).
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(__dirname, "migrations"));
  return {
    plugins: [
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
        "remix-server-build": path.join(__dirname, "build/server/index.js"),
      },
    },
    test: {
      include: ["app/**/*.test.ts", "workers/**/*.test.ts", "tests/worker/**/*.test.ts"],
      // Pure domain tests run in Node (vitest.domain.config.ts): workerd start-up per file cost more than the tests.
      exclude: ["app/domain/**", "**/node_modules/**"],
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
