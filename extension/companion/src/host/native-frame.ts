import { endianness } from "node:os";
import { NATIVE_MAX_REPLY_BYTES, NATIVE_MAX_REQUEST_BYTES } from "../../../../app/domain/native-messaging";

/**
 * Native messaging frames: a 4-byte length in the machine's byte order (little-endian on every machine ClipCut runs
 * on), then that many bytes of UTF-8 JSON.
 */
const LE = endianness() === "LE";

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  const frame = Buffer.allocUnsafe(4 + body.length);
  if (LE) frame.writeUInt32LE(body.length, 0);
  else frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/** Too large to send: the browser would drop the port. */
export function frameTooLarge(frame: Buffer): boolean {
  return frame.length - 4 > NATIVE_MAX_REPLY_BYTES;
}

export type Decoded = { ok: true; value: unknown } | { ok: false; reason: "too_large" | "invalid_json" };

/**
 * Splits the byte stream into frames. Chunks are kept as a list and joined once per frame (joining on every chunk
 * made a 65 MiB read take 50 s). A frame over the limit is skipped without being held in memory.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private skipping = 0;

  constructor(private readonly maxBytes = NATIVE_MAX_REQUEST_BYTES) {}

  push(chunk: Buffer): Decoded[] {
    const out: Decoded[] = [];
    if (this.skipping > 0) {
      const skip = Math.min(this.skipping, chunk.length);
      this.skipping -= skip;
      chunk = chunk.subarray(skip);
    }
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    for (;;) {
      if (this.buffered < 4) return out;
      const head = this.take(4, true);
      const length = LE ? head.readUInt32LE(0) : head.readUInt32BE(0);
      if (length > this.maxBytes) {
        this.take(4);
        const skip = Math.min(length, this.buffered);
        this.take(skip);
        this.skipping = length - skip;
        out.push({ ok: false, reason: "too_large" });
        if (this.skipping > 0) return out;
        continue;
      }
      if (this.buffered < 4 + length) return out;
      this.take(4);
      const body = this.take(length);
      try {
        out.push({ ok: true, value: JSON.parse(body.toString("utf8")) });
      } catch {
        out.push({ ok: false, reason: "invalid_json" });
      }
    }
  }

  /** The first `n` bytes buffered, removed unless `peek`. */
  private take(n: number, peek = false): Buffer {
    const parts: Buffer[] = [];
    let need = n;
    let i = 0;
    let offset = 0;
    while (need > 0) {
      const chunk = this.chunks[i]!;
      const part = chunk.subarray(0, Math.min(need, chunk.length));
      parts.push(part);
      need -= part.length;
      if (part.length === chunk.length) i++;
      else offset = part.length;
    }
    const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts, n);
    if (!peek) {
      this.chunks.splice(0, i);
      if (offset > 0) this.chunks[0] = this.chunks[0]!.subarray(offset);
      this.buffered -= n;
    }
    return joined;
  }
}
