// Long because: it is the command table (help text, flags and output of every command) that a user reads as one list;
// each command's work lives in its own module.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CUT_STRATEGIES, type CutStrategy } from "../../../../app/domain/companion";
import { FORMATS, QUALITIES, qualityHeight, type Format, type Quality } from "../../../../app/domain/media";
import { parseTimecode } from "../../../../app/domain/time";
import { CAPTION_MODES, clipFields, withClipRange } from "../../../../app/domain/clip-request";
import { ASPECTS } from "../../../../app/domain/crop";
import { z } from "zod";
import { ClipError } from "../errors";
import { tuneHeapForStreaming } from "./heap";
import { MissingToolError, requireFfmpeg, toolPaths, ytDlpVersion as askYtDlpVersion } from "./tools";
// The clip engine (cut, probe, sources, yt-dlp) is imported by the command that needs it: --version, --help and
// serve start without loading it.
import { VERSION } from "./version";

const HELP = `clipcut-companion ${VERSION} — ClipCut's local clip engine (FFmpeg)

Usage:
  clipcut-companion install [options]     Let your browsers start the companion for the ClipCut extension
                                          (native messaging: no server, no pairing)
  clipcut-companion uninstall             Remove exactly what install wrote
  clipcut-companion doctor                Check the browsers' registrations, ffmpeg/ffprobe/yt-dlp, the output folder
  clipcut-companion serve [options]       Start the local server (127.0.0.1 only) for the extension (opt-in
                                          fallback, e.g. for Snap/Flatpak browsers; needs pairing). No other
                                          command opens a port
  clipcut-companion cut <source> --start <time> --end <time> [options]
                                          Cut one clip in the terminal (no server, no account)
  clipcut-companion pair --reset          Make a new pairing token (the old one stops working)
  clipcut-companion autostart enable|disable [--dry-run]
                                          For serve users only: start serve at login (systemd user unit, macOS
                                          LaunchAgent, Windows Startup folder); --dry-run prints the file
                                          without writing it. Not needed after install: the browser starts it
  clipcut-companion --help | --version

install options (and serve's --output-dir, --api-base, --concurrency, --allow-private-sources,
--trust-dev-extension, --extension-id, which the host the browser starts then uses). Only these decide what install
writes (its summary prints every setting; doctor reads them back): the shell's CLIPCUT_* variables are not copied,
only its PATH, on which the host then finds ffmpeg, ffprobe and yt-dlp.
  --browser <name>      Only this browser (repeatable): chrome, chromium, edge, brave, vivaldi, firefox
                        (default: every one that has a profile for this user)
  --user-data-dir <dir> A Chromium-family browser run with --user-data-dir (it reads only <dir>/NativeMessagingHosts)
  --ffmpeg, --ffprobe, --yt-dlp <path>
                        A tool at a path of its own (default: found on the PATH)
  --log-file <file>     The host appends what it does to this file
  --dry-run             Print the files (and Windows registry commands) without writing them

serve options:
  --port <n>            Port on 127.0.0.1 (default 17327)
  --output-dir <dir>    Folder clips are written to (default ~/Videos/ClipCut)
  --api-base <url>      ClipCut server for credits (default http://localhost:8787; https unless localhost)
  --concurrency <n>     Clips cut at the same time (default 2)
  --extension-id <id>   Extra extension allowed to connect (repeatable): a Chrome id, or a Firefox internal
                        UUID (Firefox also pairs without it: the first one holding the token is bound)
  --allow-private-sources
                        Allow local files and loopback/private-network URLs as sources (tests, local demos;
                        env CLIPCUT_ALLOW_PRIVATE_SOURCES=1). Off by default: pages cannot make it read your LAN.
  --trust-dev-extension Also trust the public dev extension id (an unpacked build of this repository; env
                        CLIPCUT_TRUST_DEV_EXTENSION=1). Always on when run from the repository, off when installed.

cut options:
  <source>              Media URL (http/https), video page URL (needs yt-dlp) or local file
  --start, --end        Time as ss, mm:ss or hh:mm:ss (fractions allowed, e.g. 1:02.5)
  --format <f>          ${FORMATS.join(", ")} (default: from --out, else mp4)
  --quality <q>         ${QUALITIES.join(", ")} (never upscales; default: source size)
  --strategy <s>        auto (default), copy (keyframe-aligned, may snap start), smart (frame-accurate,
                        re-encodes only the first/last partial GOP), reencode
  --allow-snap          Let auto use copy even when the start is not on a keyframe
  --aspect <a>          ${ASPECTS.join(", ")} (default original): crop the picture to this shape,
                        the full height of the frame (the full width when the frame is narrower)
  --crop-position <p>   Where the crop sits, 0 (left edge) to 1 (right edge); default 0.5, the centre
  --captions <track>    Add the video's captions in this language (a page's track, e.g. en, pt-BR)
  --captions-mode <m>   burn (default: in the picture, needs an FFmpeg with libass) or soft (a subtitle
                        track: MP4, MOV, MKV, WebM; alone it does not re-encode the picture)
  --srt                 Also write the captions as an .srt beside the clip
  --watermark           Add the ClipCut watermark (as on the Free plan)
  --out <file>          Output file (never overwritten: " (1)" is added instead)
  --allow-private-sources  Allow loopback/private-network URLs (local files always work here)

The last line of 'cut' is a JSON object: output, strategy, startSeconds, endSeconds, durationSeconds, …
`;

const NO_COMMAND = `clipcut-companion needs a command.
  clipcut-companion install    once: your browsers then start the companion for the ClipCut extension
  clipcut-companion doctor     check that install worked, and the tools
  clipcut-companion cut …      cut one clip in the terminal
  clipcut-companion serve      the local server instead (opt-in, e.g. for Snap/Flatpak browsers; needs pairing)
See clipcut-companion --help.`;

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  return fail(`${flag} must be one of: ${allowed.join(", ")}`, 2);
}

/** Flags of the cut's Shorts options, by the request field they fill (for zod's messages). */
const SHORTS_FLAGS: Record<string, string> = {
  startSeconds: "--start",
  endSeconds: "--end",
  format: "--format",
  aspect: "--aspect",
  cropPosition: "--crop-position",
  captions: "--captions",
};

/** The aspect, crop position and captions flags, checked by the panel's request rules (clip-request.ts). */
function shortsOptions(
  values: { aspect?: string; "crop-position"?: string; captions?: string; "captions-mode"?: string; srt?: boolean },
  range: { startSeconds: number; endSeconds: number; format: Format },
) {
  const aspect = oneOf(values.aspect, ASPECTS, "--aspect");
  const mode = oneOf(values["captions-mode"], CAPTION_MODES, "--captions-mode");
  const position = values["crop-position"];
  if (position !== undefined && !/^\s*\d*\.?\d+\s*$/.test(position))
    fail(`--crop-position must be a number from 0 (left edge) to 1 (right edge), not ${position}`, 2);
  if (values.captions === undefined && (mode || values.srt))
    fail(`${mode ? "--captions-mode" : "--srt"} needs --captions <track>.`, 2);
  const parsed = cutShortsSchema.safeParse({
    ...range,
    aspect,
    cropPosition: position === undefined ? undefined : Number(position),
    captions:
      values.captions === undefined
        ? undefined
        : { track: values.captions, mode: mode ?? "burn", ...(values.srt ? { srt: true } : {}) },
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(`${SHORTS_FLAGS[String(issue.path[0])] ?? "cut"}: ${issue.message}`, 2);
  }
  return parsed.data;
}

const cutShortsSchema = withClipRange(
  z
    .object({
      startSeconds: clipFields.startSeconds,
      endSeconds: clipFields.endSeconds,
      format: clipFields.format,
      aspect: clipFields.aspect,
      cropPosition: clipFields.cropPosition,
      captions: clipFields.captions,
    })
    .strict(),
);

async function cutCommand(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      start: { type: "string" },
      end: { type: "string" },
      format: { type: "string" },
      quality: { type: "string" },
      strategy: { type: "string" },
      watermark: { type: "boolean", default: false },
      "allow-snap": { type: "boolean", default: false },
      "allow-private-sources": { type: "boolean", default: false },
      out: { type: "string" },
      aspect: { type: "string" },
      "crop-position": { type: "string" },
      captions: { type: "string" },
      "captions-mode": { type: "string" },
      srt: { type: "boolean", default: false },
    },
  });
  const source = positionals[0];
  if (!source || positionals.length > 1) fail("cut needs exactly one <source>. See --help.", 2);
  if (values.start === undefined || values.end === undefined) fail("cut needs --start and --end.", 2);
  const start = parseTimecode(values.start);
  const end = parseTimecode(values.end);
  if (start === null) fail(`--start: not a time: ${values.start} (use ss, mm:ss or hh:mm:ss)`, 2);
  if (end === null) fail(`--end: not a time: ${values.end} (use ss, mm:ss or hh:mm:ss)`, 2);
  if (end <= start) fail("--end must be after --start.", 2);
  const outExt = values.out ? extname(values.out).slice(1).toLowerCase() : "";
  const format: Format =
    oneOf(values.format, FORMATS, "--format") ??
    ((FORMATS as readonly string[]).includes(outExt) ? (outExt as Format) : "mp4");
  const quality: Quality | null = oneOf(values.quality, QUALITIES, "--quality") ?? null;
  const strategy: CutStrategy = oneOf(values.strategy, CUT_STRATEGIES, "--strategy") ?? "auto";
  const shorts = shortsOptions(values, { startSeconds: start, endSeconds: end, format });

  const [
    { cutClip },
    { clipBaseName, sanitizeName },
    { probeMedia },
    { resolveSource },
    net,
    { ytDlpAgeWarning },
    { captionsForCut, cropForSource },
  ] = await Promise.all([
    import("../paths/cut"),
    import("./output"),
    import("../source/probe"),
    import("../source/source"),
    import("../source/net-guard"),
    import("../source/ytdlp"),
    import("../shorts/options"),
  ]);
  const envAllowsPrivateSources = net.envAllowsPrivateSources;
  const tools = toolPaths();
  const isUrl = /^[a-z][a-z0-9+.-]*:/i.test(source) && !/^[A-Za-z]:[\\/]/.test(source);
  const isPage = isUrl && !/\.(mp4|m4v|mov|mkv|webm|m4a|mp3|wav)(\?|$)/i.test(source);
  // Tools are asked for their version only where the answer is used, and never on the way: a page URL asks yt-dlp
  // beside its resolve (the age warning is printed when it comes, and added to a failed resolve); ffmpeg and ffprobe
  // are checked only when the cut fails, to say what to install. Version runs before every cut cost a 2-core machine
  // ~150 ms of CPU beside the probe and the staging read, and a page a whole Python start-up first.
  const ytDlpVersion = isPage ? askYtDlpVersion(tools.ytDlp) : undefined;
  const ytDlpWarning = ytDlpVersion?.then((version) => {
    const warning = ytDlpAgeWarning(version);
    if (warning) process.stderr.write(`Warning: ${warning}\n`);
    return warning;
  });
  const reading = (async () => {
    const input = await resolveSource(tools, isUrl ? source : resolve(source), {
      height: quality ? qualityHeight(quality) : null,
      // The terminal user owns this computer: local files are always fine; private addresses only on request.
      allowLocalFiles: true,
      allowPrivate: values["allow-private-sources"] || envAllowsPrivateSources(),
      ytDlpWarning,
      ytDlpVersion,
    });
    return { input, info: await probeMedia(tools.ffprobe, input) };
  })();
  try {
    const { input, info } = await reading;
    // The panel's rules: the box on this file's frame, the track's cues (a track the video lacks is refused).
    const crop = cropForSource(shorts, info);
    const captions = await captionsForCut(shorts, input, tools.ffmpeg);
    let outputDir = process.cwd();
    let baseName = clipBaseName(input.title, start, end);
    if (values.out) {
      const out = resolve(values.out);
      outputDir = dirname(out);
      if (!existsSync(outputDir)) {
        fail(`Output folder does not exist: ${outputDir}`, 2);
      }
      const name = basename(out);
      baseName = sanitizeName(outExt === format || extname(name) !== "" ? name.slice(0, -extname(name).length) : name);
    }
    let lastLine = 0;
    const result = await cutClip(
      {
        input,
        info,
        startSeconds: start,
        endSeconds: end,
        format,
        quality,
        strategy,
        allowSnap: values["allow-snap"],
        watermark: values.watermark,
        outputDir,
        baseName,
        crop,
        captions,
      },
      {
        tools,
        onProgress: (p) => {
          if (!process.stderr.isTTY || Date.now() - lastLine < 250) return;
          lastLine = Date.now();
          const eta = p.etaSeconds === null ? "" : ` ETA ${p.etaSeconds.toFixed(0)}s`;
          const speed = p.speed === null ? "" : ` ${p.speed.toFixed(1)}x`;
          process.stderr.write(`\r${p.percent.toFixed(1)}%${speed}${eta}   `);
        },
      },
    );
    if (process.stderr.isTTY) process.stderr.write("\r");
    if (result.snapped) {
      process.stderr.write(
        `Note: copy started on the keyframe at ${result.startSeconds.toFixed(3)}s, before the requested ${start}s.\n`,
      );
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    // A missing ffmpeg or ffprobe fails the first run that needs it: say what to install instead of that failure.
    if (!(error instanceof MissingToolError)) await requireFfmpeg(tools);
    throw error;
  }
}

async function serveCommand(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string" },
      "output-dir": { type: "string" },
      "api-base": { type: "string" },
      concurrency: { type: "string" },
      "extension-id": { type: "string", multiple: true },
      "allow-private-sources": { type: "boolean", default: false },
      "trust-dev-extension": { type: "boolean", default: false },
    },
  });
  const { startCompanion } = await import("./serve");
  await startCompanion({
    port: values.port === undefined ? undefined : Number(values.port),
    outputDir: values["output-dir"] ? resolve(values["output-dir"]) : undefined,
    apiBaseUrl: values["api-base"],
    concurrency: values.concurrency === undefined ? undefined : Number(values.concurrency),
    extensionIds: values["extension-id"],
    allowPrivateSources: values["allow-private-sources"],
    trustDevExtension: values["trust-dev-extension"],
  });
  tuneHeapForStreaming();
}

/** The options serve and the native host share (install writes them into the host's launcher). */
const HOST_OPTIONS = {
  "output-dir": { type: "string" },
  "api-base": { type: "string" },
  concurrency: { type: "string" },
  "allow-private-sources": { type: "boolean", default: false },
} as const;

async function nativeHostCommand(args: string[]) {
  // The browser adds its own arguments: Chrome the caller's origin (and --parent-window=<hwnd> on Windows),
  // Firefox the manifest's path and the add-on id.
  const { values, positionals } = parseArgs({
    args: args.filter((a) => !a.startsWith("--parent-window=")),
    allowPositionals: true,
    options: { ...HOST_OPTIONS, "log-file": { type: "string" } },
  });
  const { runNativeHost } = await import("./native-host");
  const { killAllChildren } = await import("../ffmpeg");
  const host = await runNativeHost({
    outputDir: values["output-dir"] ? resolve(values["output-dir"]) : undefined,
    apiBaseUrl: values["api-base"],
    concurrency: values.concurrency === undefined ? undefined : Number(values.concurrency),
    allowPrivateSources: values["allow-private-sources"],
    logFile: values["log-file"] ?? process.env.CLIPCUT_NATIVE_LOG,
    caller: positionals,
    onExit: () => process.exit(0),
  });
  tuneHeapForStreaming();
  // Firefox sends SIGTERM a few seconds after closing the port; treat it (and the others) like the port closing.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void host.stop(signal));
  process.on("uncaughtException", (error) => {
    killAllChildren();
    process.stderr.write(`ClipCut companion crashed: ${error.message}\n`);
    process.exit(70);
  });
}

async function installContext() {
  const { homedir } = await import("node:os");
  const { companionEntry } = await import("./native-install");
  const platform = process.platform;
  if (platform !== "linux" && platform !== "darwin" && platform !== "win32")
    fail(`Native messaging install is not supported on ${platform}; run 'clipcut-companion serve' instead.`, 2);
  return {
    platform,
    home: homedir(),
    env: process.env,
    node: process.execPath,
    script: companionEntry(process.argv[1]),
  };
}

async function installCommand(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      ...HOST_OPTIONS,
      "log-file": { type: "string" },
      ffmpeg: { type: "string" },
      ffprobe: { type: "string" },
      "yt-dlp": { type: "string" },
      browser: { type: "string", multiple: true },
      "user-data-dir": { type: "string", multiple: true },
      "extension-id": { type: "string", multiple: true },
      "trust-dev-extension": { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const { BROWSER_IDS, describeSettings, install, installPlan, readLauncher } = await import("./native-install");
  const { trustsDevExtension } = await import("./security");
  const { checkApiBase } = await import("../source/net-guard");
  const { DEFAULT_API_BASE } = await import("./api-client");
  const { defaultOutputDir } = await import("./config");
  const browsers = values.browser?.map((b) => oneOf(b.toLowerCase(), BROWSER_IDS, "--browser")!);
  const ctx = await installContext();
  const path = (p: string | undefined) => (p ? resolve(p) : undefined);
  // Only install's own flags decide what it writes: the shell's CLIPCUT_* variables are not read here.
  const options = {
    browsers,
    userDataDirs: values["user-data-dir"]?.map((d) => resolve(d)),
    extensionIds: values["extension-id"] ?? [],
    trustDevExtension: trustsDevExtension(values["trust-dev-extension"], {}),
    settings: {
      outputDir: path(values["output-dir"]),
      apiBaseUrl: values["api-base"] ? checkApiBase(values["api-base"]) : undefined,
      concurrency: values.concurrency === undefined ? undefined : Number(values.concurrency),
      allowPrivateSources: values["allow-private-sources"],
      logFile: path(values["log-file"]),
      tools: { ffmpeg: path(values.ffmpeg), ffprobe: path(values.ffprobe), ytDlp: path(values["yt-dlp"]) },
    },
  };
  if (values["dry-run"]) {
    const plan = installPlan(ctx, options);
    const out = [
      ...plan.files.map((f) => `Would write ${f.path}:\n${f.content}`),
      ...plan.commands.map((c) => `Would run: ${c.join(" ")}`),
    ];
    return void process.stdout.write(`${out.join("\n")}\n`);
  }
  const plan = await install(ctx, options);
  const lines =
    plan.targets.length === 0
      ? [
          "No supported browser was found for this user (Chrome, Chromium, Edge, Brave, Vivaldi, Firefox).",
          "Name one with --browser <name>, or --user-data-dir <dir> for a Chromium run with a custom profile.",
        ]
      : [
          "The ClipCut companion is installed: your browser starts it when the extension needs it.",
          ...plan.targets.map((t) => `  ${t.browser}: ${t.where}`),
          `Settings written into ${plan.files[0]!.path} (only what install's options say; run install again to change them):`,
          // Read back from the file as written, as doctor reads it.
          ...describeSettings(readLauncher(plan.files[0]!.content, ctx.platform) ?? {}, {
            outputDir: defaultOutputDir(),
            apiBaseUrl: DEFAULT_API_BASE,
          }).map((line) => `  ${line}`),
          `  Extensions allowed to start it: ${plan.allowed.join(", ")}`,
          "Open the ClipCut extension: its popup shows the companion as ready. Check any time with 'clipcut-companion doctor'.",
        ];
  for (const note of plan.sandboxed) lines.push(`Note: ${note}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  if (plan.targets.length === 0) process.exit(1);
}

async function uninstallCommand() {
  const { uninstall } = await import("./native-install");
  const record = await uninstall(await installContext());
  const removed = [...record.files, ...record.registry];
  process.stdout.write(
    removed.length === 0
      ? "Nothing to remove: install has not written anything for this user.\n"
      : `Removed:\n${removed.map((p) => `  ${p}`).join("\n")}\n`,
  );
}

async function doctorCommand(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { "output-dir": { type: "string" }, "user-data-dir": { type: "string", multiple: true } },
  });
  const { doctor, formatChecks } = await import("./doctor");
  const { defaultOutputDir } = await import("./config");
  const checks = await doctor(await installContext(), {
    tools: toolPaths(),
    outputDir: values["output-dir"] === undefined ? undefined : resolve(values["output-dir"]),
    serveOutputDir: resolve(process.env.CLIPCUT_OUTPUT_DIR ?? defaultOutputDir()),
    userDataDirs: values["user-data-dir"]?.map((d) => resolve(d)),
    run: (command) => {
      const res = spawnSync(command[0]!, command.slice(1), { encoding: "utf8", timeout: 30_000 });
      return { status: res.status, stdout: res.stdout ?? "" };
    },
  });
  process.stdout.write(`ClipCut companion ${VERSION}\n${formatChecks(checks)}\n`);
  if (checks.some((c) => !c.ok && !c.warning)) process.exit(1);
}

async function pairCommand(args: string[]) {
  const { values } = parseArgs({ args, options: { reset: { type: "boolean", default: false } } });
  const { loadConfig, resetPairingToken } = await import("./config");
  if (!values.reset) {
    const config = await loadConfig();
    fail(`The pairing token is stored in ${config.path}. Run 'clipcut-companion pair --reset' to make a new one.`, 2);
  }
  const { token, path } = await resetPairingToken();
  process.stdout.write(`New pairing token (paste it into the ClipCut extension): ${token}\nStored in ${path}\n`);
}

async function autostartCommand(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { "dry-run": { type: "boolean", default: false } },
  });
  const action = positionals[0];
  if (action !== "enable" && action !== "disable") fail("autostart needs enable or disable. See --help.", 2);
  const { autostart, SERVE_ONLY_NOTE } = await import("./autostart");
  const { plan, ran } = await autostart(action, { dryRun: values["dry-run"] });
  if (values["dry-run"]) {
    const commands = (action === "enable" ? plan.enable : plan.disable).map((c) => `  ${c.join(" ")}`);
    process.stdout.write(
      `Would ${action === "enable" ? "write" : "remove"} ${plan.file}:\n\n${plan.content}\n` +
        (commands.length ? `and run:\n${commands.join("\n")}\n` : ""),
    );
    return;
  }
  process.stdout.write(
    action === "enable"
      ? `ClipCut companion (serve) will start at login (${plan.file}).\n${SERVE_ONLY_NOTE.join("\n")}\n`
      : `ClipCut companion will no longer start at login (removed ${plan.file}).\n`,
  );
  if (ran.length === 0 && action === "enable") process.stdout.write("It starts at your next login.\n");
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") return void process.stdout.write(HELP);
  if (command === "--version" || command === "-v") return void process.stdout.write(`${VERSION}\n`);
  if (command === "cut") return cutCommand(rest);
  if (command === "pair") return pairCommand(rest);
  if (command === "native-host") return nativeHostCommand(rest);
  if (command === "install") return installCommand(rest);
  if (command === "uninstall") return uninstallCommand();
  if (command === "doctor") return doctorCommand(rest);
  if (command === "autostart") return autostartCommand(rest);
  // Only `serve` opens a port: the extension starts the companion itself (native messaging) once it is installed.
  if (command === "serve") return serveCommand(rest);
  if (command === undefined) fail(NO_COMMAND, 2);
  if (command.startsWith("-"))
    fail(`Unknown option: ${command}. Options go after a command (e.g. serve ${command}).`, 2);
  fail(`Unknown command: ${command}. See --help.`, 2);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof MissingToolError || error instanceof ClipError) fail(`Error: ${error.message}`, 1);
  if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    fail(`${error.message}. See --help.`, 2);
  fail(`Error: ${error instanceof Error ? error.message : String(error)}`, 1);
});
