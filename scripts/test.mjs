// `npm test`: every check and every suite, on a fresh machine too. Ends with one line "N passed, N failed".
// `npm test -- --only domain,worker` runs just those suites (names: see SUITES below) and prints the same table.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", FORCE_COLOR: "0" };
const has = (bin) => spawnSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" }).status === 0;

/** chromium (the extension in e2e), chromium-headless-shell (the e2e's other pages), firefox-esr (the Firefox build)
 *  and ffmpeg/ffprobe (companion) come from Debian: install them when we can, else say how. */
function ensureSystemPackages() {
  const missing = [
    ["chromium", "chromium"],
    ["chromium-headless-shell", "chromium-headless-shell"],
    ["firefox-esr", "firefox-esr"],
    ["ffmpeg", "ffmpeg"],
    ["ffprobe", "ffmpeg"],
  ].filter(([bin]) => !has(bin));
  // The Firefox suite needs ESR 153 or later (puppeteer's BiDi setViewport, waitForFunction under the site's CSP);
  // Debian 12's main archive still holds 140 beside 153 in its security archive: an older one is upgraded.
  const firefox = /(\d+)\./.exec(spawnSync("firefox-esr", ["--version"], { encoding: "utf8" }).stdout ?? "");
  if (firefox && Number(firefox[1]) < 153) {
    console.log(`firefox-esr ${firefox[1]} is older than the 153 the Firefox suite needs.`);
    missing.push(["firefox-esr", "firefox-esr"]);
  }
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
let lastReaped = reapedCpu() ?? 0;
const LOGS = "test-results/logs";

/** The machine's CPU time so far (Linux /proc/stat, in seconds of all cores), busy and total; null elsewhere. */
function cpuTimes() {
  try {
    const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number); // guest time is inside user
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: (total - ticks[3] - (ticks[4] ?? 0)) / 100, total: total / 100 };
  } catch {
    return null;
  }
}
/** CPU seconds of every child this process has reaped so far (with their own reaped children): a step's share is
 *  the growth across its end, as each step is one child reaped when it closes. null where /proc is missing. */
function reapedCpu() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime (fields 16 and 17), in ticks
  } catch {
    return null;
  }
}
/** How busy the whole machine was between two readings: the wall time is bound by the CPU only near 100%. */
function busyShare(from, to) {
  if (!from || !to || to.total === from.total) return "";
  return `, machine ${Math.round(((to.busy - from.busy) / (to.total - from.total)) * 100)}% busy`;
}

/** Suites by short name, for --only (the checks, build and extension builds run when a chosen suite needs them). */
const SUITES = ["check", "domain", "worker", "e2e", "firefox", "companion", "extension", "deploy"];
const onlyArg = process.argv.find((a) => a.startsWith("--only"));
const only = onlyArg
  ? new Set(
      (onlyArg.includes("=") ? onlyArg.split("=")[1] : process.argv[process.argv.indexOf(onlyArg) + 1]).split(","),
    )
  : null;
for (const name of only ?? []) {
  if (!SUITES.includes(name)) {
    console.error(`Unknown suite "${name}". Suites: ${SUITES.join(", ")}`);
    process.exit(2);
  }
}
const wanted = (name) => !only || only.has(name);
/** A suite left out by --only: reported as skipped, counted as passing. */
const skip = () => Promise.resolve(true);

/** Runs one step with its output in a log file (two lanes run at once), printed whole when the step ends. */
function step(label, cmd, args, count, stepEnv = {}) {
  const started = Date.now();
  const cpuAtStart = cpuTimes();
  const log = join(LOGS, `${label.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.log`);
  console.log(`▶ ${label} (started; log: ${log})`);
  return new Promise((resolve) => {
    const out = openSync(log, "w");
    const child = spawn(cmd, args, { stdio: ["ignore", out, out], env: { ...env, ...stepEnv } });
    child.on("close", (code) => {
      closeSync(out);
      const reaped = reapedCpu();
      const cpu = reaped === null ? null : reaped - lastReaped;
      lastReaped = reaped ?? lastReaped;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const counted = count?.() ?? { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
      if (code !== 0 && counted.failed === 0) counted.failed = 1; // a crash with no report still fails
      results.push({ label, seconds, cpu, busy: busyShare(cpuAtStart, cpuTimes()), ...counted });
      console.log(`\n━━━ ${label}: exit ${code}, ${seconds} s ━━━\n${readFileSync(log, "utf8")}`);
      resolve(code === 0);
    });
  });
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
    const report = JSON.parse(readFileSync(file, "utf8"));
    const { stats } = report;
    return {
      passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
      failed: stats.unexpected ?? 0,
      flaky: flakyTitles(report.suites ?? []),
    };
  };
}

/** Titles of the tests that failed once and passed on their retry (Playwright's "flaky"), to name in the summary. */
function flakyTitles(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).filter((spec) => spec.tests?.some((t) => t.status === "flaky")).map((spec) => spec.title),
    ...flakyTitles(suite.suites ?? []),
  ]);
}

const vitest = (config, report) => [
  "vitest",
  "run",
  "--config",
  config,
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${process.cwd()}/test-results/${report}`,
];

/** Steps one after another; a lane goes on after a failure so every suite reports. */
async function lane(steps) {
  let ok = true;
  for (const run of steps) ok = (await run()) && ok;
  return ok;
}

ensureSystemPackages();
rmSync("test-results", { recursive: true, force: true }); // no report of an earlier run is counted
mkdirSync(LOGS, { recursive: true });
const started = Date.now();
const cpuAtStart = cpuTimes();
// Two lanes (and a third for two light steps), because this 2-core machine idles in either alone: the workerd suite
// mostly uses one core, the browsers mostly wait. Measured on it: the worker suite takes ~1.8 min alone (3.7 before its one runtime) and ~12 min
// beside the Playwright suite (before);
// the FFmpeg suite, run beside the browsers, more than doubled the Playwright suite's time. So the FFmpeg suite
// waits for the Playwright suite and runs beside the Firefox test and the checks only.
// The build and the domain and workerd suites start at once, so the browsers start as soon as the builds are done
// (the browsers import the Remix build, the workerd suite the source). `check` reads every source file while the
// extension builds write theirs (extension/.wxt types), so it runs after them, last in the second lane.
const needsBuild = ["e2e", "firefox", "deploy"].some(wanted);
// Only the browsers and the deploy rehearsal need the build: the workerd suite compiles the app from source.
const built = needsBuild ? step("Build", "npx", ["remix", "vite:build"]) : skip();
// The extension's local builds (Chrome/Edge and Firefox MV3), made once with the browser suites' site and companion
// ports (tests/e2e/extension/test-build.ts): the Chromium and Firefox suites load them, the extension suite reads their
// manifests (the default ports' values are pinned by its build-config tests). A second pair with the default ports
// cost ~28 CPU-s and held the browsers back by its ~35 s.
const extensionBuilt = (async () => {
  await built;
  if (!["e2e", "firefox", "extension"].some(wanted)) return true;
  return step("Extension builds (Chrome/Edge and Firefox MV3, the test ports)", "npx", [
    "tsx",
    "tests/e2e/extension/build.ts",
  ]);
})();
const e2e = (async () => {
  await extensionBuilt;
  if (!wanted("e2e")) return true;
  return step(
    "End-to-end tests (Playwright, Chromium, wrangler dev)",
    "npx",
    ["playwright", "test", "--reporter=list,json"],
    playwrightCounts("test-results/playwright.json"),
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json",
      E2E_SKIP_BUILD: "1",
      E2E_EXTENSION_BUILT: "1",
      E2E_RETRIES: "1",
    },
  );
})();
const lanes = await Promise.all([
  lane([
    () =>
      !wanted("domain") ||
      step(
        "Domain tests (vitest in Node: pure rules)",
        "npx",
        vitest("vitest.domain.config.ts", "vitest-domain.json"),
        vitestCounts("test-results/vitest-domain.json"),
      ),
    // Starts at once, beside the build: it imports the app from source (vitest.config.ts).
    async () =>
      !wanted("worker") ||
      step(
        "Worker and data tests (vitest in workerd)",
        "npx",
        vitest("vitest.config.ts", "vitest-worker.json"),
        vitestCounts("test-results/vitest-worker.json"),
      ),
    async () => {
      await e2e; // FFmpeg beside Chromium starves the browsers (see above); it runs whatever the e2e result.
      if (!wanted("companion")) return true;
      return step(
        "Companion tests (vitest in Node, real FFmpeg)",
        "npx",
        vitest("extension/companion/vitest.config.ts", "vitest-companion.json"),
        vitestCounts("test-results/vitest-companion.json"),
      );
    },
  ]),
  lane([
    () => built,
    () => extensionBuilt,
    () => e2e,
    () =>
      !wanted("firefox") ||
      step(
        "The Firefox build in Firefox ESR (puppeteer over WebDriver BiDi)",
        "npx",
        vitest("tests/firefox/vitest.config.ts", "vitest-firefox.json"),
        vitestCounts("test-results/vitest-firefox.json"),
        { E2E_EXTENSION_BUILT: "1" },
      ),
    // After the extension builds (they write extension/.wxt, which it reads), at the end of this lane: in the first
    // lane, between the workerd suite and the FFmpeg suite, it held the FFmpeg suite back (that lane ended the run).
    () => !wanted("check") || step("Lint, format, typecheck, generated types", "npm", ["run", "--silent", "check"]),
  ]),
  // Light steps that need only the builds, at once beside the browsers and the workerd suite: at the end of the first
  // lane they held the FFmpeg suite ~40 s after the browsers were done (that lane ends the run).
  lane([
    async () =>
      !wanted("extension") ||
      step(
        "Extension tests (message map, manifests)",
        "npx",
        vitest("extension/vitest.config.ts", "vitest-extension.json"),
        vitestCounts("test-results/vitest-extension.json"),
        { EXTENSION_TEST_BUILT: (await extensionBuilt) ? "1" : "0" },
      ),
    async () => {
      await built;
      if (!wanted("deploy")) return true;
      return step("Deploy rehearsal (dry-run bundle, size, start-up, migrations)", "npm", [
        "run",
        "--silent",
        "deploy:check",
      ]);
    },
  ]),
]);
const ok = lanes.every(Boolean);
const wall = ((Date.now() - started) / 1000).toFixed(1);

console.log("\nSummary");
for (const r of results) {
  const cpu = r.cpu === null ? "" : `, ${Math.round(r.cpu)} CPU-s`;
  console.log(
    `  ${r.failed ? "✗" : "✓"} ${r.label}: ${r.passed} passed, ${r.failed} failed (${r.seconds} s${cpu}${r.busy})`,
  );
  for (const title of r.flaky ?? []) console.log(`      flaky (failed once, passed on its retry): ${title}`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const cpuAtEnd = cpuTimes();
const cpuUsed = cpuAtStart && cpuAtEnd ? `; ${Math.round(cpuAtEnd.busy - cpuAtStart.busy)} CPU-s used` : "";
console.log(`  wall time, both lanes: ${wall} s${cpuUsed}${busyShare(cpuAtStart, cpuAtEnd)}`);
const line = `${passed} passed, ${failed} failed`;
writeFileSync("test-results/summary.txt", `${line}\n`);
console.log(line);
process.exit(ok && failed === 0 ? 0 : 1);
