import { existsSync } from "node:fs";

/** Debian's Chromium, as the browser suites launch it here (no browser downloads; no background network on a
 *  closed box). */
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The full browser (`chromium`): only it loads extensions (in its new headless mode), so the extension suites use it. */
export const CHROMIUM_WITH_EXTENSIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ARGS,
};

/**
 * Pages without an extension run in Chromium's headless shell (`chromium-headless-shell`, the same Blink and V8, the
 * browser Playwright itself uses headless): measured on the admin and public-route specs here, it spent 163 CPU-s
 * where the full browser spent 296, and the e2e suite is bound by the browsers' CPU on 2 cores. `npm test` installs it;
 * without it, the full browser runs these pages too.
 */
const SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";
/**
 * No optimizing compiler (TurboFan) for the site's pages: a test's page lives seconds, too short to repay compiling its
 * hot functions again (the interpreter, Sparkplug and Maglev still run; the JavaScript means the same). Measured on the
 * admin and auth specs (34 tests, all processes of the run): 128–140 CPU-s without it, 119–124 with it.
 */
const PAGE_ARGS = [...ARGS, "--js-flags=--no-opt"];
export const CHROMIUM_LAUNCH = existsSync(SHELL)
  ? { executablePath: SHELL, args: PAGE_ARGS }
  : { ...CHROMIUM_WITH_EXTENSIONS, args: ["--headless", ...PAGE_ARGS] };
