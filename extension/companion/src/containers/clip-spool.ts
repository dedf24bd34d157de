import { randomBytes } from "node:crypto";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { RangeReader } from "../source/range-reader";

/**
 * A clip's file written while its source is read, the byte copies' common part (mkv-clip-file.ts,
 * mp4-clip-file.ts; write as you read, bounded memory). It is a hidden `.clipcut-<hex>.part` in the output
 * folder, renamed onto the job's name once complete; a crash leaves a `.part` that cleanStaleParts removes. Bytes
 * are appended as views of what the readers received, gathered into writes of about FLUSH bytes with a few in
 * flight; once a write is issued, each reader forgets what its owner said it may (the write keeps its bytes alive).
 */

/** Bytes gathered before each write, and writes in flight at once (their pieces are held until they are done). */
const FLUSH = 1024 * 1024;
const IN_FLIGHT = 4;

export class ClipSpool {
  /** Where the next appended byte lands. */
  pos: number;
  private pending: Uint8Array[] = [];
  private pendingAt: number;
  private pendingBytes = 0;
  private inFlight: Promise<unknown>[] = [];
  /** Per reader, what it may forget once the bytes appended so far are handed to a write. */
  private forgettable = new Map<RangeReader, number>();
  private closed = false;
  private placed = false;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    /** Where appended bytes start: the head before it is written last. */
    readonly from: number,
  ) {
    this.pos = from;
    this.pendingAt = from;
  }

  static async create(outputDir: string, from: number): Promise<ClipSpool> {
    const path = join(outputDir, `.clipcut-${randomBytes(6).toString("hex")}.part`);
    return new ClipSpool(path, await open(path, "w"), from);
  }

  /** Appends `bytes` (kept by reference until its write is done: never written to afterwards). */
  append(bytes: Uint8Array): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.pos += bytes.length;
  }

  /** `reader` may forget its bytes before `to` once what was appended so far is handed to a write. */
  forget(reader: RangeReader, to: number): void {
    this.forgettable.set(reader, Math.max(this.forgettable.get(reader) ?? 0, to));
  }

  /** Enough is gathered for a write (`flush`): checked before awaiting it, so most appends cost no promise. */
  get full(): boolean {
    return this.pendingBytes >= FLUSH;
  }

  /** Starts over at `from`: what was appended is overwritten by what comes next. */
  async restart(): Promise<void> {
    await this.drain();
    this.pending = [];
    this.pendingBytes = 0;
    this.pos = this.from;
    this.pendingAt = this.from;
  }

  /** Everything appended is written; then `fixes` (bytes at their positions) and the file's final length. */
  async complete(fixes: { bytes: Uint8Array; at: number }[], length: number): Promise<void> {
    await this.flush();
    await this.drain();
    await Promise.all(fixes.map((f) => this.file.write(f.bytes, 0, f.bytes.length, f.at)));
    await this.file.truncate(length);
  }

  /** The complete clip takes the job's name. */
  async place(out: string): Promise<void> {
    await this.close();
    await rename(this.path, out);
    this.placed = true;
  }

  /** Closes the file and removes it unless it was placed (a copy not taken, failed or cancelled). */
  async discard(): Promise<void> {
    await this.close();
    if (!this.placed) await rm(this.path, { force: true });
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.drain().catch(() => undefined);
    await this.file.close();
  }

  /** Issues a write of what is gathered; waits only when too many are in flight. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const write = this.file.writev(this.pending, this.pendingAt);
    this.inFlight.push(write);
    write.catch(() => undefined);
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingAt = this.pos;
    for (const [reader, to] of this.forgettable) reader.release(0, to);
    if (this.inFlight.length >= IN_FLIGHT) await this.inFlight.shift();
  }

  private async drain(): Promise<void> {
    const all = this.inFlight;
    this.inFlight = [];
    await Promise.all(all);
  }
}
