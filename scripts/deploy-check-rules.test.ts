import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STAND_IN_MARKER as MARKER_IN_STAND_IN } from "../workers/local/stripe-api";
import { extensionIdsProblem, standInInBundle, STAND_IN_MARKER } from "./deploy-check-rules.mjs";

const dirs: string[] = [];
function bundle(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "deploy-check-rules-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("deploy check: the local stand-in stays out of the production bundle", () => {
  it("looks for the very marker the stand-in carries", () => {
    expect(STAND_IN_MARKER).toBe(MARKER_IN_STAND_IN);
  });

  it("fails a bundle that contains the stand-in, naming the file", () => {
    const dir = bundle({
      "app.js": "export default {}",
      "chunks/local.js": `headers.set("X-Stand-In", "${STAND_IN_MARKER}")`,
    });
    expect(standInInBundle(dir)).toEqual([expect.stringContaining("local.js")]);
  });

  it("passes a bundle without it", () => {
    expect(standInInBundle(bundle({ "app.js": "export default { fetch() {} }" }))).toEqual([]);
  });
});

describe("deploy check: EXTENSION_IDS", () => {
  const toml = (vars: string) =>
    `name = "x"\n\n[vars]\nAPP_MODE = "production"\n${vars}\n\n[[d1_databases]]\nbinding = "DB"\n`;

  it("fails when it is empty and nobody opted out", () => {
    expect(extensionIdsProblem(toml('EXTENSION_IDS = ""'))).toMatch(/EXTENSION_IDS is empty/);
    expect(extensionIdsProblem(toml(""))).toMatch(/EXTENSION_IDS is empty/);
  });

  it("passes with an id listed, or with an opt-out that says why", () => {
    expect(extensionIdsProblem(toml('EXTENSION_IDS = "abcdefghijklmnopabcdefghijklmnop"'))).toBeNull();
    expect(extensionIdsProblem(toml('EXTENSION_IDS = ""\nEXTENSION_IDS_OPT_OUT = "no store listing yet"'))).toBeNull();
  });

  it("an opt-out outside [vars] does not count", () => {
    const misplaced = `EXTENSION_IDS_OPT_OUT = "x"\n${toml('EXTENSION_IDS = ""')}`;
    expect(extensionIdsProblem(misplaced)).toMatch(/EXTENSION_IDS is empty/);
  });

  it("the committed production config passes (its opt-out is explicit)", () => {
    expect(extensionIdsProblem(readFileSync("wrangler.toml", "utf8"))).toBeNull();
  });
});
