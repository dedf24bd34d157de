import { join } from "node:path";

/**
 * The browser suites' extension build: the local build with this run's site and companion ports (build-time config).
 * `npm test` makes it once (tests/e2e/extension/build.ts) for the Chromium and Firefox suites, and the extension suite's
 * manifest tests read it: one pair of builds per run.
 */
const ROOT = process.cwd();
export const SITE_PORT = Number(process.env.E2E_PORT ?? 8790);
export const COMPANION_PORT = Number(process.env.E2E_COMPANION_PORT ?? 8832);
export const TEST_BUILD_OUT = "dist/e2e";
export const TEST_SITE_ORIGINS = [`http://localhost:${SITE_PORT}`, `http://127.0.0.1:${SITE_PORT}`];
export const BUILD_DIRS = {
  chrome: join(ROOT, "extension", TEST_BUILD_OUT, "chrome-mv3"),
  firefox: join(ROOT, "extension", TEST_BUILD_OUT, "firefox-mv3"),
};
/** The build's settings (environment variables of `wxt build`, read by extension/build-config.ts). */
export const TEST_BUILD_ENV = {
  CLIPCUT_SITE_ORIGINS: TEST_SITE_ORIGINS.join(","),
  CLIPCUT_COMPANION_PORT: String(COMPANION_PORT),
  CLIPCUT_EXTENSION_OUT: TEST_BUILD_OUT,
};
