import { constants } from "node:fs";
import { access, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { FIREFOX_EXTENSION_ID, NATIVE_HOST_NAME } from "../../../../app/domain/native-messaging";
import {
  BROWSER_IDS,
  BROWSERS,
  browserFound,
  describeSettings,
  launcherPath,
  manifestFolder,
  readLauncher,
  sandboxedBrowsers,
  type InstallContext,
  type Runner,
} from "./native-install";
import { DEFAULT_API_BASE } from "./api-client";
import { defaultOutputDir } from "./config";
import { installHint, toolVersion, ytDlpVersion, type Tools } from "./tools";
import { hasLibass, LIBASS_HINT, NO_LIBASS } from "../shorts/libass";
import { ytDlpAgeWarning } from "../source/ytdlp";

export interface Check {
  ok: boolean;
  /** A problem that does not stop clips (a browser not found, yt-dlp missing). */
  warning?: boolean;
  label: string;
  detail: string;
}

const manifestSchema = z.object({
  name: z.literal(NATIVE_HOST_NAME),
  path: z.string(),
  type: z.literal("stdio"),
  allowed_origins: z.array(z.string()).optional(),
  allowed_extensions: z.array(z.string()).optional(),
});

/** One manifest: present, readable, naming a launcher that exists and runs, and allowing our extension. */
async function checkManifest(path: string, firefox: boolean): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return "not registered";
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text || "null"));
  if (!parsed.success) return `the manifest ${path} is not a ClipCut host manifest`;
  const m = parsed.data;
  try {
    await access(m.path, constants.X_OK);
  } catch {
    return `the manifest names ${m.path}, which is missing or not executable`;
  }
  if (firefox && !m.allowed_extensions?.includes(FIREFOX_EXTENSION_ID)) return "the manifest does not allow the add-on";
  if (!firefox && !m.allowed_origins?.length) return "the manifest allows no extension";
  return null;
}

/**
 * Each browser's registration, the launcher's settings (read back from it), the tools and their versions, the
 * output folder, and sandboxed browsers.
 */
export async function doctor(
  ctx: InstallContext,
  options: {
    tools: Tools;
    /** --output-dir: the folder to check instead of the launcher's. */
    outputDir?: string;
    /** The folder checked when install has written no launcher (serve's). */
    serveOutputDir: string;
    userDataDirs?: string[];
    run?: Runner;
  },
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const id of BROWSER_IDS) {
    const info = BROWSERS[id];
    if (ctx.platform === "win32") {
      const key = `${info.windowsKey}\\${NATIVE_HOST_NAME}`;
      const res = options.run?.(["reg", "query", key, "/ve"]);
      const ok = res?.status === 0;
      checks.push({ ok, label: info.name, detail: ok ? `registered (${key})` : `not registered (${key})` });
      continue;
    }
    const found = browserFound(ctx, id);
    const path = join(manifestFolder(ctx, id)!, `${NATIVE_HOST_NAME}.json`);
    const problem = await checkManifest(path, info.firefox);
    if (!problem) checks.push({ ok: true, label: info.name, detail: `registered (${path})` });
    else if (!found) checks.push({ ok: true, warning: true, label: info.name, detail: "not found on this computer" });
    else
      checks.push({
        ok: false,
        label: info.name,
        detail: `${problem} — run \`clipcut-companion install --browser ${id}\``,
      });
  }
  for (const dir of options.userDataDirs ?? []) {
    const path = join(dir, "NativeMessagingHosts", `${NATIVE_HOST_NAME}.json`);
    const problem = await checkManifest(path, false);
    checks.push({
      ok: !problem,
      label: `Profile ${dir}`,
      detail: problem
        ? `${problem} — run \`clipcut-companion install --user-data-dir ${dir}\``
        : `registered (${path})`,
    });
  }
  for (const note of sandboxedBrowsers(ctx))
    checks.push({ ok: false, warning: true, label: "Sandboxed", detail: note });

  // What the host the browser starts is told, as install wrote it.
  const file = launcherPath(ctx);
  const text = await readFile(file, "utf8").catch(() => null);
  const settings = text === null ? null : readLauncher(text, ctx.platform);
  if (text === null) checks.push({ ok: true, warning: true, label: "Launcher", detail: `not written yet (${file})` });
  else if (!settings)
    checks.push({
      ok: false,
      label: "Launcher",
      detail: `${file} is not one install wrote — run \`clipcut-companion install\` again`,
    });
  else {
    const lines = describeSettings(settings, { outputDir: defaultOutputDir(), apiBaseUrl: DEFAULT_API_BASE });
    checks.push({ ok: true, label: "Launcher", detail: [file, ...lines].join("\n    ") });
  }
  const tools = { ...options.tools, ...settings?.tools };
  const outputDir =
    options.outputDir ?? settings?.outputDir ?? (settings ? defaultOutputDir() : options.serveOutputDir);

  const [ffmpeg, ffprobe, ytDlp, libass] = await Promise.all([
    toolVersion(tools.ffmpeg),
    toolVersion(tools.ffprobe),
    ytDlpVersion(tools.ytDlp),
    hasLibass(tools.ffmpeg),
  ]);
  for (const [label, version] of [
    ["ffmpeg", ffmpeg],
    ["ffprobe", ffprobe],
  ] as const)
    checks.push({ ok: version !== null, label, detail: version ?? `not found.\n${installHint("ffmpeg")}` });
  // Burned-in captions need libass; without it captions can still be a subtitle track: a warning, not a failure.
  if (ffmpeg !== null)
    checks.push({
      ok: libass,
      warning: !libass,
      label: "libass (burned-in captions)",
      detail: libass ? "yes: captions can be burned in" : `no. ${NO_LIBASS}\n${LIBASS_HINT}`,
    });
  const age = ytDlpAgeWarning(ytDlp);
  checks.push({
    ok: ytDlp !== null && !age,
    warning: true,
    label: "yt-dlp",
    detail: ytDlp === null ? `not found.\n${installHint("yt-dlp")}` : age ? `${ytDlp}: ${age}` : ytDlp,
  });

  const probe = join(outputDir, `.clipcut-doctor-${process.pid}`);
  try {
    await mkdir(outputDir, { recursive: true });
    await writeFile(probe, "");
    await rm(probe, { force: true });
    checks.push({ ok: true, label: "Output folder", detail: `${outputDir} (writable)` });
  } catch (error) {
    checks.push({
      ok: false,
      label: "Output folder",
      detail: `${outputDir} cannot be written (${(error as Error).message}); choose another with install --output-dir`,
    });
  }
  return checks;
}

/** The report as printed; problems first say what to do. */
export function formatChecks(checks: Check[]): string {
  return checks
    .map((c) => `${c.ok ? (c.warning ? "-" : "✓") : c.warning ? "!" : "✗"} ${c.label}: ${c.detail}`)
    .join("\n");
}
