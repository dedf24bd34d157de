// Long because: the reader's chunk growth, the guarded client's pinning and its statistics share one connection
// state.
import { open } from "node:fs/promises";
import { concat } from "../bytes";
import { ClipError } from "../errors";
import { pinnedGet, type CheckedHosts } from "./net-guard";
import { guardOf } from "./range-proxy";
import type { InputSpec } from "./source";

/**
 * The in-process copy's reader (docs/decisions/002-cut-strategy.md, "Reading the source"): bounded `Range: bytes=a-b`
 * requests through the guarded, pinned client (private addresses refused, every redirect checked again), the same
 * policy as the range proxy that feeds ffmpeg, without the loopback hop. The first request fetches the head and learns
 * the size from Content-Range (no separate size probe). A read that continues the last one doubles its chunk up to
 * 1 MiB; a seek starts small again, unless the caller said where the clip's bytes are (`expectSpan`), where it starts
 * large. What was fetched is kept (up to a bound) so the plan's metadata walk and the copy do not fetch the same bytes
 * twice.
 */
const HEAD = 64 * 1024;
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;
/** Within the clip's known span: larger requests, and the next ones fetched while the last one is written. */
const SPAN_CHUNK = 2 * 1024 * 1024;
/** Parts of the span in flight at once (their round trips overlap; a slow link pays one, not one per part). */
const AHEAD_PARTS = 3;
const CACHE_BYTES = 48 * 1024 * 1024;

export interface RangeReader {
  size: number;
  /** Bytes [start, end) of the source. */
  read(start: number, end: number): Promise<Uint8Array>;
  /**
   * Bytes [start, end) as views of the pieces they arrived in, never copied: what a writer hands to `writev`. Fresh
   * memory is the dearest part of a copy (a page fault per 4 KiB first touched), so the clip's bytes are not gathered
   * into new buffers on their way to the file.
   */
  pieces(start: number, end: number): Promise<Uint8Array[]>;
  /** The clip's bytes lie in [start, end): reads there start with large chunks. */
  expectSpan(start: number, end: number): void;
  /**
   * Forgets what was read in [start, end) (a copy that wrote those bytes out): memory stays bounded by the parts in
   * flight, whatever the clip's length, and is not read again by this reader's later reads of other bytes.
   */
  release(start: number, end: number): void;
  /** Requests made and bytes received so far, and the most bytes held at once (the trace and the bench). */
  stats(): { requests: number; bytes: number; mostHeld: number };
  /**
   * Leaves what was read (the header: a probe's reads, at most SEED_BYTES) for the next reader of the same source
   * within SEED_TTL_MS, so the cut that follows the in-process probe does not fetch it again.
   */
  share(): void;
  close(): Promise<void>;
}

/**
 * Headers read lately, by source (URL, request headers and guard: the bytes came through that guard for that URL).
 * A probe and its cut run seconds apart; a batch's cuts of one video share the entry.
 */
const seeds = new Map<string, { at: number; size: number; chunks: Chunk[] }>();
const SEED_BYTES = 4 * 1024 * 1024;
const SEED_TTL_MS = 60_000;
const MAX_SEEDS = 8;
const seedKey = (input: InputSpec) => `${guardOf(input).allowPrivate}\n${input.url}\n${JSON.stringify(input.headers)}`;

/** Bytes held from `start` on: one piece of a response as the socket delivered it (never copied). */
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
  // Sorted by start, never overlapping; `order` is the same chunks oldest first (what the bound evicts).
  const chunks: Chunk[] = [];
  const order: Chunk[] = [];
  let cached = 0;
  let mostHeld = 0;
  /** Index of the last chunk starting at or before `at` (-1: none). */
  const before = (at: number) => {
    let lo = 0;
    let hi = chunks.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (chunks[mid]!.start <= at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const find = (at: number) => {
    const c = chunks[before(at)];
    return c && at < c.start + c.bytes.length ? c : undefined;
  };
  /** Where the next held byte after `at` starts (or `limit`). */
  const nextHeld = (at: number, limit: number) => Math.min(limit, chunks[before(at) + 1]?.start ?? limit);
  const keep = (at: number, pieces: Uint8Array[]) => {
    let i = before(at) + 1;
    for (const bytes of pieces) {
      if (bytes.length === 0) continue;
      const c = { start: at, bytes };
      chunks.splice(i++, 0, c);
      order.push(c);
      at += bytes.length;
      cached += bytes.length;
    }
    mostHeld = Math.max(mostHeld, cached);
    // Oldest first out: the plan's walk and the copy move forward through the file.
    while (cached > CACHE_BYTES && order.length > 1) {
      const old = order.shift()!;
      chunks.splice(chunks.indexOf(old), 1);
      cached -= old.bytes.length;
    }
  };

  const now = Date.now();
  for (const [k, v] of seeds) if (now - v.at > SEED_TTL_MS) seeds.delete(k);
  const seed = seeds.get(seedKey(input));
  let size: number;
  let nextByte: number;
  if (seed) {
    // The header a probe of this source read moments ago: no request for it (the chunks are never written to).
    size = seed.size;
    for (const c of seed.chunks) keep(c.start, [c.bytes]);
    nextByte = -1;
  } else {
    const first = await fetchRange(0, HEAD - 1);
    requests++;
    received += first.length;
    size = first.size;
    keep(0, first.pieces);
    nextByte = first.length;
  }
  let chunk = MIN_CHUNK * 2;
  let span: [number, number] | null = null;

  /**
   * The next parts of the span, in flight while the part before them is parsed and written: up to AHEAD_PARTS at once
   * (a round trip each, overlapped), never more than AHEAD_PARTS parts past the last byte read (bounded memory).
   */
  const aheads: { start: number; end: number; done: Promise<void> }[] = [];
  /** Where the last read began: read-ahead stays within AHEAD_PARTS parts of it. */
  let readAt = 0;
  let closed = false;

  const fetchFrom = async (at: number, needEnd: number): Promise<void> => {
    const pending = aheads.find((p) => at >= p.start && at < p.end);
    if (pending) {
      // Already asked for: wait for it (its failure is this read's).
      await pending.done;
      if (find(at)) return readAhead();
    }
    const continues = at === nextByte;
    const inSpan = span !== null && at >= span[0] && at < span[1];
    chunk = inSpan ? SPAN_CHUNK : continues ? Math.min(MAX_CHUNK, chunk * 2) : MIN_CHUNK;
    // The rest of a read is fetched whole; within the clip's span, never far past its end.
    let end = Math.max(needEnd, at + chunk);
    if (span && inSpan) end = Math.max(needEnd, Math.min(end, span[1]));
    end = Math.min(end, size);
    // Do not fetch again what a later chunk already holds, or what is being read ahead.
    end = Math.max(needEnd, nextHeld(at, end));
    for (const p of aheads) if (p.start > at) end = Math.max(needEnd, Math.min(end, p.start));
    const got = await fetchRange(at, end - 1);
    requests++;
    received += got.length;
    if (got.length !== end - at) throw readFailed();
    keep(at, got.pieces);
    if (!aheads.some((p) => p.end > end)) nextByte = end;
    readAhead();
  };

  /** Inside the span, the next parts are asked for as soon as there is room (bounded: AHEAD_PARTS in flight). */
  const readAhead = () => {
    while (span && !closed && aheads.length < AHEAD_PARTS) {
      const at = nextByte;
      if (at < span[0] || at >= span[1] || at > readAt + AHEAD_PARTS * SPAN_CHUNK || find(at)) return;
      if (aheads.some((p) => at >= p.start && at < p.end)) return;
      const end = nextHeld(at, Math.min(span[1], at + SPAN_CHUNK));
      if (end <= at) return;
      const part = { start: at, end, done: Promise.resolve() };
      part.done = (async () => {
        try {
          const got = await fetchRange(at, end - 1);
          requests++;
          received += got.length;
          if (got.length !== end - at) throw readFailed();
          keep(at, got.pieces);
        } finally {
          aheads.splice(aheads.indexOf(part), 1);
        }
      })();
      // Awaited by the read that needs these bytes; unread (the cut stopped), its failure does not matter.
      part.done.catch(() => undefined);
      aheads.push(part);
      nextByte = end;
    }
  };

  const pieces = async (start: number, end: number): Promise<Uint8Array[]> => {
    if (start < 0 || end > size || start >= end) throw readFailed();
    readAt = start;
    const views: Uint8Array[] = [];
    let at = start;
    while (at < end) {
      let c = find(at);
      if (!c) {
        // Up to the next byte already held (or the end of the read).
        await fetchFrom(at, nextHeld(at, end));
        c = find(at);
        if (!c) throw readFailed();
      }
      const from = at - c.start;
      const take = Math.min(end - at, c.bytes.length - from);
      views.push(c.bytes.subarray(from, from + take));
      at += take;
    }
    readAhead();
    return views;
  };

  return {
    size,
    async read(start, end) {
      const views = await pieces(start, end);
      return views.length === 1 ? views[0]! : concat(views);
    },
    pieces,
    expectSpan(start, end) {
      span = [start, end];
    },
    release(start, end) {
      const gone = (c: Chunk) => c.start >= start && c.start + c.bytes.length <= end;
      for (let i = chunks.length - 1; i >= 0; i--) {
        if (gone(chunks[i]!)) {
          cached -= chunks[i]!.bytes.length;
          chunks.splice(i, 1);
        }
      }
      for (let i = order.length - 1; i >= 0; i--) if (gone(order[i]!)) order.splice(i, 1);
    },
    stats: () => ({ requests, bytes: received, mostHeld }),
    share() {
      let total = 0;
      const kept: Chunk[] = [];
      for (const c of chunks) {
        if (total + c.bytes.length > SEED_BYTES) break;
        kept.push(c);
        total += c.bytes.length;
      }
      if (kept.length === 0) return;
      seeds.delete(seedKey(input));
      seeds.set(seedKey(input), { at: Date.now(), size, chunks: kept });
      while (seeds.size > MAX_SEEDS) seeds.delete(seeds.keys().next().value!);
    },
    async close() {
      closed = true;
      closing.abort();
      chunks.length = 0;
      order.length = 0;
      await fetchRange.close?.();
    },
  };
}

export type ReadStats = ReturnType<RangeReader["stats"]>;

/** The readers of one cut together: requests and bytes summed, and the most they could have held at once. */
export function sumStats(readers: readonly RangeReader[]): ReadStats {
  const all = readers.map((r) => r.stats());
  const sum = (k: keyof ReadStats) => all.reduce((s, x) => s + x[k], 0);
  return { requests: sum("requests"), bytes: sum("bytes"), mostHeld: sum("mostHeld") };
}

const readFailed = () => new ClipError("source_unavailable", "The source stopped answering mid-read; try again.", 502);

/** A range's bytes as the pieces they arrived in (`length` in all), and the file's size. */
type Fetched = { pieces: Uint8Array[]; length: number; size: number };
type Fetcher = ((from: number, to: number) => Promise<Fetched>) & {
  close?: () => Promise<void>;
};

/** Reads through the guard: pinned to the checked address, redirects checked again, ranges required. */
function httpFetcher(input: InputSpec, signal: AbortSignal): Fetcher {
  // Each host is looked up and checked once for this reader; its later ranges go to the same address.
  const checked: CheckedHosts = new Map();
  return async (from, to) => {
    const res = await pinnedGet(input.url, {
      ...guardOf(input),
      checked,
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
    // The socket's pieces are kept as they are (no copy into one buffer); a longer answer than asked fails.
    const pieces: Uint8Array[] = [];
    let length = 0;
    for await (const piece of res as AsyncIterable<Buffer>) {
      length += piece.length;
      if (length > to - from + 1) {
        res.destroy();
        throw readFailed();
      }
      pieces.push(piece);
    }
    return { pieces, length, size: Number(total) };
  };
}

async function fileFetcher(path: string): Promise<Fetcher> {
  const handle = await open(path, "r");
  const size = (await handle.stat()).size;
  const fetcher: Fetcher = async (from, to) => {
    const length = Math.max(0, Math.min(to, size - 1) - from + 1);
    const bytes = new Uint8Array(length);
    const { bytesRead } = await handle.read(bytes, 0, length, from);
    return { pieces: [bytes.subarray(0, bytesRead)], length: bytesRead, size };
  };
  fetcher.close = () => handle.close();
  return fetcher;
}
