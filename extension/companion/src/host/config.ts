import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";

/** Where the pairing token lives: the user's config directory, readable by the user only. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CLIPCUT_COMPANION_CONFIG_DIR) return env.CLIPCUT_COMPANION_CONFIG_DIR;
  if (process.platform === "win32")
    return join(env.APPDATA ?? join(homedir(), "AppData", "Roaming"), "ClipCut Companion");
  if (process.platform === "darwin") return join(homedir(), "Library", "Application Support", "ClipCut Companion");
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "clipcut-companion");
}

const storedSchema = z.object({
  pairingToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** The Firefox extension origin bound at pairing (Firefox origins are random per install). */
  firefoxOrigin: z
    .string()
    .regex(/^moz-extension:\/\/[0-9a-f-]{36}$/)
    .nullable()
    .default(null),
});
type Stored = z.infer<typeof storedSchema>;

export interface Config extends Stored {
  path: string;
  /** True when the token was created by this start: the only time it is printed. */
  created: boolean;
}

/** 32 random bytes: 256 bits, well above the 128-bit floor. */
export function newPairingToken(): string {
  return randomBytes(32).toString("base64url");
}

async function save(path: string, data: Stored): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
  await rename(tmp, path);
}

export async function loadConfig(dir = configDir()): Promise<Config> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, "config.json");
  const text = await readFile(path, "utf8").catch(() => null);
  if (text !== null) {
    const parsed = storedSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { ...parsed.data, path, created: false };
  }
  const fresh: Stored = { pairingToken: newPairingToken(), firefoxOrigin: null };
  await save(path, fresh);
  return { ...fresh, path, created: true };
}

export async function resetPairingToken(dir = configDir()): Promise<{ token: string; path: string }> {
  const config = await loadConfig(dir);
  const token = newPairingToken();
  // A new token unbinds Firefox too: the next extension to pair binds again.
  await save(config.path, { pairingToken: token, firefoxOrigin: null });
  return { token, path: config.path };
}

export async function saveFirefoxOrigin(config: Config, origin: string): Promise<void> {
  config.firefoxOrigin = origin;
  await save(config.path, { pairingToken: config.pairingToken, firefoxOrigin: origin });
}

export function defaultOutputDir(): string {
  return join(homedir(), "Videos", "ClipCut");
}

/**
 * After a crash, a job's temp file (".name.part") stays behind (the final name only ever appears complete). Removes
 * them so the folder only ever holds finished clips.
 */
export async function cleanStaleParts(outputDir: string, options: { olderThanMs?: number } = {}): Promise<number> {
  const names = await readdir(outputDir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!/^\..+\.part$/.test(name)) continue;
    // Another companion (a second browser's host) may be writing this one right now: only old ones are stale then.
    if (options.olderThanMs !== undefined) {
      const modified = await stat(join(outputDir, name)).then(
        (s) => s.mtimeMs,
        () => Date.now(),
      );
      if (Date.now() - modified < options.olderThanMs) continue;
    }
    await rm(join(outputDir, name), { force: true });
    removed++;
  }
  return removed;
}
