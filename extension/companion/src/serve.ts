import { mkdir } from "node:fs/promises";
import { COMPANION_DEFAULT_PORT } from "../../../app/domain/extension";
import { cleanStaleParts, defaultOutputDir, loadConfig, saveFirefoxOrigin, savePresets } from "./config";
import { allowedOrigins, memoryFirefoxBinding } from "./security";
import { createCompanionServer } from "./server";
import { checkTools, toolPaths } from "./tools";

export interface ServeOptions {
  port?: number;
  outputDir?: string;
  apiBaseUrl?: string;
  concurrency?: number;
  extensionIds?: string[];
}

/** `clipcut-companion serve`: checks ffmpeg, loads the pairing token, listens on 127.0.0.1. */
export async function startCompanion(options: ServeOptions) {
  const tools = toolPaths();
  const versions = await checkTools(tools);
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
    allowedOrigins: allowedOrigins(ids),
    firefox: memoryFirefoxBinding(config.firefoxOrigin, (origin) => {
      saveFirefoxOrigin(config, origin).catch(() => undefined);
    }),
    apiBaseUrl: options.apiBaseUrl ?? process.env.CLIPCUT_API_BASE,
    concurrency: options.concurrency && options.concurrency > 0 ? options.concurrency : 2,
    presets: { list: () => config.presets, save: (presets) => savePresets(config, presets) },
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
  process.stdout.write(`${lines.join("\n")}\n`);
  const stop = () => {
    void companion.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return companion;
}
