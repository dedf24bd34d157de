import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_EXTENSION_ID } from "../../../app/domain/extension";
import { NATIVE_HOST_NAME, NATIVE_PROTOCOL } from "../../../app/domain/native-messaging";
import { encodeFrame, FrameReader } from "../src/host/native-frame";
import {
  installPlan,
  launcher,
  readLauncher,
  uninstallCommands,
  type InstallContext,
} from "../src/host/native-install";
import { CLI, runCli } from "./cli-process";

const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));
import { tempDir } from "./helpers";

/** Every Linux folder install writes to, relative to a scratch HOME (XDG_CONFIG_HOME unset). */
const LINUX = {
  chrome: [".config/google-chrome", ".config/google-chrome/NativeMessagingHosts"],
  chromium: [".config/chromium", ".config/chromium/NativeMessagingHosts"],
  edge: [".config/microsoft-edge", ".config/microsoft-edge/NativeMessagingHosts"],
  brave: [".config/BraveSoftware/Brave-Browser", ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts"],
  vivaldi: [".config/vivaldi", ".config/vivaldi/NativeMessagingHosts"],
  firefox: [".mozilla", ".mozilla/native-messaging-hosts"],
} as const;

function scratchHome(browsers: (keyof typeof LINUX)[]) {
  const home = tempDir("clipcut-home-");
  for (const b of browsers) mkdirSync(join(home, LINUX[b][0]), { recursive: true });
  // The companion's own folder under this HOME, whatever the shell that runs the tests says.
  const env: NodeJS.ProcessEnv = { HOME: home, XDG_CONFIG_HOME: "", CLIPCUT_COMPANION_CONFIG_DIR: "" };
  return { home, env };
}
const manifestAt = (home: string, b: keyof typeof LINUX) => join(home, LINUX[b][1], `${NATIVE_HOST_NAME}.json`);
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** Starts the launcher a manifest names, as the browser does, and says hello over its pipes. */
function helloThrough(launcher: string, origin: string) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const child = spawn(launcher, [origin]);
    const reader = new FrameReader();
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`no hello: ${stderr}`)), 60_000);
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) {
        if (!frame.ok) continue;
        clearTimeout(timer);
        child.stdin.end();
        resolve(frame.value as Record<string, unknown>);
      }
    });
    child.stdin.write(encodeFrame({ type: "hello", id: "h1", protocol: NATIVE_PROTOCOL }));
  });
}

describe("install, doctor and uninstall on Linux (scratch HOME)", () => {
  it("registers every browser found in its own folder, with a launcher carrying serve's options; doctor agrees; uninstall removes exactly that", async () => {
    const all = Object.keys(LINUX) as (keyof typeof LINUX)[];
    const { home, env } = scratchHome(all);
    const out = join(home, "Clips");
    const installed = await runCli(
      ["install", "--output-dir", out, "--api-base", "https://clipcut.example", "--allow-private-sources"],
      env,
    );
    expect(installed.code, installed.stderr).toBe(0);
    for (const b of all) expect(installed.stdout).toContain(manifestAt(home, b));
    // The summary prints every setting it wrote, the loosened one first among equals.
    expect(installed.stdout).toContain(`  Output folder: ${out}\n`);
    expect(installed.stdout).toContain("  ClipCut server: https://clipcut.example\n");
    expect(installed.stdout).toMatch(/ {2}Private sources: ALLOWED \(--allow-private-sources/);

    const launchers = new Set<string>();
    for (const b of all) {
      const m = readJson(manifestAt(home, b));
      expect(m).toMatchObject({ name: NATIVE_HOST_NAME, type: "stdio" });
      if (b === "firefox") {
        expect(m.allowed_extensions).toEqual(["extension@clipcut.app"]);
        expect(m.allowed_origins).toBeUndefined();
      } else {
        // A dev build (this repository) trusts the public dev id.
        expect(m.allowed_origins).toEqual([`chrome-extension://${DEFAULT_EXTENSION_ID}/`]);
        expect(m.allowed_extensions).toBeUndefined();
      }
      launchers.add(String(m.path));
    }
    expect(launchers.size).toBe(1);
    const launcher = [...launchers][0]!;
    expect(launcher.startsWith(join(home, ".config", "clipcut-companion"))).toBe(true);
    accessSync(launcher, constants.X_OK);
    const script = readFileSync(launcher, "utf8");
    expect(script).toContain("'native-host' '--output-dir'");
    expect(script).toContain(`'${out}'`);
    expect(script).toContain("'--api-base' 'https://clipcut.example'");
    expect(script).toContain("'--allow-private-sources'");

    // Installed from the repository, the launcher runs plain JavaScript (a build of the CLI beside it), not
    // TypeScript through tsx, which took seconds to load at each start.
    expect(script).not.toContain("tsx");
    const start = join(dirname(launcher), "clipcut-companion-host.cjs");
    const bundle = join(REPOSITORY, "node_modules", ".cache", "clipcut-companion", "clipcut-companion-host.cjs");
    expect(script).toContain(`exec '${process.execPath}' '${start}' 'native-host'`);
    expect(readFileSync(start, "utf8")).toContain(JSON.stringify(bundle));
    expect(statSync(bundle).size).toBeGreaterThan(100_000);
    // What the build was made from, each a file the start script can compare with the build (an input it cannot
    // find counts as changed, and the host would be built again at every start).
    const inputs = JSON.parse(readFileSync(bundle.replace(/\.cjs$/, ".inputs.json"), "utf8")) as string[];
    expect(inputs).toContain(CLI);
    expect(inputs.filter((path) => !existsSync(path))).toEqual([]);

    // The browser's view: the launcher starts the host, which answers with the folder install was given.
    const hello = await helloThrough(launcher, `chrome-extension://${DEFAULT_EXTENSION_ID}/`);
    expect(hello).toMatchObject({ type: "reply", id: "h1", value: { outputDir: out, protocol: NATIVE_PROTOCOL } });
    // A source file newer than the build (as after an edit): the start script builds it again before running it.
    utimesSync(bundle, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const again = await helloThrough(launcher, `chrome-extension://${DEFAULT_EXTENSION_ID}/`);
    expect(again).toMatchObject({ type: "reply", value: { outputDir: out } });
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(new Date(2021, 0, 1).getTime());

    // doctor reads the launcher's settings back: the folder install wrote, not the default.
    const doctor = await runCli(["doctor"], env);
    expect(doctor.code, doctor.stdout).toBe(0);
    for (const name of ["Google Chrome", "Chromium", "Microsoft Edge", "Brave", "Vivaldi", "Firefox"])
      expect(doctor.stdout).toMatch(new RegExp(`✓ ${name}: registered`));
    expect(doctor.stdout).toContain(`✓ Launcher: ${launcher}\n    Output folder: ${out}\n`);
    expect(doctor.stdout).toContain("    ClipCut server: https://clipcut.example\n");
    expect(doctor.stdout).toMatch(/\n {4}Private sources: ALLOWED/);
    expect(doctor.stdout).toMatch(/✓ ffmpeg: ffmpeg version/);
    expect(doctor.stdout).toContain("✓ libass (burned-in captions): yes: captions can be burned in\n");
    expect(doctor.stdout).toContain(`✓ Output folder: ${out} (writable)`);

    const removed = await runCli(["uninstall"], env);
    expect(removed.code).toBe(0);
    for (const b of all) expect(existsSync(manifestAt(home, b))).toBe(false);
    expect(existsSync(launcher)).toBe(false);
    expect(existsSync(start)).toBe(false);
    // The browsers' own folders stay.
    for (const b of all) expect(existsSync(join(home, LINUX[b][0]))).toBe(true);
    const after = await runCli(["doctor", "--output-dir", out], env);
    expect(after.code).toBe(1);
    expect(after.stdout).toContain("✗ Chromium: not registered — run `clipcut-companion install --browser chromium`");
  });

  it("writes only what its own flags say: the installing shell's CLIPCUT_* variables reach neither the launcher nor the manifests", async () => {
    const { home, env } = scratchHome(["chromium"]);
    const shell = {
      ...env,
      CLIPCUT_ALLOW_PRIVATE_SOURCES: "1",
      CLIPCUT_OUTPUT_DIR: join(home, "from-the-shell"),
      CLIPCUT_API_BASE: "https://shell.example",
      CLIPCUT_YTDLP: "/shell/yt-dlp",
      CLIPCUT_TRACE: "1",
      CLIPCUT_NATIVE_LOG: join(home, "shell.log"),
      CLIPCUT_EXTENSION_IDS: "abcdefghijklmnopabcdefghijklmnop",
    };
    const installed = await runCli(["install"], shell);
    expect(installed.code, installed.stderr).toBe(0);
    const m = readJson(manifestAt(home, "chromium"));
    expect(m.allowed_origins).toEqual([`chrome-extension://${DEFAULT_EXTENSION_ID}/`]);
    const script = readFileSync(String(m.path), "utf8");
    for (const leaked of ["CLIPCUT_", "private", "from-the-shell", "shell.example", "/shell/", "shell.log"])
      expect(script).not.toContain(leaked);
    // Nothing was asked for, and the summary and doctor say so.
    expect(installed.stdout).toContain("  Private sources: refused\n");
    expect(installed.stdout).toContain(`  Output folder: ${join(home, "Videos", "ClipCut")} (the default)\n`);
    const doctor = await runCli(["doctor"], env);
    expect(doctor.stdout).toContain("    Private sources: refused\n");
    expect(doctor.stdout).toContain(`✓ Output folder: ${join(home, "Videos", "ClipCut")} (writable)`);

    // Asked for with flags, each is written and printed.
    const flagged = await runCli(
      ["install", "--allow-private-sources", "--yt-dlp", "/opt/yt-dlp", "--log-file", join(home, "host.log")],
      shell,
    );
    expect(flagged.code, flagged.stderr).toBe(0);
    const again = readFileSync(String(m.path), "utf8");
    expect(again).toContain("'--allow-private-sources'");
    expect(again).toContain("CLIPCUT_YTDLP='/opt/yt-dlp'; export CLIPCUT_YTDLP");
    expect(again).toContain(`'--log-file' '${join(home, "host.log")}'`);
    expect(flagged.stdout).toMatch(/ {2}Private sources: ALLOWED/);
    expect(flagged.stdout).toContain("  yt-dlp: /opt/yt-dlp\n");
    expect(flagged.stdout).toContain(`  Log file: ${join(home, "host.log")}\n`);
  });

  it("registers only the browsers found, or those named with --browser; --user-data-dir writes only into that profile", async () => {
    const { home, env } = scratchHome(["firefox", "chromium"]);
    expect((await runCli(["install"], env)).code).toBe(0);
    expect(existsSync(manifestAt(home, "firefox"))).toBe(true);
    expect(existsSync(manifestAt(home, "chromium"))).toBe(true);
    expect(existsSync(manifestAt(home, "chrome"))).toBe(false);

    const named = scratchHome([]);
    expect((await runCli(["install", "--browser", "brave"], named.env)).code).toBe(0);
    expect(existsSync(manifestAt(named.home, "brave"))).toBe(true);
    expect(existsSync(manifestAt(named.home, "firefox"))).toBe(false);

    const custom = scratchHome(["chromium"]);
    const udd = join(custom.home, "profile");
    expect((await runCli(["install", "--user-data-dir", udd], custom.env)).code).toBe(0);
    expect(readJson(join(udd, "NativeMessagingHosts", `${NATIVE_HOST_NAME}.json`)).allowed_origins).toEqual([
      `chrome-extension://${DEFAULT_EXTENSION_ID}/`,
    ]);
    expect(existsSync(manifestAt(custom.home, "chromium"))).toBe(false);
    const doctor = await runCli(["doctor", "--user-data-dir", udd, "--output-dir", join(custom.home, "o")], custom.env);
    expect(doctor.stdout).toContain(`✓ Profile ${udd}: registered`);

    const none = scratchHome([]);
    const nothing = await runCli(["install"], none.env);
    expect(nothing.code).toBe(1);
    expect(nothing.stdout).toContain("No supported browser was found");
    expect((await runCli(["install", "--browser", "netscape"], none.env)).stderr).toContain("--browser must be one of");
  });

  it("doctor names Snap and Flatpak browsers with what to do", async () => {
    const { home, env } = scratchHome([]);
    mkdirSync(join(home, "snap", "firefox"), { recursive: true });
    mkdirSync(join(home, ".var", "app", "org.chromium.Chromium"), { recursive: true });
    const doctor = await runCli(["doctor", "--output-dir", join(home, "o")], env);
    expect(doctor.stdout).toContain("! Sandboxed: Firefox (Snap) runs sandboxed");
    expect(doctor.stdout).toContain("! Sandboxed: Chromium (Flatpak) runs sandboxed and cannot start the companion");
    expect(doctor.stdout).toContain("clipcut-companion serve");
  });
});

describe("install as data on Windows and macOS", () => {
  const options = {
    trustDevExtension: true,
    settings: { outputDir: "D:\\Clips", apiBaseUrl: "https://clipcut.example" },
  };

  it("Windows: per-user registry keys (Brave and Vivaldi read Chrome's), two manifests beside a .cmd launcher", () => {
    const ctx: InstallContext = {
      platform: "win32",
      home: "C:\\Users\\Ana",
      env: { APPDATA: "C:\\Users\\Ana\\AppData\\Roaming", PATH: "C:\\Windows" },
      node: "C:\\Program Files\\nodejs\\node.exe",
      script: "C:\\Users\\Ana\\AppData\\Roaming\\npm\\node_modules\\clipcut-companion\\bin\\clipcut-companion.cjs",
    };
    const plan = installPlan(ctx, {
      ...options,
      browsers: ["chrome", "chromium", "edge", "brave", "vivaldi", "firefox"],
    });
    const dir = "C:\\Users\\Ana\\AppData\\Roaming\\ClipCut Companion\\native-host";
    expect(plan.files.map((f) => f.path)).toEqual([
      `${dir}\\clipcut-companion-host.cmd`,
      `${dir}\\${NATIVE_HOST_NAME}.chromium.json`,
      `${dir}\\${NATIVE_HOST_NAME}.firefox.json`,
    ]);
    expect(plan.commands).toEqual([
      [
        "reg",
        "add",
        `HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
        "/ve",
        "/t",
        "REG_SZ",
        "/d",
        `${dir}\\${NATIVE_HOST_NAME}.chromium.json`,
        "/f",
      ],
      [
        "reg",
        "add",
        `HKCU\\Software\\Chromium\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
        "/ve",
        "/t",
        "REG_SZ",
        "/d",
        `${dir}\\${NATIVE_HOST_NAME}.chromium.json`,
        "/f",
      ],
      [
        "reg",
        "add",
        `HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
        "/ve",
        "/t",
        "REG_SZ",
        "/d",
        `${dir}\\${NATIVE_HOST_NAME}.chromium.json`,
        "/f",
      ],
      [
        "reg",
        "add",
        `HKCU\\Software\\Mozilla\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
        "/ve",
        "/t",
        "REG_SZ",
        "/d",
        `${dir}\\${NATIVE_HOST_NAME}.firefox.json`,
        "/f",
      ],
    ]);
    const cmd = plan.files[0]!.content;
    expect(cmd).toContain('set "PATH=C:\\Windows"\r\n');
    expect(cmd).toContain(
      `"C:\\Program Files\\nodejs\\node.exe" "${ctx.script}" "native-host" "--output-dir" "D:\\Clips" "--api-base" "https://clipcut.example" %*`,
    );
    expect(JSON.parse(plan.files[1]!.content)).toMatchObject({
      path: `${dir}\\clipcut-companion-host.cmd`,
      allowed_origins: [`chrome-extension://${DEFAULT_EXTENSION_ID}/`],
    });
    expect(JSON.parse(plan.files[2]!.content)).toMatchObject({ allowed_extensions: ["extension@clipcut.app"] });
    expect(uninstallCommands({ registry: plan.registry.map((r) => r.key) })).toEqual(
      plan.registry.map((r) => ["reg", "delete", r.key, "/f"]),
    );
  });

  it("macOS: manifests under ~/Library/Application Support, a shell launcher", () => {
    const ctx: InstallContext = {
      platform: "darwin",
      home: "/Users/ana",
      env: { PATH: "/opt/homebrew/bin:/usr/bin" },
      node: "/opt/homebrew/bin/node",
      script: "/opt/homebrew/lib/node_modules/clipcut-companion/bin/clipcut-companion.cjs",
    };
    const plan = installPlan(ctx, {
      ...options,
      browsers: ["chrome", "chromium", "edge", "brave", "vivaldi", "firefox"],
    });
    const support = "/Users/ana/Library/Application Support";
    expect(plan.files.map((f) => f.path)).toEqual([
      `${support}/ClipCut Companion/native-host/clipcut-companion-host`,
      `${support}/Google/Chrome/NativeMessagingHosts/${NATIVE_HOST_NAME}.json`,
      `${support}/Chromium/NativeMessagingHosts/${NATIVE_HOST_NAME}.json`,
      `${support}/Microsoft Edge/NativeMessagingHosts/${NATIVE_HOST_NAME}.json`,
      `${support}/BraveSoftware/Brave-Browser/NativeMessagingHosts/${NATIVE_HOST_NAME}.json`,
      `${support}/Vivaldi/NativeMessagingHosts/${NATIVE_HOST_NAME}.json`,
      `${support}/Mozilla/NativeMessagingHosts/${NATIVE_HOST_NAME}.json`,
    ]);
    expect(plan.commands).toEqual([]);
    expect(plan.files[0]!.mode).toBe(0o755);
    expect(plan.files[0]!.content).toContain(
      `exec '/opt/homebrew/bin/node' '${ctx.script}' 'native-host' '--output-dir' 'D:\\Clips'`,
    );
  });

  it("a launcher reads back as the settings written into it, on every platform, with no variable of the installing shell", () => {
    const settings = {
      outputDir: '/Users/o\'neil/My "Clips"',
      apiBaseUrl: "https://clipcut.example",
      concurrency: 3,
      allowPrivateSources: true,
      logFile: "/tmp/host log",
      tools: { ytDlp: "/opt/yt dlp/yt-dlp" },
    };
    for (const platform of ["linux", "darwin", "win32"] as const) {
      const ctx: InstallContext = {
        platform,
        home: "/home/ana",
        env: { PATH: "/opt/bin:/usr/bin", CLIPCUT_ALLOW_PRIVATE_SOURCES: "1", CLIPCUT_OUTPUT_DIR: "/elsewhere" },
        node: "/usr/bin/node",
        script: "/opt/clipcut-companion.cjs",
      };
      const content = launcher(ctx, settings).content;
      expect(content).not.toContain("CLIPCUT_ALLOW_PRIVATE_SOURCES");
      expect(content).not.toContain("/elsewhere");
      expect(readLauncher(content, platform)).toEqual({ ...settings, path: "/opt/bin:/usr/bin" });
      expect(readLauncher(launcher(ctx, {}).content, platform)).toEqual({
        allowPrivateSources: false,
        tools: {},
        path: "/opt/bin:/usr/bin",
      });
    }
    expect(readLauncher("#!/bin/sh\necho hi\n", "linux")).toBeNull();
  });

  it("refuses ids that are not Chrome ids, and a packed build with no id to allow", () => {
    const ctx: InstallContext = { platform: "darwin", home: "/Users/ana", env: {}, node: "node", script: "x.cjs" };
    expect(() => installPlan(ctx, { ...options, browsers: ["chrome"], extensionIds: ["evil"] })).toThrow(
      /Not a Chrome extension id/,
    );
    expect(() => installPlan(ctx, { ...options, trustDevExtension: false, browsers: ["chrome"] })).toThrow(
      /No extension id to allow/,
    );
    // Firefox alone needs no Chrome id.
    expect(installPlan(ctx, { ...options, trustDevExtension: false, browsers: ["firefox"] }).files).toHaveLength(2);
  });
});
