import { defineConfig } from "vitest/config";

// `npm run test:firefox`: the built Firefox extension in Debian's firefox-esr, driven by puppeteer over WebDriver BiDi.
export default defineConfig({
  test: {
    environment: "node",
    include: ["tests/firefox/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
