import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { readBuildConfig } from "./build-config";

// Extension logic in Node (the message map, the manifests of both builds). The browser parts run in e2e.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  define: { __CLIPCUT_CONFIG__: JSON.stringify(readBuildConfig({ CLIPCUT_COMPANION_PORT: "8839" })) },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 120_000,
    // Set-up hooks (a build, servers started) get the tests' ceiling, not vitest's 10 s default.
    hookTimeout: 120_000,
  },
});
