import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { FIREFOX_EXTENSION_ID } from "../../app/domain/native-messaging";
import { DEFAULT_EXTENSION_ID } from "../../app/domain/extension";
import { chromeSitePatterns, firefoxSitePatterns, readBuildConfig } from "../build-config";
import { TEST_BUILD_OUT, TEST_SITE_ORIGINS } from "../../tests/e2e/extension/test-build";

const EXTENSION_DIR = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_ORIGINS = ["http://localhost:8787", "http://127.0.0.1:8787"];
let out = "";

interface Manifest {
  manifest_version: number;
  key?: string;
  externally_connectable?: { matches: string[] };
  browser_specific_settings?: {
    gecko?: { id?: string; strict_min_version?: string; data_collection_permissions?: { required?: string[] } };
  };
  background?: { service_worker?: string; scripts?: string[] };
  host_permissions?: string[];
  permissions?: string[];
  content_scripts?: { matches: string[]; js: string[] }[];
  action?: { default_popup?: string };
}
const read = (browser: string): Manifest =>
  JSON.parse(readFileSync(join(out, `${browser}-mv3`, "manifest.json"), "utf8")) as Manifest;

/** Chrome derives an unpacked extension's id from its public key: sha256, first 32 hex digits mapped to a–p. */
function idFromKey(key: string): string {
  const hex = createHash("sha256").update(Buffer.from(key, "base64")).digest("hex").slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join("");
}

/**
 * The manifests of a local build made with the given settings. `npm test` has already built the browser suites' pair
 * (its test ports, tests/e2e/extension/test-build.ts) and says so with EXTENSION_TEST_BUILT=1: the tests read that pair
 * and expect its origins, rather than building a second pair with the default ones (whose values the build-config
 * tests below pin). Alone, this file builds the default pair in a temporary folder.
 */
const prebuilt =
  process.env.EXTENSION_TEST_BUILT === "1" &&
  ["chrome", "firefox"].every((browser) =>
    existsSync(join(EXTENSION_DIR, TEST_BUILD_OUT, `${browser}-mv3`, "manifest.json")),
  );
const ORIGINS = prebuilt ? TEST_SITE_ORIGINS : DEFAULT_ORIGINS;

beforeAll(() => {
  if (prebuilt) {
    out = join(EXTENSION_DIR, TEST_BUILD_OUT);
    return;
  }
  out = mkdtempSync(join(tmpdir(), "clipcut-manifest-"));
  const env = {
    ...process.env,
    CLIPCUT_EXTENSION_OUT: relative(EXTENSION_DIR, out),
    CLIPCUT_SITE_ORIGINS: undefined,
    CLIPCUT_STORE_BUILD: undefined,
  };
  for (const args of [
    ["build", "."],
    ["build", ".", "-b", "firefox", "--mv3"],
  ]) {
    const result = spawnSync("npx", ["wxt", ...args], { cwd: EXTENSION_DIR, env, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
  }
}, 180_000);

describe("the local builds' manifests", () => {
  it("Chrome/Edge: MV3, a key whose id is the website's default id, our exact origins only", () => {
    const m = read("chrome");
    expect(m.manifest_version).toBe(3);
    expect(idFromKey(m.key ?? "")).toBe(DEFAULT_EXTENSION_ID);
    expect(m.externally_connectable?.matches).toEqual(ORIGINS.map((o) => `${o}/*`));
    expect(m.background?.service_worker).toBe("background.js");
    expect(m.action?.default_popup).toBe("popup.html");
    // The companion is started by the browser through native messaging.
    expect(m.permissions).toEqual(["storage", "nativeMessaging"]);
    // No bridge on Chrome: the token goes through externally_connectable, never window.postMessage.
    expect(m.content_scripts?.some((s) => s.js.some((f) => f.includes("site-bridge")))).toBe(false);
  });

  it("Firefox: MV3 with a gecko id, background scripts, and the bridge on our hosts (Firefox patterns take no port)", () => {
    const m = read("firefox");
    expect(m.manifest_version).toBe(3);
    expect(m.browser_specific_settings?.gecko?.id).toMatch(/^[\w.-]+@[\w.-]+$/);
    expect(m.browser_specific_settings?.gecko?.strict_min_version).toBeDefined();
    // The host manifest's allowed_extensions names this id.
    expect(m.browser_specific_settings?.gecko?.id).toBe(FIREFOX_EXTENSION_ID);
    expect(m.permissions).toEqual(["storage", "nativeMessaging"]);
    // addons.mozilla.org refuses new add-ons without the data collection declaration.
    expect(m.browser_specific_settings?.gecko?.data_collection_permissions?.required).toEqual([
      "authenticationInfo",
      "browsingActivity",
    ]);
    expect(m.background?.scripts).toEqual(["background.js"]);
    expect(m.key).toBeUndefined();
    expect(m.externally_connectable).toBeUndefined();
    const bridge = m.content_scripts?.find((s) => s.js.some((f) => f.includes("site-bridge")));
    // `http://localhost:8787/*` never matches in Firefox; the bridge checks the port itself (site-bridge.content.ts).
    // Not 127.0.0.1: that pattern would also cover the companion, and Firefox would send it no Origin.
    expect(bridge?.matches).toEqual(["http://localhost/*"]);
    const youtube = m.content_scripts?.find((s) => s.js.some((f) => f.includes("youtube")));
    expect(youtube?.matches).toContain("https://www.youtube.com/*");
    expect(m.host_permissions).toEqual(["http://localhost/*"]);
  });
});

describe("the builds' code", () => {
  it("is React's production build even when the shell says NODE_ENV=test (as vitest, which ran these builds, does)", () => {
    expect(process.env.NODE_ENV).toBe("test");
    for (const browser of ["chrome", "firefox"]) {
      const dir = join(out, `${browser}-mv3`);
      const scripts = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".js"));
      expect(scripts.length).toBeGreaterThan(2);
      // Development JSX calls jsxDEV, which the bundled production runtime lacks: the panel would throw and never show.
      for (const file of scripts)
        expect(readFileSync(join(dir, String(file)), "utf8"), String(file)).not.toContain("jsxDEV");
    }
  });
});

describe("build settings", () => {
  it("a store build takes https site origins only, and must name them", () => {
    expect(() => readBuildConfig({ CLIPCUT_STORE_BUILD: "1" })).toThrow(/needs CLIPCUT_SITE_ORIGINS/);
    for (const origins of ["http://clipcut.example", "https://clipcut.example,http://localhost:8787"])
      expect(() => readBuildConfig({ CLIPCUT_STORE_BUILD: "1", CLIPCUT_SITE_ORIGINS: origins })).toThrow(
        /https site origins only/,
      );
    expect(
      readBuildConfig({ CLIPCUT_STORE_BUILD: "1", CLIPCUT_SITE_ORIGINS: "https://clipcut.example" }).siteOrigins,
    ).toEqual(["https://clipcut.example"]);
    // The local build keeps its plain-http loopback origins.
    expect(readBuildConfig({}).siteOrigins).toEqual(DEFAULT_ORIGINS);
  });

  it("Firefox patterns drop the port, once per host; Chrome's keep it", () => {
    const origins = [
      "http://localhost:8787",
      "http://localhost:9000",
      "http://127.0.0.1:8787",
      "https://clipcut.example",
    ];
    expect(firefoxSitePatterns(origins)).toEqual(["http://localhost/*", "https://clipcut.example/*"]);
    expect(chromeSitePatterns(origins)).toEqual([
      "http://localhost:8787/*",
      "http://localhost:9000/*",
      "http://127.0.0.1:8787/*",
      "https://clipcut.example/*",
    ]);
  });
});
