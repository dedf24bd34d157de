import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "./tests/chromium";

const PORT = Number(process.env.E2E_PORT ?? 8790);
export const BASE_URL = `http://localhost:${PORT}`;
const RETRIES = Number(process.env.E2E_RETRIES ?? (process.env.CI ? 1 : 0));
export const FAKE_GOOGLE_URL = `http://127.0.0.1:${Number(process.env.FAKE_GOOGLE_PORT ?? 8791)}`;

export default defineConfig({
  testDir: "tests/e2e",
  // Its own folder: Playwright empties it at start, and npm test writes the other suites' reports beside it.
  outputDir: "test-results/playwright",
  fullyParallel: false,
  // Two workers: this 2-core machine idles in one (the browser and wrangler wait on each other). E2E_WORKERS tries
  // another count (e.g. 3 once the workerd suite beside it is done sooner).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // npm test retries a failed test once (E2E_RETRIES=1) and its summary counts the retried ones as flaky, by name: wrangler
  // dev's proxy answers 503 to a POST whose connection to the Worker sat idle ~5 s (cloudflare/workers-sdk#14641), a
  // local-tool race a test cannot wait out (it failed the team invitation's POST in 1 of 3 clean-clone runs).
  retries: RETRIES,
  timeout: 60_000,
  // npm test runs the browsers beside the workerd and FFmpeg suites on 2 cores: a navigation can take several seconds.
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    // A failed test's trace (actions, DOM snapshots, network) but no screencast: the screencast's frames cost the
    // browsers ~20 % of their CPU on this 2-core machine (admin spec: 77 → 57 CPU-s of Chromium), for every test.
    // Where a failed test is retried (npm test, CI), only the retry records one: recording every first attempt to keep
    // the failed ones cost ~11 % of the suite's CPU (admin + auth specs, all processes: 143 → 127 CPU-s).
    trace: { mode: RETRIES > 0 ? "on-first-retry" : "retain-on-failure", screenshots: false },
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: [
    {
      command: "node tests/e2e/fake-google.mjs",
      url: `${FAKE_GOOGLE_URL}/`,
      reuseExistingServer: false,
      timeout: 20_000,
    },
    {
      command: "node scripts/e2e-server.mjs",
      url: `${BASE_URL}/`,
      reuseExistingServer: false,
      // A loaded machine (several servers migrating and seeding at once) may need more: E2E_SERVER_TIMEOUT_MS.
      timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 180_000),
      stdout: "ignore",
      stderr: "pipe",
      env: {
        E2E_VARS: JSON.stringify({
          GOOGLE_CLIENT_ID: "test-client.apps.googleusercontent.com",
          GOOGLE_CLIENT_SECRET: "test-secret",
          GOOGLE_AUTH_BASE_URL: FAKE_GOOGLE_URL,
          COOKIE_SECRET: "e2e-cookie-secret",
        }),
      },
    },
  ],
});
