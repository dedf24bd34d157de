import { runProcess } from "../ffmpeg";

/**
 * Burned-in captions need ffmpeg's `ass` (or `subtitles`) filter, which exists only when ffmpeg was built with libass.
 * `ffmpeg -filters` lists what this build has; `-buildconf` is the fallback for a build whose filter list cannot be
 * read. Asked once per ffmpeg program.
 */
const answers = new Map<string, Promise<boolean>>();

/** A line of `ffmpeg -filters`: flags, the name, the pads ("V->V"), the description. */
const ASS_FILTER = /^\s*\S{2,3}\s+(ass|subtitles)\s+V->V\b/m;

export function hasLibass(ffmpeg: string): Promise<boolean> {
  let answer = answers.get(ffmpeg);
  if (!answer) {
    answer = (async () => {
      try {
        const { stdout } = await runProcess(ffmpeg, ["-hide_banner", "-filters"], { timeoutMs: 15_000 });
        return ASS_FILTER.test(stdout);
      } catch {
        try {
          const { stdout } = await runProcess(ffmpeg, ["-hide_banner", "-buildconf"], { timeoutMs: 15_000 });
          return /--enable-libass\b/.test(stdout);
        } catch {
          return false;
        }
      }
    })();
    answers.set(ffmpeg, answer);
  }
  return answer;
}

/** What doctor and the panel say when it is missing. */
export const NO_LIBASS =
  "This FFmpeg was built without libass: captions can be added as a track of their own, not burned into the picture.";

/** What to install for burned-in captions (doctor's line, and the refusal of a burn-in without libass). */
export const LIBASS_HINT = [
  "Install an FFmpeg built with libass:",
  "  Debian/Ubuntu: sudo apt install ffmpeg",
  "  Fedora:        sudo dnf install ffmpeg (RPM Fusion's build)",
  "  macOS:         brew install ffmpeg",
  "  Windows:       winget install Gyan.FFmpeg",
  "or point CLIPCUT_FFMPEG at one; or choose captions as a subtitle track.",
].join("\n");
