import { CHROME_EXTENSION_ID, DEFAULT_EXTENSION_ID } from "./extension";

/**
 * Where the site may hand a user's fresh API token: only extension ids listed at deploy time (EXTENSION_IDS in
 * wrangler.toml), plus the public dev id in local mode (its key is in the repository, so anyone can build an
 * extension with that id: never trusted in production). The admin setting only chooses among these.
 */
export function allowedExtensionIds(list: string | undefined, localMode: boolean): string[] {
  const listed = (list ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => CHROME_EXTENSION_ID.test(id));
  return [...new Set([...listed, ...(localMode ? [DEFAULT_EXTENSION_ID] : [])])];
}

/** The id in use: the stored choice if it is allowed, else the first allowed one; "" means no hand-off at all. */
export function chooseExtensionId(stored: string | null | undefined, allowed: string[]): string {
  if (stored && allowed.includes(stored)) return stored;
  return allowed[0] ?? "";
}
