// Long because: the per-browser, per-platform table of where native-messaging manifests go (6 browsers × 3 platforms)
// is data read with the launcher it installs; the plan is computed before anything is written, so `install --dry-run`
// shows it whole.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, posix, resolve, win32 } from "node:path";
import { parseArgs } from "node:util";
import { CHROME_EXTENSION_ID, DEFAULT_EXTENSION_ID } from "../../../../app/domain/extension";
import { FIREFOX_EXTENSION_ID, NATIVE_HOST_NAME } from "../../../../app/domain/native-messaging";
import { ClipError } from "../errors";
import { BUILD_ONLY, hostBuild, startScript, type HostBuild } from "./host-build";

/**
 * Where each browser looks for native messaging hosts, per user (no admin rights), as data: Linux folders (under
 * $XDG_CONFIG_HOME, Firefox under $HOME), macOS folders (under ~/Library/Application Support), Windows registry keys
 * under HKCU whose default value is the manifest's path. Brave and Vivaldi read Chrome's key on Windows.
 */
export const BROWSER_IDS = ["chrome", "chromium", "edge", "brave", "vivaldi", "firefox"] as const;
export type BrowserId = (typeof BROWSER_IDS)[number];
export type Platform = "linux" | "darwin" | "win32";

interface BrowserInfo {
  name: string;
  firefox: boolean;
  /** Linux: the browser's own folder (under ~/.config, Firefox under ~), then where it reads host manifests. */
  linux: { home: "config" | "home"; profile: string[]; hosts: string[] };
  /** macOS: under ~/Library/Application Support. */
  mac: { profile: string[]; hosts: string[] };
  windowsKey: string;
  /** Sandboxed installs that cannot start a program outside their sandbox the usual way. */
  snap?: string;
  flatpak: string;
}

export const BROWSERS: Record<BrowserId, BrowserInfo> = {
  chrome: {
    name: "Google Chrome",
    firefox: false,
    linux: { home: "config", profile: ["google-chrome"], hosts: ["google-chrome", "NativeMessagingHosts"] },
    mac: { profile: ["Google", "Chrome"], hosts: ["Google", "Chrome", "NativeMessagingHosts"] },
    windowsKey: "HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts",
    flatpak: "com.google.Chrome",
  },
  chromium: {
    name: "Chromium",
    firefox: false,
    linux: { home: "config", profile: ["chromium"], hosts: ["chromium", "NativeMessagingHosts"] },
    mac: { profile: ["Chromium"], hosts: ["Chromium", "NativeMessagingHosts"] },
    windowsKey: "HKCU\\Software\\Chromium\\NativeMessagingHosts",
    snap: "chromium",
    flatpak: "org.chromium.Chromium",
  },
  edge: {
    name: "Microsoft Edge",
    firefox: false,
    linux: { home: "config", profile: ["microsoft-edge"], hosts: ["microsoft-edge", "NativeMessagingHosts"] },
    mac: { profile: ["Microsoft Edge"], hosts: ["Microsoft Edge", "NativeMessagingHosts"] },
    windowsKey: "HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts",
    flatpak: "com.microsoft.Edge",
  },
  brave: {
    name: "Brave",
    firefox: false,
    linux: {
      home: "config",
      profile: ["BraveSoftware", "Brave-Browser"],
      hosts: ["BraveSoftware", "Brave-Browser", "NativeMessagingHosts"],
    },
    mac: {
      profile: ["BraveSoftware", "Brave-Browser"],
      hosts: ["BraveSoftware", "Brave-Browser", "NativeMessagingHosts"],
    },
    windowsKey: "HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts",
    snap: "brave",
    flatpak: "com.brave.Browser",
  },
  vivaldi: {
    name: "Vivaldi",
    firefox: false,
    linux: { home: "config", profile: ["vivaldi"], hosts: ["vivaldi", "NativeMessagingHosts"] },
    mac: { profile: ["Vivaldi"], hosts: ["Vivaldi", "NativeMessagingHosts"] },
    windowsKey: "HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts",
    flatpak: "com.vivaldi.Vivaldi",
  },
  firefox: {
    name: "Firefox",
    firefox: true,
    linux: { home: "home", profile: [".mozilla"], hosts: [".mozilla", "native-messaging-hosts"] },
    mac: { profile: ["Firefox"], hosts: ["Mozilla", "NativeMessagingHosts"] },
    windowsKey: "HKCU\\Software\\Mozilla\\NativeMessagingHosts",
    snap: "firefox",
    flatpak: "org.mozilla.firefox",
  },
};

/** Set by the store package's bundler (scripts/pack.mjs): the extension's store ids (Chrome Web Store, Edge Add-ons). */
declare const __CLIPCUT_STORE_EXTENSION_IDS__: string[] | undefined;
const STORE_IDS: string[] =
  typeof __CLIPCUT_STORE_EXTENSION_IDS__ === "undefined" ? [] : __CLIPCUT_STORE_EXTENSION_IDS__;

/**
 * What install's own flags put into the launcher, so that the host the browser starts uses it: serve's options, the
 * host's log, and tools at paths of their own. Nothing else comes from the installing shell but its PATH.
 */
export interface HostSettings {
  outputDir?: string;
  apiBaseUrl?: string;
  concurrency?: number;
  allowPrivateSources?: boolean;
  logFile?: string;
  /** --ffmpeg, --ffprobe, --yt-dlp; otherwise each is found on the PATH. */
  tools?: Partial<Record<ToolName, string>>;
}

/** The launcher's settings, as read back from it: install's flags, and the PATH the host finds its tools on. */
export interface LauncherSettings extends HostSettings {
  path?: string;
}

type ToolName = "ffmpeg" | "ffprobe" | "ytDlp";
/** The variables the companion reads a tool's path from (tools.ts). */
const TOOL_ENV: Record<ToolName, string> = {
  ffmpeg: "CLIPCUT_FFMPEG",
  ffprobe: "CLIPCUT_FFPROBE",
  ytDlp: "CLIPCUT_YTDLP",
};

export interface InstallContext {
  platform: Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The node binary, and the companion's entry: the packed bin, or src/host/cli.ts in the repository. */
  node: string;
  script: string;
}

export interface InstallOptions {
  browsers?: BrowserId[];
  userDataDirs?: string[];
  /** Extra Chrome-family extension ids to allow (--extension-id, CLIPCUT_EXTENSION_IDS). */
  extensionIds?: string[];
  trustDevExtension: boolean;
  settings: HostSettings;
}

export interface PlannedFile {
  path: string;
  content: string;
  mode: number;
}

export interface InstallPlan {
  /** The launcher and the manifests, each written whole (from the repository, the build's start script too). */
  files: PlannedFile[];
  /** From the repository: the CLI built into plain JavaScript (by the start script) once the files are written. */
  build: HostBuild | null;
  /** Windows: registry keys (default value = manifest path). */
  registry: { key: string; value: string }[];
  /** The commands that write (and remove) the registry keys, as run. */
  commands: string[][];
  /** Browsers the plan covers, by name (for the summary). */
  targets: { browser: string; where: string }[];
  /** The extensions the written manifests let start the host (Chrome-family origins, the Firefox add-on id). */
  allowed: string[];
  /** Browsers found on this computer that run sandboxed (Snap, Flatpak) and what to do about them. */
  sandboxed: string[];
}

/** Where the companion keeps its own files (the pairing config, the launcher, the record of what install wrote). */
export function companionHome(ctx: Pick<InstallContext, "platform" | "home" | "env">): string {
  const { join } = paths(ctx.platform);
  // Empty variables count as unset.
  if (ctx.env.CLIPCUT_COMPANION_CONFIG_DIR) return ctx.env.CLIPCUT_COMPANION_CONFIG_DIR;
  if (ctx.platform === "win32")
    return join(ctx.env.APPDATA || join(ctx.home, "AppData", "Roaming"), "ClipCut Companion");
  if (ctx.platform === "darwin") return join(ctx.home, "Library", "Application Support", "ClipCut Companion");
  return join(ctx.env.XDG_CONFIG_HOME || join(ctx.home, ".config"), "clipcut-companion");
}

/** Paths of the platform the plan is for (Windows paths are planned, and tested, on any machine). */
const paths = (platform: Platform) => (platform === "win32" ? win32 : posix);

function linuxBase(ctx: InstallContext, info: BrowserInfo) {
  return info.linux.home === "home" ? ctx.home : ctx.env.XDG_CONFIG_HOME || join(ctx.home, ".config");
}

/** The folder a browser's host manifests live in (Linux, macOS), or null on Windows (registry). */
export function manifestFolder(ctx: InstallContext, id: BrowserId): string | null {
  const info = BROWSERS[id];
  if (ctx.platform === "linux") return join(linuxBase(ctx, info), ...info.linux.hosts);
  if (ctx.platform === "darwin") return join(ctx.home, "Library", "Application Support", ...info.mac.hosts);
  return null;
}

/** The browser has a profile here, i.e. it has been run by this user. */
export function browserFound(ctx: InstallContext, id: BrowserId): boolean {
  const info = BROWSERS[id];
  if (ctx.platform === "linux") return existsSync(join(linuxBase(ctx, info), ...info.linux.profile));
  if (ctx.platform === "darwin")
    return existsSync(join(ctx.home, "Library", "Application Support", ...info.mac.profile));
  return true; // Windows: the registry key is harmless where the browser is missing
}

/** Snap and Flatpak installs found for this user (Linux), with what to do. */
export function sandboxedBrowsers(ctx: InstallContext): string[] {
  if (ctx.platform !== "linux") return [];
  const found: string[] = [];
  for (const id of BROWSER_IDS) {
    const info = BROWSERS[id];
    const fix = `install ${info.name} from your distribution's package (.deb/.rpm) or the vendor's site, or run \`clipcut-companion serve\` and pair the extension in its popup`;
    if (info.snap && existsSync(join(ctx.home, "snap", info.snap)))
      found.push(`${info.name} (Snap) runs sandboxed and may not start the companion: ${fix}.`);
    if (existsSync(join(ctx.home, ".var", "app", info.flatpak)))
      found.push(`${info.name} (Flatpak) runs sandboxed and cannot start the companion: ${fix}.`);
  }
  return found;
}

/** The Chrome-family origins the manifest allows: the store ids, extra ids, and the public dev id when trusted. */
export function allowedChromeOrigins(options: Pick<InstallOptions, "extensionIds" | "trustDevExtension">): string[] {
  const ids = [
    ...STORE_IDS,
    ...(options.extensionIds ?? []),
    ...(options.trustDevExtension ? [DEFAULT_EXTENSION_ID] : []),
  ];
  for (const id of ids)
    if (!CHROME_EXTENSION_ID.test(id))
      throw new ClipError("invalid_extension_id", `Not a Chrome extension id: ${id} (32 letters a–p).`, 2);
  return [...new Set(ids)].map((id) => `chrome-extension://${id}/`);
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const cmdQuote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * The launcher's environment. The installing shell's CLIPCUT_* variables are not copied (one such as
 * CLIPCUT_ALLOW_PRIVATE_SOURCES=1 would silently loosen every host the browser starts): only the PATH, which a browser
 * started from the desktop often lacks (Homebrew's, ~/.local/bin), so that the host finds the same ffmpeg and
 * yt-dlp; and the tools' paths install was given.
 */
function launcherEnv(ctx: InstallContext, settings: HostSettings): [string, string][] {
  const env: [string, string][] = ctx.env.PATH === undefined ? [] : [["PATH", ctx.env.PATH]];
  for (const tool of Object.keys(TOOL_ENV) as ToolName[]) {
    const path = settings.tools?.[tool];
    if (path) env.push([TOOL_ENV[tool], path]);
  }
  return env;
}

/** A repository install's build of the CLI (host-build.ts), kept beside the launcher; null for the packed package. */
function repositoryBuild(ctx: InstallContext): HostBuild | null {
  return hostBuild(ctx.script, paths(ctx.platform).dirname(launcherPath(ctx)), ctx.platform);
}

/**
 * The command line of the host: node, the entry (plain JavaScript: the packed bundle, or a repository install's build
 * of src/host/cli.ts), and serve's options.
 */
function hostCommand(ctx: InstallContext, settings: HostSettings): string[] {
  return [
    ctx.node,
    repositoryBuild(ctx)?.start ?? ctx.script,
    "native-host",
    ...(settings.outputDir ? ["--output-dir", settings.outputDir] : []),
    ...(settings.apiBaseUrl ? ["--api-base", settings.apiBaseUrl] : []),
    ...(settings.concurrency ? ["--concurrency", String(settings.concurrency)] : []),
    ...(settings.allowPrivateSources ? ["--allow-private-sources"] : []),
    ...(settings.logFile ? ["--log-file", settings.logFile] : []),
  ];
}

/** The settings a launcher written by `launcher` holds, read back from its text; null when it is not one. */
export function readLauncher(content: string, platform: Platform): LauncherSettings | null {
  const env: Record<string, string> = {};
  let command: string[] | null = null;
  for (const line of content.split(/\r?\n/)) {
    if (platform === "win32") {
      const set = /^set "([A-Za-z_][A-Za-z0-9_]*)=(.*)"$/.exec(line);
      if (set) env[set[1]!] = set[2]!;
      else if (line.endsWith(" %*"))
        command = [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"'));
      continue;
    }
    const set = /^([A-Za-z_][A-Za-z0-9_]*)='((?:[^']|'\\'')*)'; export \1$/.exec(line);
    if (set) env[set[1]!] = set[2]!.replace(/'\\''/g, "'");
    else if (line.startsWith("exec "))
      command = [...line.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replace(/'\\''/g, "'"));
  }
  const at = command?.indexOf("native-host") ?? -1;
  if (!command || at < 0) return null;
  const { values } = parseArgs({
    args: command.slice(at + 1),
    strict: false,
    options: {
      "output-dir": { type: "string" },
      "api-base": { type: "string" },
      concurrency: { type: "string" },
      "allow-private-sources": { type: "boolean" },
      "log-file": { type: "string" },
    },
  });
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  const tools: HostSettings["tools"] = {};
  for (const tool of Object.keys(TOOL_ENV) as ToolName[]) if (env[TOOL_ENV[tool]]) tools[tool] = env[TOOL_ENV[tool]];
  return {
    outputDir: text(values["output-dir"]),
    apiBaseUrl: text(values["api-base"]),
    concurrency: text(values.concurrency) === undefined ? undefined : Number(values.concurrency),
    allowPrivateSources: values["allow-private-sources"] === true,
    logFile: text(values["log-file"]),
    tools,
    path: env.PATH,
  };
}

/** The launcher's settings as lines for people: install prints them, doctor shows them read back from the launcher. */
export function describeSettings(settings: LauncherSettings, defaults: { outputDir: string; apiBaseUrl: string }) {
  const tools = settings.tools ?? {};
  return [
    `Output folder: ${settings.outputDir ?? `${defaults.outputDir} (the default)`}`,
    `ClipCut server: ${settings.apiBaseUrl ?? `${defaults.apiBaseUrl} (the default)`}`,
    `Clips at a time: ${settings.concurrency ?? "2 (the default)"}`,
    settings.allowPrivateSources
      ? "Private sources: ALLOWED (--allow-private-sources: local files and loopback/private-network URLs)"
      : "Private sources: refused",
    ...(["ffmpeg", "ffprobe", "ytDlp"] as const)
      .filter((tool) => tools[tool])
      .map((tool) => `${tool === "ytDlp" ? "yt-dlp" : tool}: ${tools[tool]}`),
    ...(settings.logFile ? [`Log file: ${settings.logFile}`] : []),
    ...(settings.path === undefined ? [] : [`PATH (for ffmpeg, ffprobe, yt-dlp): ${settings.path}`]),
  ];
}

/** Where install writes the launcher (in the companion's own folder). */
export function launcherPath(ctx: Pick<InstallContext, "platform" | "home" | "env">): string {
  const { join } = paths(ctx.platform);
  return join(
    companionHome(ctx),
    "native-host",
    ctx.platform === "win32" ? "clipcut-companion-host.cmd" : "clipcut-companion-host",
  );
}

/** The small program the manifest names: a shell script (a .cmd on Windows) that runs the companion's native host. */
export function launcher(ctx: InstallContext, settings: HostSettings): PlannedFile {
  const command = hostCommand(ctx, settings);
  const env = launcherEnv(ctx, settings);
  if (ctx.platform === "win32")
    return {
      path: launcherPath(ctx),
      mode: 0o644,
      content: [
        "@echo off",
        "rem ClipCut companion, started by your browser for the ClipCut extension (native messaging).",
        "rem Written by `clipcut-companion install`; `clipcut-companion uninstall` removes it.",
        ...env.map(([k, v]) => `set "${k}=${v}"`),
        `${command.map(cmdQuote).join(" ")} %*`,
        "",
      ].join("\r\n"),
    };
  return {
    path: launcherPath(ctx),
    mode: 0o755,
    content: [
      "#!/bin/sh",
      "# ClipCut companion, started by your browser for the ClipCut extension (native messaging).",
      "# Written by `clipcut-companion install`; `clipcut-companion uninstall` removes it.",
      ...env.map(([k, v]) => `${k}=${sh(v)}; export ${k}`),
      `exec ${command.map(sh).join(" ")} "$@"`,
      "",
    ].join("\n"),
  };
}

function manifest(path: string, firefox: boolean, chromeOrigins: string[]): string {
  return `${JSON.stringify(
    {
      name: NATIVE_HOST_NAME,
      description: "ClipCut companion: cuts clips with FFmpeg for the ClipCut extension",
      path,
      type: "stdio",
      ...(firefox ? { allowed_extensions: [FIREFOX_EXTENSION_ID] } : { allowed_origins: chromeOrigins }),
    },
    null,
    2,
  )}\n`;
}

/** Everything install writes, as data (tested for every platform; run for this one). */
export function installPlan(ctx: InstallContext, options: InstallOptions): InstallPlan {
  const origins = allowedChromeOrigins(options);
  const host = launcher(ctx, options.settings);
  const build = repositoryBuild(ctx);
  const files: PlannedFile[] = [
    host,
    ...(build ? [{ path: build.start, content: startScript(build), mode: 0o644 }] : []),
  ];
  const registry: InstallPlan["registry"] = [];
  const targets: InstallPlan["targets"] = [];
  const customOnly = (options.userDataDirs?.length ?? 0) > 0 && !options.browsers?.length;
  const browsers = customOnly ? [] : (options.browsers ?? BROWSER_IDS.filter((id) => browserFound(ctx, id)));
  const name = `${NATIVE_HOST_NAME}.json`;
  if (browsers.some((id) => !BROWSERS[id].firefox) || options.userDataDirs?.length) {
    if (origins.length === 0)
      throw new ClipError(
        "no_extension_id",
        "No extension id to allow: pass --extension-id <id> (or --trust-dev-extension for an unpacked build of the repository).",
        2,
      );
  }
  for (const id of browsers) {
    const info = BROWSERS[id];
    const content = manifest(host.path, info.firefox, origins);
    if (ctx.platform === "win32") {
      // One manifest per kind, beside the launcher; the registry points at it.
      const path = win32.join(
        win32.dirname(host.path),
        `${NATIVE_HOST_NAME}.${info.firefox ? "firefox" : "chromium"}.json`,
      );
      if (!files.some((f) => f.path === path)) files.push({ path, content, mode: 0o644 });
      const key = `${info.windowsKey}\\${NATIVE_HOST_NAME}`;
      if (!registry.some((r) => r.key === key)) registry.push({ key, value: path });
      targets.push({ browser: info.name, where: key });
      continue;
    }
    const path = join(manifestFolder(ctx, id)!, name);
    files.push({ path, content, mode: 0o644 });
    targets.push({ browser: info.name, where: path });
  }
  for (const dir of options.userDataDirs ?? []) {
    const { join, resolve } = paths(ctx.platform);
    const path = join(resolve(dir), "NativeMessagingHosts", name);
    files.push({ path, content: manifest(host.path, false, origins), mode: 0o644 });
    targets.push({ browser: `Chromium-family profile ${dir}`, where: path });
  }
  return {
    files,
    build,
    registry,
    commands: registry.map(({ key, value }) => ["reg", "add", key, "/ve", "/t", "REG_SZ", "/d", value, "/f"]),
    targets,
    sandboxed: sandboxedBrowsers(ctx),
    allowed: [
      ...(browsers.some((id) => !BROWSERS[id].firefox) || options.userDataDirs?.length ? origins : []),
      ...(browsers.some((id) => BROWSERS[id].firefox) ? [FIREFOX_EXTENSION_ID] : []),
    ],
  };
}

/** What install wrote, so that uninstall removes exactly that. */
interface Record_ {
  files: string[];
  registry: string[];
}
const recordPath = (ctx: InstallContext) =>
  paths(ctx.platform).join(companionHome(ctx), "native-host", "installed.json");

async function readRecord(ctx: InstallContext): Promise<Record_> {
  try {
    const data = JSON.parse(await readFile(recordPath(ctx), "utf8")) as Partial<Record_>;
    return { files: data.files ?? [], registry: data.registry ?? [] };
  } catch {
    return { files: [], registry: [] };
  }
}

export type Runner = (command: string[]) => { status: number | null; stdout: string };
const systemRunner: Runner = ([bin, ...args]) => {
  const res = spawnSync(bin!, args, { encoding: "utf8", timeout: 30_000 });
  return { status: res.status, stdout: res.stdout ?? "" };
};

/** Writes the plan (and the registry keys on Windows), and records it. */
export async function install(ctx: InstallContext, options: InstallOptions, run: Runner = systemRunner) {
  const plan = installPlan(ctx, options);
  for (const file of plan.files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content, { mode: file.mode });
    await chmod(file.path, file.mode);
  }
  for (const command of plan.commands) {
    const res = run(command);
    if (res.status !== 0) throw new ClipError("install_failed", `${command.join(" ")} failed.`, 1);
  }
  // From the repository: the build the start script runs, made now rather than at the browser's first start.
  if (plan.build) {
    const res = spawnSync(ctx.node, [plan.build.start, BUILD_ONLY], { encoding: "utf8", timeout: 120_000 });
    if (res.status !== 0)
      throw new ClipError("install_failed", `Building the companion failed:\n${res.stderr || res.error?.message}`, 1);
  }
  const before = await readRecord(ctx);
  const record: Record_ = {
    files: [...new Set([...before.files, ...plan.files.map((f) => f.path)])],
    registry: [...new Set([...before.registry, ...plan.registry.map((r) => r.key)])],
  };
  await writeFile(recordPath(ctx), `${JSON.stringify(record, null, 2)}\n`);
  return plan;
}

/** Removes exactly what install wrote (the recorded files and registry keys), then the record. */
export async function uninstall(ctx: InstallContext, run: Runner = systemRunner) {
  const record = await readRecord(ctx);
  for (const path of record.files) await rm(path, { force: true });
  for (const command of uninstallCommands(record)) run(command);
  await rm(recordPath(ctx), { force: true });
  return record;
}

export function uninstallCommands(record: { registry: string[] }): string[][] {
  return record.registry.map((key) => ["reg", "delete", key, "/f"]);
}

/** The script to name in the launcher: the installed bundle, or the repository's src/host/cli.ts. */
export function companionEntry(argv1: string | undefined): string {
  const path = argv1 ? realpathSync(resolve(argv1)) : "";
  if (path.endsWith(".ts")) return path;
  if (path.endsWith("clipcut-companion.mjs")) return resolve(dirname(path), "..", "src", "host", "cli.ts");
  return path;
}
