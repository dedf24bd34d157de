import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { autostart } from "../src/host/autostart";
import { runCli } from "./cli-process";
import { tempDir } from "./helpers";

const script = "/opt/clip cut/bin/clipcut-companion.cjs";

it("Linux: a systemd user unit that runs `serve` with the user's PATH (dry run writes nothing)", async () => {
  const home = tempDir("clipcut-home-");
  const { plan, ran } = await autostart("enable", {
    dryRun: true,
    platform: "linux",
    home,
    env: { PATH: "/usr/bin:/bin" },
    script,
  });
  expect(plan.file).toBe(`${home}/.config/systemd/user/clipcut-companion.service`);
  expect(plan.content).toContain(`ExecStart="${process.execPath}" "/opt/clip cut/bin/clipcut-companion.cjs" serve`);
  expect(plan.content).toContain('Environment="PATH=/usr/bin:/bin"');
  expect(plan.content).toMatch(/\[Install\]\nWantedBy=default\.target/);
  expect(plan.content).toMatch(
    /^# For clipcut-companion serve users only: .*\n# The ClipCut extension does not need it/,
  );
  expect(plan.enable).toEqual([
    ["systemctl", "--user", "daemon-reload"],
    ["systemctl", "--user", "enable", "--now", "clipcut-companion.service"],
  ]);
  expect(ran).toEqual([]);
  expect(existsSync(plan.file)).toBe(false);
});

it("macOS: a LaunchAgent plist that is valid XML and escapes paths", async () => {
  const home = tempDir("clipcut-home-");
  const { plan } = await autostart("enable", {
    dryRun: true,
    platform: "darwin",
    home,
    env: { PATH: "/opt/homebrew/bin:/usr/bin" },
    script: "/Users/a&b/clipcut-companion.cjs",
  });
  expect(plan.file).toBe(`${home}/Library/LaunchAgents/com.clipcut.companion.plist`);
  expect(plan.content).toContain("<string>/Users/a&amp;b/clipcut-companion.cjs</string>");
  expect(plan.content).toContain("<key>RunAtLoad</key>\n  <true/>");
  expect(plan.content).toMatch(/<!-- For clipcut-companion serve users only: .* does not need it after .* -->/);
  expect(plan.enable).toEqual([["launchctl", "load", "-w", plan.file]]);
  // xmllint is not everywhere; when it is, the plist must parse.
  try {
    execFileSync("xmllint", ["--noout", "-"], { input: plan.content, stdio: ["pipe", "ignore", "pipe"] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  expect(existsSync(plan.file)).toBe(false);
});

it("Windows: a command file in the Startup folder", async () => {
  const { plan } = await autostart("enable", {
    dryRun: true,
    platform: "win32",
    home: "C:\\Users\\ana",
    env: { APPDATA: "C:\\Users\\ana\\AppData\\Roaming" },
    script: "C:\\npm\\node_modules\\clipcut-companion\\bin\\clipcut-companion.cjs",
  });
  expect(plan.file).toMatch(/Microsoft.Windows.Start Menu.Programs.Startup.ClipCut Companion\.cmd$/);
  expect(plan.content).toMatch(
    /^@echo off\r\nrem For clipcut-companion serve users only: .+\r\nrem The ClipCut extension does not need it .+\r\nstart "ClipCut Companion" \/min ".+" ".+clipcut-companion\.cjs" serve\r\n$/,
  );
});

it("the CLI prints the dry run, and autostart is for serve users only (its help says so)", async () => {
  const { code, stdout } = await runCli(["autostart", "enable", "--dry-run"]);
  expect(code).toBe(0);
  expect(stdout).toMatch(/Would write .+/);
  expect(stdout).toMatch(/serve/);
  expect(stdout).toContain("For clipcut-companion serve users only");
  const help = await runCli(["--help"]);
  expect(help.stdout).toMatch(/autostart enable\|disable[^\n]*\n\s+For serve users only/);
});
