import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/**
 * `clipcut-companion autostart enable|disable [--dry-run]`: start `serve` at login, for those who use the local
 * server instead of native messaging (after `install` the browser starts the companion itself, with no port open).
 * Linux: a systemd user unit; macOS: a LaunchAgent; Windows: a command file in the Startup folder.
 */
export type AutostartPlatform = "linux" | "darwin" | "win32";

export interface AutostartPlan {
  file: string;
  content: string;
  /** Commands that activate (or deactivate) it, run unless --dry-run. */
  enable: string[][];
  disable: string[][];
}

export interface AutostartContext {
  platform: AutostartPlatform;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The node binary and the companion script it runs. */
  node: string;
  script: string;
}

/** The script to run at login: the installed bundle, or the repository's launcher when running from source. */
export function companionScript(argv1: string | undefined): string {
  const path = argv1 ? realpathSync(resolve(argv1)) : "";
  if (path.endsWith(".ts")) return resolve(dirname(path), "..", "bin", "clipcut-companion.mjs");
  return path;
}

/** Said in every file autostart writes, and when it is enabled: who it is for. */
export const SERVE_ONLY_NOTE = [
  "For clipcut-companion serve users only: this starts the local server (a port on 127.0.0.1) at login.",
  "The ClipCut extension does not need it after clipcut-companion install: the browser starts the companion itself.",
];

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const quoteUnit = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

export function autostartPlan(ctx: AutostartContext): AutostartPlan {
  const path = ctx.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  if (ctx.platform === "linux") {
    const dir = join(ctx.env.XDG_CONFIG_HOME ?? join(ctx.home, ".config"), "systemd", "user");
    const unit = "clipcut-companion.service";
    return {
      file: join(dir, unit),
      content: [
        ...SERVE_ONLY_NOTE.map((line) => `# ${line}`),
        "[Unit]",
        "Description=ClipCut companion server (clipcut-companion serve, for serve users only)",
        "After=network-online.target",
        "",
        "[Service]",
        `ExecStart=${quoteUnit(ctx.node)} ${quoteUnit(ctx.script)} serve`,
        // ffmpeg and yt-dlp are found on the PATH the user had when enabling.
        `Environment=${quoteUnit(`PATH=${path}`)}`,
        "Restart=on-failure",
        "RestartSec=5",
        "",
        "[Install]",
        "WantedBy=default.target",
        "",
      ].join("\n"),
      enable: [
        ["systemctl", "--user", "daemon-reload"],
        ["systemctl", "--user", "enable", "--now", unit],
      ],
      disable: [["systemctl", "--user", "disable", "--now", unit]],
    };
  }
  if (ctx.platform === "darwin") {
    const file = join(ctx.home, "Library", "LaunchAgents", "com.clipcut.companion.plist");
    const log = join(ctx.home, "Library", "Logs", "clipcut-companion.log");
    return {
      file,
      content: `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- ${SERVE_ONLY_NOTE.map(xml).join(" ")} -->
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>com.clipcut.companion</string>
  <key>ProgramArguments</key>
  <array>
    <string>${xml(ctx.node)}</string>
    <string>${xml(ctx.script)}</string>
    <string>serve</string>
  </array>
  <key>EnvironmentVariables</key>
  <dict>
    <key>PATH</key>
    <string>${xml(path)}</string>
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>StandardOutPath</key>
  <string>${xml(log)}</string>
  <key>StandardErrorPath</key>
  <string>${xml(log)}</string>
</dict>
</plist>
`,
      enable: [["launchctl", "load", "-w", file]],
      disable: [["launchctl", "unload", "-w", file]],
    };
  }
  const appData = ctx.env.APPDATA ?? join(ctx.home, "AppData", "Roaming");
  const file = join(appData, "Microsoft", "Windows", "Start Menu", "Programs", "Startup", "ClipCut Companion.cmd");
  return {
    file,
    // Minimised console window; the Startup folder runs it at every login.
    content: [
      "@echo off",
      ...SERVE_ONLY_NOTE.map((line) => `rem ${line}`),
      `start "ClipCut Companion" /min "${ctx.node}" "${ctx.script}" serve`,
      "",
    ].join("\r\n"),
    enable: [],
    disable: [],
  };
}

export interface AutostartOutcome {
  plan: AutostartPlan;
  ran: string[][];
}

/** Writes (or removes) the file and runs the activation commands; with dryRun only returns what it would do. */
export async function autostart(
  action: "enable" | "disable",
  options: { dryRun: boolean; platform?: AutostartPlatform; home?: string; env?: NodeJS.ProcessEnv; script?: string },
): Promise<AutostartOutcome> {
  const platform = options.platform ?? (process.platform as AutostartPlatform);
  if (!["linux", "darwin", "win32"].includes(platform)) throw new Error(`Autostart is not supported on ${platform}.`);
  const plan = autostartPlan({
    platform,
    home: options.home ?? homedir(),
    env: options.env ?? process.env,
    node: process.execPath,
    script: options.script ?? companionScript(process.argv[1]),
  });
  const commands = action === "enable" ? plan.enable : plan.disable;
  if (options.dryRun) return { plan, ran: [] };
  if (action === "enable") {
    await mkdir(dirname(plan.file), { recursive: true });
    await writeFile(plan.file, plan.content, { mode: 0o644 });
  }
  const ran: string[][] = [];
  for (const [bin, ...args] of commands) {
    if (!bin) continue;
    const res = spawnSync(bin, args, { stdio: "inherit", timeout: 30_000 });
    ran.push([bin, ...args]);
    if (res.status !== 0) throw new Error(`${[bin, ...args].join(" ")} failed; the file is at ${plan.file}.`);
  }
  if (action === "disable") await rm(plan.file, { force: true });
  return { plan, ran };
}
