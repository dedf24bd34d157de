import { createRequire } from "node:module";
import { dirname, posix, win32 } from "node:path";
import { CLI_BUNDLE_OPTIONS, DEV_BUILD_DEFINE } from "./bundle-options.mjs";

/**
 * `install` run from this repository (the CLI is src/host/cli.ts, run through tsx): the host the browser starts runs a
 * build of the CLI, plain JavaScript, as the packed package does. Through tsx it took 1–3 s (about 1.3 s of CPU) to
 * load at every start, and the browser starts it again after each idle spell. The launcher runs a small start script
 * that checks the build against the sources it was made from and builds it again first when one has changed since:
 * a companion edited in the repository runs as edited, as it did through tsx. The build is the repository's own
 * (node_modules/.cache), shared by every install from it.
 */
export interface HostBuild {
  /** src/host/cli.ts */
  entry: string;
  /** What the launcher runs (in the companion's own folder): checks the build, rebuilds it when stale, runs it. */
  start: string;
  /** The bundle (CommonJS, one file), in the repository's node_modules/.cache. */
  bundle: string;
}

type Platform = "linux" | "darwin" | "win32";

/** The start script's argument that only brings the build up to date (install runs it so). */
export const BUILD_ONLY = "--build-only";

/** A repository install's build (null for the packed package, whose CLI is already JavaScript). */
export function hostBuild(script: string, launcherDir: string, platform: Platform): HostBuild | null {
  if (!script.endsWith(".ts")) return null;
  const { join } = platform === "win32" ? win32 : posix;
  // <repository>/extension/companion/src/host/cli.ts
  const repository = join(script, "..", "..", "..", "..", "..");
  return {
    entry: script,
    start: join(launcherDir, "clipcut-companion-host.cjs"),
    bundle: join(repository, "node_modules", ".cache", "clipcut-companion", "clipcut-companion-host.cjs"),
  };
}

/**
 * The start script the launcher runs: plain CommonJS (it must not need a compiler itself), with esbuild's options as
 * the packed package's (bundle-options.mjs) for a dev build, which trusts the dev extension id. The build and the list
 * of its inputs are each written to a temporary file and renamed, so that two hosts starting at once never load half
 * a file.
 */
export function startScript(build: HostBuild): string {
  const load = createRequire(build.entry);
  const options = {
    ...CLI_BUNDLE_OPTIONS,
    entryPoints: [build.entry],
    absWorkingDir: dirname(build.entry),
    define: DEV_BUILD_DEFINE,
    metafile: true,
  };
  return `#!/usr/bin/env node
"use strict";
// ClipCut companion from the repository, written by \`clipcut-companion install\`: runs the repository's build of the
// companion, built again first when a source file changed since (the browser never waits for TypeScript to compile).
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require("node:fs");
const { dirname, resolve } = require("node:path");
const BUNDLE = ${JSON.stringify(build.bundle)};
const INPUTS = BUNDLE.replace(/\\.cjs$/, ".inputs.json");
const ESBUILD = ${JSON.stringify(load.resolve("esbuild"))};
const OPTIONS = ${JSON.stringify(options)};
const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
let inputs = null;
try {
  inputs = JSON.parse(readFileSync(INPUTS, "utf8"));
} catch {}
const built = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? -Infinity;
if (!Array.isArray(inputs) || inputs.some((path) => mtime(path) > built)) {
  mkdirSync(dirname(BUNDLE), { recursive: true });
  const part = \`\${BUNDLE}.\${process.pid}.part\`;
  const result = require(ESBUILD).buildSync({ ...OPTIONS, outfile: part });
  // Files only: esbuild lists its defines as inputs too ("<define:…>").
  const files = Object.keys(result.metafile.inputs)
    .filter((path) => !path.startsWith("<"))
    .map((path) => resolve(OPTIONS.absWorkingDir, path));
  renameSync(part, BUNDLE);
  writeFileSync(\`\${INPUTS}.\${process.pid}.part\`, JSON.stringify(files));
  renameSync(\`\${INPUTS}.\${process.pid}.part\`, INPUTS);
}
if (process.argv[2] !== ${JSON.stringify(BUILD_ONLY)}) require(BUNDLE);
`;
}
