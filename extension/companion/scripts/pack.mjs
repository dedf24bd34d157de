#!/usr/bin/env node
/**
 * `npm run companion:pack`: a standalone package a creator can install without this repository.
 * The CLI and everything it imports (app/domain, zod, ws) are bundled into one file with esbuild, so the package has
 * no dependencies at all. Writes clipcut-companion-<version>.tgz into the current folder (or --out-dir).
 *   npm install -g ./clipcut-companion-<version>.tgz && clipcut-companion install
 * The package has no install scripts: registering with the browsers happens only when the user runs `install`.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { CLI_BUNDLE_OPTIONS } from "../src/host/bundle-options.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const companion = resolve(here, "..");
const outArg = process.argv.indexOf("--out-dir");
const outDir = resolve(outArg > 0 ? process.argv[outArg + 1] : process.cwd());
const version = /VERSION = "([^"]+)"/.exec(readFileSync(join(companion, "src", "host", "version.ts"), "utf8"))?.[1];
if (!version) throw new Error("No VERSION in src/host/version.ts");

const stage = join(outDir, ".clipcut-companion-pack");
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, "bin"), { recursive: true });

await build({
  ...CLI_BUNDLE_OPTIONS,
  entryPoints: [join(companion, "src", "host", "cli.ts")],
  outfile: join(stage, "bin", "main.cjs"),
  legalComments: "inline",
  // An installed companion is not a dev build: it does not trust the public dev extension id (src/host/security.ts).
  // Its host manifests allow the store ids given here (Chrome Web Store, Edge Add-ons), e.g.
  // CLIPCUT_STORE_EXTENSION_IDS=<cws id>,<edge id> npm run companion:pack.
  define: {
    __CLIPCUT_DEV_BUILD__: "false",
    __CLIPCUT_STORE_EXTENSION_IDS__: JSON.stringify(
      (process.env.CLIPCUT_STORE_EXTENSION_IDS ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  },
});
// The command itself is a few lines that answer --version without loading (parsing, compiling) the 400 KB program:
// a cold start of the installed package is then node's own start-up. Everything else is bin/main.cjs.
writeFileSync(
  join(stage, "bin", "clipcut-companion.cjs"),
  `#!/usr/bin/env node
"use strict";
const first = process.argv[2];
if (first === "--version" || first === "-v") process.stdout.write(${JSON.stringify(`${version}\n`)});
else require("./main.cjs");
`,
);
chmodSync(join(stage, "bin", "clipcut-companion.cjs"), 0o755);

writeFileSync(
  join(stage, "package.json"),
  `${JSON.stringify(
    {
      name: "clipcut-companion",
      version,
      description: "ClipCut's local clip engine: frame-accurate clips with FFmpeg, driven by the ClipCut extension.",
      license: "UNLICENSED",
      bin: { "clipcut-companion": "bin/clipcut-companion.cjs" },
      engines: { node: ">=20" },
      os: ["linux", "darwin", "win32"],
      files: ["bin/", "README.md"],
    },
    null,
    2,
  )}\n`,
);
copyFileSync(join(companion, "README.md"), join(stage, "README.md"));
// mediabunny (MPL-2.0) is bundled unmodified into bin/main.cjs (its per-file notices stay inline); its licence and
// where its source is travel beside it.
const require = createRequire(import.meta.url);
// Its package.json is not exported: the package folder is two levels above its CommonJS bundle (dist/bundles).
const mediabunny = resolve(dirname(require.resolve("mediabunny")), "..", "..");
const mbVersion = JSON.parse(readFileSync(join(mediabunny, "package.json"), "utf8")).version;
writeFileSync(
  join(stage, "bin", "THIRD-PARTY-NOTICES.txt"),
  `bin/main.cjs contains mediabunny ${mbVersion}, unmodified, under the Mozilla Public License 2.0.\n` +
    `Its source: https://github.com/Vanilagy/mediabunny (npm: mediabunny@${mbVersion}).\n\n` +
    readFileSync(join(mediabunny, "LICENSE"), "utf8"),
);

const tgz = execFileSync("npm", ["pack", "--silent", "--pack-destination", outDir], { cwd: stage, encoding: "utf8" })
  .trim()
  .split("\n")
  .pop();
rmSync(stage, { recursive: true, force: true });
process.stdout.write(`${join(outDir, tgz ?? `clipcut-companion-${version}.tgz`)}\n`);
