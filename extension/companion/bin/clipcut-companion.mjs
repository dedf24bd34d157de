#!/usr/bin/env node
// Launcher: runs the TypeScript CLI through tsx so the companion installs and starts with one command.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "..", "src", "host", "cli.ts");
const require = createRequire(import.meta.url);
let tsxCli;
try {
  tsxCli = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
} catch {
  console.error("clipcut-companion needs the tsx package. Run `npm install` in the ClipCut folder first.");
  process.exit(1);
}
const result = spawnSync(process.execPath, [tsxCli, cli, ...process.argv.slice(2)], { stdio: "inherit" });
if (result.error) {
  console.error(result.error.message);
  process.exit(1);
}
process.exit(result.status ?? 1);
