import { spawn } from "node:child_process";
import { childEnv } from "../child-env";

/** The external programs the clip engine drives. Paths can be overridden for unusual installs. */
export interface Tools {
  ffmpeg: string;
  ffprobe: string;
  ytDlp: string;
}

export function toolPaths(env: NodeJS.ProcessEnv = process.env): Tools {
  return {
    ffmpeg: env.CLIPCUT_FFMPEG ?? "ffmpeg",
    ffprobe: env.CLIPCUT_FFPROBE ?? "ffprobe",
    ytDlp: env.CLIPCUT_YTDLP ?? "yt-dlp",
  };
}

export class MissingToolError extends Error {
  readonly code = "missing_tool";
}

const INSTALL_HINTS: Record<"ffmpeg" | "yt-dlp", string> = {
  ffmpeg: [
    "Install FFmpeg (it provides both ffmpeg and ffprobe):",
    "  Debian/Ubuntu: sudo apt install ffmpeg",
    "  Fedora:        sudo dnf install ffmpeg",
    "  macOS:         brew install ffmpeg",
    "  Windows:       winget install Gyan.FFmpeg",
    "or point CLIPCUT_FFMPEG / CLIPCUT_FFPROBE at the binaries.",
  ].join("\n"),
  "yt-dlp": [
    "Video page URLs are resolved with yt-dlp, which is not installed. Install it:",
    "  Debian/Ubuntu: sudo apt install yt-dlp   (or: pipx install yt-dlp for the newest)",
    "  macOS:         brew install yt-dlp",
    "  Windows:       winget install yt-dlp.yt-dlp",
    "or point CLIPCUT_YTDLP at it, or pass a direct media URL instead.",
  ].join("\n"),
};

export function installHint(tool: "ffmpeg" | "yt-dlp"): string {
  return INSTALL_HINTS[tool];
}

/**
 * Every yt-dlp run starts with these. Otherwise yt-dlp reads option files: yt-dlp.conf in the working folder (its
 * "home" file when no -P is given), the user's and the system's; one in whatever folder the companion was started
 * from could add --exec or another --proxy to a resolve. Given on the command line, --ignore-config stops yt-dlp
 * before it reads any file (only --config-locations would name one, and the companion never passes it).
 */
export const YTDLP_NO_CONFIG = ["--ignore-config"] as const;

/** yt-dlp's version (a date), asked without reading its option files; null when it cannot be started. */
export function ytDlpVersion(bin: string): Promise<string | null> {
  return toolVersion(bin, [...YTDLP_NO_CONFIG, "--version"]);
}

/** First line of `<bin> -version` (or the arguments given), or null when the program cannot be started. */
export function toolVersion(bin: string, args: string | readonly string[] = "-version"): Promise<string | null> {
  return new Promise((resolve) => {
    let out = "";
    let child;
    try {
      child = spawn(bin, typeof args === "string" ? [args] : [...args], {
        stdio: ["ignore", "pipe", "ignore"],
        env: childEnv(),
      });
    } catch {
      resolve(null);
      return;
    }
    // A tool that hangs on --version (a broken install) must not hang the companion's start.
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? (out.split("\n")[0] ?? "").trim() : null);
    });
  });
}

export interface ToolReport {
  ffmpeg: string;
  ffprobe: string;
  ytDlp: string | null;
}

/** Checks ffmpeg and ffprobe (required) and yt-dlp (optional); throws with install instructions. */
export async function checkTools(tools: Tools): Promise<ToolReport> {
  const [required, ytDlp] = await Promise.all([requireFfmpeg(tools), ytDlpVersion(tools.ytDlp)]);
  return { ...required, ytDlp };
}

/** Checks that ffmpeg and ffprobe start; throws MissingToolError with install instructions when one does not. */
export async function requireFfmpeg(tools: Tools): Promise<Omit<ToolReport, "ytDlp">> {
  const [ffmpeg, ffprobe] = await Promise.all([toolVersion(tools.ffmpeg), toolVersion(tools.ffprobe)]);
  if (!ffmpeg || !ffprobe) {
    const missing = [ffmpeg ? null : "ffmpeg", ffprobe ? null : "ffprobe"].filter(Boolean);
    throw new MissingToolError(`${missing.join(" and ")} not found.\n${installHint("ffmpeg")}`);
  }
  return { ffmpeg, ffprobe };
}
