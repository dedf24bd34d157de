// How the CLI (src/host/cli.ts) becomes one JavaScript file with esbuild, written once for its three builds: the
// store package (scripts/pack.mjs), a repository install's host (host-build.ts) and the tests' (test/global-setup.ts).
// Plain JavaScript because scripts/pack.mjs runs in node with no TypeScript loader; the types are in the .d.mts.

/** esbuild's options every build of the CLI shares (each adds its entry, output and defines). */
export const CLI_BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  target: "node20",
  // CommonJS: ws is CommonJS and requires its optional native helpers inside try/catch.
  format: "cjs",
  external: ["bufferutil", "utf-8-validate"],
  logLevel: "warning",
};

/** A dev build's defines, what a run through tsx has: it trusts the public dev extension id, and no store ids. */
export const DEV_BUILD_DEFINE = { __CLIPCUT_DEV_BUILD__: "true", __CLIPCUT_STORE_EXTENSION_IDS__: "[]" };
