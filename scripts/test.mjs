// `npm test`: every check and every suite, on a fresh machine too. Ends with one line "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", FORCE_COLOR: "0" };
const has = (bin) => spawnSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" }).status === 0;

/** chromium (e2e), firefox-esr (the Firefox build) and ffmpeg/ffprobe (companion) come from Debian: install them
 *  when we can, else say how. */
function ensureSystemPackages() {
  const missing = [
    ["chromium", "chromium"],
    ["firefox-esr", "firefox-esr"],
    ["ffmpeg", "ffmpeg"],
    ["ffprobe", "ffmpeg"],
  ].filter(([bin]) => !has(bin));
  const packages = [...new Set(missing.map(([, pkg]) => pkg))];
  if (packages.length === 0) return;
  const command = `apt-get update && apt-get install -y ${packages.join(" ")}`;
  const root = process.getuid?.() === 0;
  if (root && has("apt-get")) {
    console.log(`Installing ${packages.join(", ")} with apt-get…`);
    const result = spawnSync("sh", ["-c", `DEBIAN_FRONTEND=noninteractive ${command} > /tmp/clipcut-apt.log 2>&1`], {
      stdio: "inherit",
    });
    if (result.status === 0) return;
    console.error("apt-get failed; see /tmp/clipcut-apt.log");
  }
  console.error(`Missing ${packages.join(", ")}. Install with:\n  sudo sh -c '${command}'`);
  process.exit(1);
}

const results = [];
function step(label, cmd, args, count) {
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: "inherit", env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counted = count?.() ?? { passed: result.status === 0 ? 1 : 0, failed: result.status === 0 ? 0 : 1 };
  if (result.status !== 0 && counted.failed === 0) counted.failed = 1; // a crash with no report still fails
  results.push({ label, seconds, ...counted });
  return result.status === 0;
}

/** Counts from a vitest or Playwright JSON report. */
function vitestCounts(file) {
  return () => {
    if (!existsSync(file)) return { passed: 0, failed: 1 };
    const report = JSON.parse(readFileSync(file, "utf8"));
    return {
      passed: report.numPassedTests ?? 0,
      failed:
        (report.numFailedTests ?? 0) +
        (report.numTotalTestSuites && report.success === false && !report.numFailedTests ? 1 : 0),
    };
  };
}
function playwrightCounts(file) {
  return () => {
    if (!existsSync(file)) return { passed: 0, failed: 1 };
    const { stats } = JSON.parse(readFileSync(file, "utf8"));
    return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0 };
  };
}

ensureSystemPackages();
mkdirSync("test-results", { recursive: true });
let ok = step("Lint, format, typecheck, generated types", "npm", ["run", "--silent", "check"]);
ok = step("Build", "npx", ["remix", "vite:build"]) && ok;
ok =
  step(
    "Worker, data and domain tests (vitest in workerd)",
    "npx",
    [
      "vitest",
      "run",
      "--config",
      "vitest.config.ts",
      "--reporter=default",
      "--reporter=json",
      "--outputFile=test-results/vitest-worker.json",
    ],
    vitestCounts("test-results/vitest-worker.json"),
  ) && ok;
if (existsSync("extension/companion/vitest.config.ts")) {
  ok =
    step(
      "Companion tests (vitest in Node, real FFmpeg)",
      "npx",
      [
        "vitest",
        "run",
        "--config",
        "extension/companion/vitest.config.ts",
        "--reporter=default",
        "--reporter=json",
        `--outputFile=${process.cwd()}/test-results/vitest-companion.json`,
      ],
      vitestCounts("test-results/vitest-companion.json"),
    ) && ok;
}
// Both unpacked builds (Chrome/Edge and Firefox); the e2e spec builds its own for the test ports.
ok = step("Extension builds (Chrome/Edge and Firefox MV3)", "npm", ["run", "--silent", "extension:build"]) && ok;
ok =
  step(
    "Extension tests (message map, manifests)",
    "npx",
    [
      "vitest",
      "run",
      "--config",
      "extension/vitest.config.ts",
      "--reporter=default",
      "--reporter=json",
      `--outputFile=${process.cwd()}/test-results/vitest-extension.json`,
    ],
    vitestCounts("test-results/vitest-extension.json"),
  ) && ok;
env.PLAYWRIGHT_JSON_OUTPUT_NAME = "test-results/playwright.json";
env.E2E_SKIP_BUILD = "1";
ok =
  step(
    "End-to-end tests (Playwright, Chromium, wrangler dev)",
    "npx",
    ["playwright", "test", "--reporter=list,json"],
    playwrightCounts("test-results/playwright.json"),
  ) && ok;
ok =
  step(
    "The Firefox build in Firefox ESR (puppeteer over WebDriver BiDi)",
    "npx",
    [
      "vitest",
      "run",
      "--config",
      "tests/firefox/vitest.config.ts",
      "--reporter=default",
      "--reporter=json",
      "--outputFile=test-results/vitest-firefox.json",
    ],
    vitestCounts("test-results/vitest-firefox.json"),
  ) && ok;

console.log("\nSummary");
for (const r of results)
  console.log(`  ${r.failed ? "✗" : "✓"} ${r.label}: ${r.passed} passed, ${r.failed} failed (${r.seconds} s)`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const line = `${passed} passed, ${failed} failed`;
writeFileSync("test-results/summary.txt", `${line}\n`);
console.log(line);
process.exit(ok && failed === 0 ? 0 : 1);
