import { fileURLToPath } from "node:url";
import { defineConfig } from "wxt";
import { FIREFOX_EXTENSION_ID } from "../app/domain/native-messaging";
import { chromeSitePatterns, firefoxSitePatterns, readBuildConfig } from "./build-config";

/**
 * Public half of the key that fixes the local build's id (nlilpjbbdonloffboidegefelpmmcofe, the website's default
 * extension id in app/domain/extension.ts). Store builds get their id from the store instead.
 */
const MANIFEST_KEY =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsK1WDMqaDeznQCTictIOAPhPCtgBzAzCq3cc2f2+Hdxq3rKf13k5/6ztGMyHFE9k7TrFE3/ZEvNP230fVMwddpOiGQjVMM+qpdPz5nbiALxntTAchWQUIKNcvZfbZzY7tEiRR1mEAyfPa3u4DHPXHIbx6ZOuQL3L95vG7N5jtOsR74PpHHpxt5gHVwSnXO7+4ya5dkUlSSTHWrYijDYEkM19eNR2cWA0nJwdEpHe+cJqHOKVd/PjeKYmZmrdNSCA7QSRWq3pbLOOiycsxi69v0wMQew66W4Ydee/a+cQmeViClDpFv351lXXSE03Ku9WLiMGlri/rtVsTI9wu1TfXwIDAQAB";

// Vite compiles JSX for React's development runtime when NODE_ENV says "test" but bundles the production runtime: a
// build run under a test runner shipped a content script that threw "jsxDEV is not a function". Builds are production
// builds unless a developer asks for development.
if (process.env.NODE_ENV !== "development") process.env.NODE_ENV = "production";

const config = readBuildConfig();
const sitePatterns = (browser: string) =>
  browser === "firefox" ? firefoxSitePatterns(config.siteOrigins) : chromeSitePatterns(config.siteOrigins);

export default defineConfig({
  srcDir: "src",
  outDir: process.env.CLIPCUT_EXTENSION_OUT ?? "dist",
  modules: ["@wxt-dev/module-react"],
  // Explicit imports, so that the repository's one tsc run checks the extension too.
  imports: false,
  manifestVersion: 3,
  zip: {
    artifactTemplate: "clipcut-{{version}}-{{browser}}.zip",
    sourcesTemplate: "clipcut-{{version}}-sources.zip",
  },
  manifest: ({ browser }) => ({
    name: "ClipCut",
    description: "Cut clips from the video you are watching, on your own computer.",
    version: "0.1.0",
    // nativeMessaging: the companion is started by the browser (connectNative), listed in its host manifest.
    permissions: ["storage", "nativeMessaging"],
    // Not the companion: without a host permission Chrome sends it ordinary CORS requests, each with our
    // Origin, which the companion checks (with a host permission a GET would carry no Origin at all).
    host_permissions: sitePatterns(browser),
    ...(browser === "firefox"
      ? {
          browser_specific_settings: {
            gecko: {
              id: FIREFOX_EXTENSION_ID,
              strict_min_version: "121.0",
              // addons.mozilla.org requires the declaration for new add-ons. What leaves the extension: the account's
              // API token (to ClipCut's site and the local companion) and the page link of each clip the user makes.
              data_collection_permissions: { required: ["authenticationInfo", "browsingActivity"] },
            },
          },
        }
      : { key: MANIFEST_KEY, externally_connectable: { matches: sitePatterns(browser) } }),
  }),
  hooks: {
    // The Firefox bridge runs on our own origins only, which are known at build time.
    "build:manifestGenerated": (wxt, manifest) => {
      for (const script of manifest.content_scripts ?? []) {
        if (script.js?.some((file) => file.includes("site-bridge"))) script.matches = sitePatterns(wxt.config.browser);
      }
    },
  },
  vite: () => ({
    define: { __CLIPCUT_CONFIG__: JSON.stringify(config) },
    css: { postcss: fileURLToPath(new URL(".", import.meta.url)) },
  }),
});
