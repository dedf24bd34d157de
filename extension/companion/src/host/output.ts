import { link, lstat, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, isAbsolute } from "node:path";
import { isWindowsDeviceName } from "../../../../app/domain/companion";
import { ClipError } from "../errors";

/** A file name safe on Windows, macOS and Linux, from a clip name or a source title. */
export function sanitizeName(name: string): string {
  const cleaned = name
    .normalize("NFKC")
    // Format characters (bidi overrides, zero-width joiners…) are invisible: "\u202Etxt.exe" shows as "exe.txt".
    .replace(/\p{Cf}+/gu, "")
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x1f<>:"/\\|?*]+/g, " ")
    .replace(/\.{2,}/g, ".")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, "")
    .slice(0, 120);
  if (isWindowsDeviceName(cleaned)) return `_${cleaned}`;
  return cleaned || "clip";
}

function stamp(seconds: number): string {
  const whole = Math.floor(seconds);
  const frac = Math.round((seconds - whole) * 1000);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const base = h > 0 ? `${h}h${pad(m)}m${pad(s)}s` : `${pad(m)}m${pad(s)}s`;
  return frac > 0 ? `${base}${String(frac).padStart(3, "0")}` : base;
}

/** "Title 01m10s-01m30s" */
export function clipBaseName(title: string, start: number, end: number): string {
  return `${sanitizeName(title)} ${stamp(start)}-${stamp(end)}`;
}

/** Resolves `name` inside `dir`, refusing anything that would land outside it. */
export function pathInside(dir: string, name: string): string {
  const root = resolve(dir);
  const target = resolve(root, name);
  const rel = relative(root, target);
  if (!rel || rel.startsWith("..") || isAbsolute(rel) || dirname(target) !== root) {
    throw new ClipError("invalid_output", "The output file must be a plain file name inside the output folder.", 400);
  }
  if (isWindowsDeviceName(basename(target))) {
    throw new ClipError("invalid_output", `"${basename(target)}" is a device name on Windows, not a file name.`, 400);
  }
  return target;
}

/** A reserved output slot: the hidden temp file ffmpeg writes to, moved to its final name only when complete. */
export interface OutputSlot {
  /** The final name this slot will take (another one if that name is taken by the time it commits). */
  path: string;
  partPath: string;
  /** Moves the finished temp file into place under a free name, never replacing a file; updates `path`. */
  commit(): Promise<void>;
  /** Removes the partial file. */
  discard(): Promise<void>;
}

const candidate = (dir: string, base: string, ext: string, i: number) =>
  pathInside(dir, i === 0 ? `${base}.${ext}` : `${base} (${i}).${ext}`);
const partOf = (path: string) => join(dirname(path), `.${basename(path)}.part`);
const unwritable = (dir: string, error: unknown) =>
  new ClipError("output_unwritable", `Cannot write to ${dir}: ${(error as Error).message}`, 500);

/**
 * Links `from` to `to` only if `to` does not exist (a hard link never replaces a file; rename would). File systems
 * without hard links (FAT, exFAT, some shares) claim the name with O_EXCL first: an empty file for a moment there,
 * never for the length of a cut.
 */
async function placeNoReplace(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
    await rm(from, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS" && code !== "EXDEV")
      throw error;
    const handle = await open(to, "wx");
    await handle.close();
    await rename(from, to);
  }
}

/**
 * Reserves "<base>.<ext>", or "<base> (1).<ext>", …: the hidden ".<name>.part" is created with O_EXCL (concurrent
 * jobs never share one), and nothing with the final name exists until the clip is complete. Nothing that exists is
 * ever overwritten.
 */
export async function reserveOutput(dir: string, base: string, ext: string): Promise<OutputSlot> {
  for (let i = 0; i < 1000; i++) {
    const path = candidate(dir, base, ext, i);
    if (await exists(path)) continue;
    const partPath = partOf(path);
    try {
      const handle = await open(partPath, "wx");
      await handle.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw unwritable(dir, error);
    }
    const slot: OutputSlot = {
      path,
      partPath,
      commit: async () => {
        // The name may have been taken meanwhile (another job, the user): take the next free one.
        for (let j = i; j < i + 1000; j++) {
          const target = candidate(dir, base, ext, j);
          if (j > i && (await exists(partOf(target)))) continue; // reserved by a running job
          try {
            await placeNoReplace(partPath, target);
            slot.path = target;
            return;
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw unwritable(dir, error);
          }
        }
        throw new ClipError("output_unwritable", "Too many files with the same name in the output folder.", 500);
      },
      discard: async () => {
        await rm(partPath, { force: true });
      },
    };
    return slot;
  }
  throw new ClipError("output_unwritable", "Too many files with the same name in the output folder.", 500);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
