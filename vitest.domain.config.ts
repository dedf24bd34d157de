import path from "node:path";
import { defineConfig } from "vitest/config";

// The domain is pure rules (lint keeps it free of app/ and of any runtime): its tests need no workerd, and each file
// run in workerd paid ~3 s of start-up for milliseconds of tests.
export default defineConfig({
  resolve: { alias: { "~": path.join(__dirname, "app") } },
  test: {
    environment: "node",
    // …and the deploy rehearsal's file rules (scripts/deploy-check-rules.mjs), plain Node as well.
    include: ["app/domain/**/*.test.ts", "scripts/**/*.test.ts"],
    // One ceiling for tests and their hooks (vitest's defaults are 5 s and 10 s): a loaded machine makes them slower,
    // never red.
    testTimeout: 10_000,
    hookTimeout: 10_000,
    // Pure rules share no state worth a fresh module graph per file: one graph for all files costs 11 CPU-s here
    // instead of 25.
    isolate: false,
  },
});
