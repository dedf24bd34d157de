/**
 * Build-time settings of the extension. The default is the local build (site on http://localhost:8787, companion on
 * its default port); a store build sets CLIPCUT_SITE_ORIGINS to the production origin, the e2e build to its server.
 */
import { COMPANION_DEFAULT_PORT } from "../app/domain/extension";

export interface ExtensionBuildConfig {
  /** Site origins, first one is where the popup's links and the API calls go. */
  siteOrigins: string[];
  companionPort: number;
}

export function readBuildConfig(env: Record<string, string | undefined> = process.env): ExtensionBuildConfig {
  const siteOrigins = (env.CLIPCUT_SITE_ORIGINS ?? "http://localhost:8787,http://127.0.0.1:8787")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);
  if (siteOrigins.length === 0) throw new Error("CLIPCUT_SITE_ORIGINS lists no origin.");
  const companionPort = Number(env.CLIPCUT_COMPANION_PORT ?? COMPANION_DEFAULT_PORT);
  if (!Number.isInteger(companionPort) || companionPort < 1 || companionPort > 65535)
    throw new Error("CLIPCUT_COMPANION_PORT must be a port number.");
  return { siteOrigins, companionPort };
}
