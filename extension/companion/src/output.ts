import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, isAbsolute } from "node:path";
import { ClipError } from "./errors";

/** A file name safe on Windows, macOS and Linux, from a clip name or a source title. */
export function sanitizeName(name: string): string {
  const cleaned = name
    .normalize("NFKC")
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x1f<>:"/\\|?*]+/g, " ")
    .replace(/\.{2,}/g, ".")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, "")
    .slice(0, 120);
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
  return target;
}

/** A reserved output slot: the final path (held by an empty placeholder) and a temp path ffmpeg writes to. */
export interface OutputSlot {
  path: string;
  partPath: string;
  /** Moves the finished temp file into place. */
  commit(): Promise<void>;
  /** Removes the placeholder and any partial file. */
  discard(): Promise<void>;
}

/**
 * Claims "<base>.<ext>", or "<base> (1).<ext>", … with O_EXCL so concurrent jobs never pick the same name and
 * nothing that exists is ever overwritten.
 */
export async function reserveOutput(dir: string, base: string, ext: string): Promise<OutputSlot> {
  for (let i = 0; i < 1000; i++) {
    const name = i === 0 ? `${base}.${ext}` : `${base} (${i}).${ext}`;
    const path = pathInside(dir, name);
    try {
      const handle = await open(path, "wx");
      await handle.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new ClipError("output_unwritable", `Cannot write to ${dir}: ${(error as Error).message}`, 500);
    }
    const partPath = join(dirname(path), `.${basename(path)}.part`);
    return {
      path,
      partPath,
      commit: () => rename(partPath, path),
      discard: async () => {
        await rm(partPath, { force: true });
        await rm(path, { force: true });
      },
    };
  }
  throw new ClipError("output_unwritable", "Too many files with the same name in the output folder.", 500);
}
