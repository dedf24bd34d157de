import { mkdir } from "node:fs/promises";
import { COMPANION_DEFAULT_PORT } from "../../../../app/domain/extension";
import { cleanStaleParts, defaultOutputDir, loadConfig, saveFirefoxOrigin } from "./config";
import { DEFAULT_API_BASE } from "./api-client";
import { killAllChildren } from "../ffmpeg";
import { checkApiBase, envAllowsPrivateSources } from "../source/net-guard";
import { allowedOrigins, memoryFirefoxBinding, trustsDevExtension } from "./security";
import { ytDlpAgeWarning } from "../source/ytdlp";
import { createCompanionServer } from "./server";
import { checkTools, toolPaths } from "./tools";

export interface ServeOptions {
  port?: number;
  outputDir?: string;
  apiBaseUrl?: string;
  concurrency?: number;
  extensionIds?: string[];
  allowPrivateSources?: boolean;
  /** Trust the public dev extension id in a packed build too (--trust-dev-extension). */
  trustDevExtension?: boolean;
}

/** `clipcut-companion serve`: checks ffmpeg, loads the pairing token, listens on 127.0.0.1. */
export async function startCompanion(options: ServeOptions) {
  const tools = toolPaths();
  const versions = await checkTools(tools);
  const apiBaseUrl = checkApiBase(options.apiBaseUrl ?? process.env.CLIPCUT_API_BASE ?? DEFAULT_API_BASE);
  const allowPrivateSources = options.allowPrivateSources || envAllowsPrivateSources();
  const ytDlpWarning = ytDlpAgeWarning(versions.ytDlp);
  const config = await loadConfig();
  const outputDir = options.outputDir ?? process.env.CLIPCUT_OUTPUT_DIR ?? defaultOutputDir();
  await mkdir(outputDir, { recursive: true });
  await cleanStaleParts(outputDir);
  const ids = [
    ...(options.extensionIds ?? []),
    ...(process.env.CLIPCUT_EXTENSION_IDS ?? "").split(",").filter(Boolean),
  ];
  const companion = createCompanionServer({
    tools,
    toolVersions: { ffmpeg: versions.ffmpeg, ytDlp: versions.ytDlp },
    outputDir,
    pairingToken: config.pairingToken,
    allowedOrigins: allowedOrigins(ids, trustsDevExtension(options.trustDevExtension)),
    firefox: memoryFirefoxBinding(config.firefoxOrigin, (origin) => {
      saveFirefoxOrigin(config, origin).catch(() => undefined);
    }),
    apiBaseUrl,
    allowPrivateSources,
    ytDlpWarning,
    concurrency: options.concurrency && options.concurrency > 0 ? options.concurrency : 2,
  });
  const port = await companion.listen(options.port ?? COMPANION_DEFAULT_PORT);
  const lines = [
    `ClipCut companion listening on http://127.0.0.1:${port}`,
    `Output folder: ${outputDir}`,
    config.created
      ? `Pairing token (shown once — paste it into the ClipCut extension): ${config.pairingToken}`
      : `Pairing token: already created (stored in ${config.path}; run 'clipcut-companion pair --reset' for a new one)`,
  ];
  if (!versions.ytDlp)
    lines.push("Note: yt-dlp is not installed; video page URLs will not work (direct media URLs do).");
  if (ytDlpWarning) lines.push(`Warning: ${ytDlpWarning}`);
  if (allowPrivateSources)
    lines.push("Note: local files and private/loopback sources are allowed (--allow-private-sources).");
  process.stdout.write(`${lines.join("\n")}\n`);
  const stop = () => {
    void companion.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.on("SIGHUP", stop);
  // A crash must not leave ffmpeg running: take every child's process group down with us.
  process.on("uncaughtException", (error) => {
    killAllChildren();
    process.stderr.write(`ClipCut companion crashed: ${error.message}\n`);
    process.exit(70);
  });
  return companion;
}
