// Rules of `npm run deploy:check` that read files only (scripts/deploy-check.mjs runs them; tests feed them files).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every answer and page of the local stand-in carries it (workers/local/stripe-api.ts): never in a deploy. */
export const STAND_IN_MARKER = "clipcut-local-stand-in";
/** Names only the stand-in's code has, in case a bundler renamed the marker's constant away. */
const STAND_IN_NAMES = [STAND_IN_MARKER, "LocalStandIn", "/dev/stripe/"];

/** The bundle files that contain the local stand-in, each with what gave it away. */
export function standInInBundle(dir) {
  const found = [];
  for (const name of readdirSync(dir, { recursive: true })) {
    const file = join(dir, String(name));
    if (!statSync(file).isFile() || !/\.(js|mjs|cjs|map)$/.test(file)) continue;
    const text = readFileSync(file, "utf8");
    const hits = STAND_IN_NAMES.filter((needle) => text.includes(needle));
    if (hits.length > 0) found.push(`${name} (${hits.join(", ")})`);
  }
  return found;
}

/** The string vars of a wrangler.toml's top-level [vars] table (KEY = "value" lines). */
export function topLevelVars(toml) {
  const vars = {};
  let inVars = false;
  for (const line of toml.split("\n")) {
    const header = /^\s*\[\[?([^\]]+)\]\]?\s*$/.exec(line);
    if (header) {
      inVars = header[1].trim() === "vars";
      continue;
    }
    const pair = inVars && /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"([^"]*)"\s*(#.*)?$/.exec(line);
    if (pair) vars[pair[1]] = pair[2];
  }
  return vars;
}

/**
 * A deploy with no EXTENSION_IDS hands a token to no extension (the site's sign-in hand-off does nothing), so it
 * needs EXTENSION_IDS_OPT_OUT saying why. Returns the problem, or null.
 */
export function extensionIdsProblem(toml) {
  const vars = topLevelVars(toml);
  const ids = (vars.EXTENSION_IDS ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length > 0) return null;
  if ((vars.EXTENSION_IDS_OPT_OUT ?? "").trim().length > 0) return null;
  return "EXTENSION_IDS is empty in wrangler.toml: the site would hand no token to any extension. List the store ids, or set EXTENSION_IDS_OPT_OUT to the reason (docs/deploy.md).";
}
