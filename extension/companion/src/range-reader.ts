import { open } from "node:fs/promises";
import { ClipError } from "./errors";
import { pinnedGet } from "./net-guard";
import { guardOf } from "./range-proxy";
import type { InputSpec } from "./source";

/**
 * The in-process copy's reader (docs/decisions/002, 11): bounded `Range: bytes=a-b` requests through the guarded,
 * pinned client (private addresses refused, every redirect checked again), the same policy as the range proxy that
 * feeds ffmpeg, without the loopback hop. The first request fetches the head and learns the size from Content-Range
 * (no separate size probe). A read that continues the last one doubles its chunk up to 1 MiB; a seek starts small
 * again, unless the caller said where the clip's bytes are (`expectSpan`), where it starts large. What was fetched
 * is kept (up to a bound) so the plan's metadata walk and the copy do not fetch the same bytes twice.
 */
const HEAD = 64 * 1024;
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;
const CACHE_BYTES = 48 * 1024 * 1024;

export interface RangeReader {
  size: number;
  /** Bytes [start, end) of the source. */
  read(start: number, end: number): Promise<Uint8Array>;
  /** The clip's bytes lie in [start, end): reads there start with large chunks. */
  expectSpan(start: number, end: number): void;
  /** Requests made and bytes received so far (the trace and the bench). */
  stats(): { requests: number; bytes: number };
  close(): Promise<void>;
}

interface Chunk {
  start: number;
  bytes: Uint8Array;
}

export async function openRangeReader(input: InputSpec, signal?: AbortSignal): Promise<RangeReader> {
  const closing = new AbortController();
  const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
  let requests = 0;
  let received = 0;
  const fetchRange =
    input.kind === "file" ? await fileFetcher(input.url.replace(/^file:/, "")) : httpFetcher(input, stop);
  const first = await fetchRange(0, HEAD - 1);
  requests++;
  received += first.bytes.length;
  const size = first.size;
  const chunks: Chunk[] = [{ start: 0, bytes: first.bytes }];
  let cached = first.bytes.length;
  let nextByte = first.bytes.length;
  let chunk = MIN_CHUNK * 2;
  let span: [number, number] | null = null;

  const find = (at: number) => chunks.find((c) => c.start <= at && at < c.start + c.bytes.length);
  const fetchFrom = async (at: number, needEnd: number): Promise<void> => {
    const continues = at === nextByte;
    const inSpan = span !== null && at >= span[0] && at < span[1];
    chunk = continues ? Math.min(MAX_CHUNK, chunk * 2) : inSpan ? MAX_CHUNK : MIN_CHUNK;
    // The rest of a read is fetched whole; within the clip's span, never far past its end.
    let end = Math.max(needEnd, at + chunk);
    if (span && inSpan) end = Math.max(needEnd, Math.min(end, span[1]));
    end = Math.min(end, size);
    // Do not fetch again what a later chunk already holds.
    const after = chunks.filter((c) => c.start > at).reduce((m, c) => Math.min(m, c.start), size);
    end = Math.max(needEnd, Math.min(end, after));
    const got = await fetchRange(at, end - 1);
    requests++;
    received += got.bytes.length;
    if (got.bytes.length !== end - at) throw readFailed();
    chunks.push({ start: at, bytes: got.bytes });
    cached += got.bytes.length;
    nextByte = end;
    // Oldest first out: the plan's walk and the copy move forward through the file.
    while (cached > CACHE_BYTES && chunks.length > 1) cached -= chunks.shift()!.bytes.length;
  };

  return {
    size,
    async read(start, end) {
      if (start < 0 || end > size || start >= end) throw readFailed();
      const out = new Uint8Array(end - start);
      let at = start;
      while (at < end) {
        let c = find(at);
        if (!c) {
          // Up to the next byte already held (or the end of the read).
          const held = chunks.filter((x) => x.start > at && x.start < end).reduce((m, x) => Math.min(m, x.start), end);
          await fetchFrom(at, held);
          c = find(at);
          if (!c) throw readFailed();
        }
        const from = at - c.start;
        const take = Math.min(end - at, c.bytes.length - from);
        out.set(c.bytes.subarray(from, from + take), at - start);
        at += take;
      }
      return out;
    },
    expectSpan(start, end) {
      span = [start, end];
    },
    stats: () => ({ requests, bytes: received }),
    async close() {
      closing.abort();
      chunks.length = 0;
      await fetchRange.close?.();
    },
  };
}

const readFailed = () => new ClipError("source_unavailable", "The source stopped answering mid-read; try again.", 502);

type Fetcher = ((from: number, to: number) => Promise<{ bytes: Uint8Array; size: number }>) & {
  close?: () => Promise<void>;
};

/** Reads through the guard: pinned to the checked address, redirects checked again, ranges required. */
function httpFetcher(input: InputSpec, signal: AbortSignal): Fetcher {
  return async (from, to) => {
    const res = await pinnedGet(input.url, {
      ...guardOf(input),
      headers: { ...input.headers, Range: `bytes=${from}-${to}` },
      signal: AbortSignal.any([signal, AbortSignal.timeout(60_000)]),
    }).catch((error: unknown) => {
      if (error instanceof ClipError) throw error;
      if (signal.aborted) throw error;
      throw new ClipError("source_unavailable", `Could not reach the source (${input.original}).`, 422);
    });
    const status = res.statusCode ?? 0;
    const total = /\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1];
    if (status !== 206 || !total) {
      res.destroy();
      if (status >= 400)
        throw new ClipError("source_unavailable", `The source answered HTTP ${status} (${input.original}).`, 422);
      throw new ClipError(
        "source_unsupported",
        "The server of this source does not serve parts of the file (byte ranges), which the companion needs to read a clip safely. Download the file and cut it with the CLI (clipcut-companion cut).",
        422,
      );
    }
    const parts: Buffer[] = [];
    for await (const piece of res as AsyncIterable<Buffer>) parts.push(piece);
    const bytes = Buffer.concat(parts);
    return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), size: Number(total) };
  };
}

async function fileFetcher(path: string): Promise<Fetcher> {
  const handle = await open(path, "r");
  const size = (await handle.stat()).size;
  const fetcher: Fetcher = async (from, to) => {
    const length = Math.max(0, Math.min(to, size - 1) - from + 1);
    const bytes = new Uint8Array(length);
    const { bytesRead } = await handle.read(bytes, 0, length, from);
    return { bytes: bytes.subarray(0, bytesRead), size };
  };
  fetcher.close = () => handle.close();
  return fetcher;
}
