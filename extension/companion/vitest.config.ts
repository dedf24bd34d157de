import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    environment: "node",
    // The companion's domain rules (app/domain/companion.test.ts) run with the domain suite.
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Real ffmpeg work: generous timeouts, and files in parallel only as far as 2 cores allow.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
    // One module graph per worker, not per file: the files share no module state they depend on (each starts its own
    // servers, folders and processes), and re-importing mediabunny and the cut paths for each of ~50 files cost ~30 s
    // of import and transform (whole suite: import 35 s → 7 s).
    isolate: false,
  },
});
