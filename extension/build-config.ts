/**
 * Build-time settings of the extension. The default is the local build (site on http://localhost:8787, companion on
 * its default port); a store build (CLIPCUT_STORE_BUILD=1, set by `npm run extension:zip`) must name the production
 * https origin in CLIPCUT_SITE_ORIGINS, the e2e builds name their test server.
 */
import { COMPANION_DEFAULT_PORT } from "../app/domain/extension";

export interface ExtensionBuildConfig {
  /** Site origins, first one is where the popup's links and the API calls go. */
  siteOrigins: string[];
  companionPort: number;
}

const LOCAL_SITE_ORIGINS = "http://localhost:8787,http://127.0.0.1:8787";

export function readBuildConfig(env: Record<string, string | undefined> = process.env): ExtensionBuildConfig {
  const store = env.CLIPCUT_STORE_BUILD === "1";
  if (store && !env.CLIPCUT_SITE_ORIGINS)
    throw new Error("A store build needs CLIPCUT_SITE_ORIGINS: the production https origin(s) of the site.");
  const siteOrigins = (env.CLIPCUT_SITE_ORIGINS ?? LOCAL_SITE_ORIGINS)
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);
  if (siteOrigins.length === 0) throw new Error("CLIPCUT_SITE_ORIGINS lists no origin.");
  // The token hand-off travels to these origins: a store build never trusts a plain-http one.
  const plain = siteOrigins.filter((o) => !o.startsWith("https://"));
  if (store && plain.length > 0)
    throw new Error(`A store build accepts https site origins only; refused: ${plain.join(", ")}.`);
  const companionPort = Number(env.CLIPCUT_COMPANION_PORT ?? COMPANION_DEFAULT_PORT);
  if (!Number.isInteger(companionPort) || companionPort < 1 || companionPort > 65535)
    throw new Error("CLIPCUT_COMPANION_PORT must be a port number.");
  return { siteOrigins, companionPort };
}

/** Chrome's match patterns for our origins: exact, port included. */
export function chromeSitePatterns(origins: readonly string[]): string[] {
  return origins.map((origin) => `${origin}/*`);
}

/** The companion's host (extension/src/lib/config.ts). */
const COMPANION_HOST = "127.0.0.1";

/**
 * Firefox's match patterns take no port (`http://localhost:8787/*` never matches), so its manifest lists each host
 * once without one; the bridge content script then checks the full origin, port included (site-bridge.content.ts).
 * The companion's host is left out: `http://127.0.0.1/*` would cover the companion too, and Firefox then sends it
 * requests without our Origin, which it refuses. The local Firefox build thus serves the site on localhost only.
 */
export function firefoxSitePatterns(origins: readonly string[]): string[] {
  const hosts = origins.map((origin) => new URL(origin)).filter((url) => url.hostname !== COMPANION_HOST);
  return [...new Set(hosts.map((url) => `${url.protocol}//${url.hostname}/*`))];
}
