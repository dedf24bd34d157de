import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ClipError } from "../errors";
import { pinnedGet, type CheckedHosts, type Guard } from "./net-guard";
import type { InputSpec } from "./source";

/**
 * ffmpeg's http reader asks for open-ended ranges ("bytes=N-") and abandons them when it seeks, so a server streams
 * megabytes into socket buffers that are never used. This loopback proxy turns each of ffmpeg's reads into bounded
 * range requests to the origin, fetched only as fast as ffmpeg consumes them: the source is read for what the clip
 * needs, wherever in the file it starts.
 */
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;
const MAX_ANSWER = 1024 * 1024;

export interface RangeProxy {
  input: InputSpec;
  close(): Promise<void>;
}

/**
 * Origin sizes seen lately: a job's probe and its staging read (and every job of a batch) ask the same URL, so the
 * size is fetched once (a round trip to the origin saved per read). Kept as long as the queue keeps a probe.
 */
const knownSizes = new Map<string, { at: number; size: number }>();
const SIZE_TTL_MS = 10 * 60_000;

async function originSize(input: InputSpec): Promise<number> {
  const key = `${guardOf(input).allowPrivate}\n${input.url}\n${JSON.stringify(input.headers)}`;
  const now = Date.now();
  for (const [k, v] of knownSizes) if (now - v.at > SIZE_TTL_MS) knownSizes.delete(k);
  const known = knownSizes.get(key);
  if (known) return known.size;
  const size = await fetchOriginSize(input);
  knownSizes.set(key, { at: now, size });
  return size;
}

/** The guard a proxied input is read with (private addresses refused unless the input says otherwise). */
export const guardOf = (input: InputSpec): Guard => input.guard ?? { allowPrivate: false };

/**
 * The origin's size, from a one-byte range. Fails closed: an origin that does not serve ranges, or that redirects
 * where the guard refuses, is refused here; its URL is never handed to ffmpeg, which would follow it unguarded.
 */
async function fetchOriginSize(input: InputSpec): Promise<number> {
  const res = await pinnedGet(input.url, {
    ...guardOf(input),
    headers: { ...input.headers, Range: "bytes=0-0" },
    signal: AbortSignal.timeout(15_000),
  }).catch((error: unknown) => {
    if (error instanceof ClipError) throw error;
    throw new ClipError("source_unavailable", `Could not reach the source (${input.original}).`, 422);
  });
  res.resume();
  const status = res.statusCode ?? 0;
  const total = /\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1];
  if (status === 206 && total) return Number(total);
  if (status >= 400) {
    throw new ClipError("source_unavailable", `The source answered HTTP ${status} (${input.original}).`, 422);
  }
  throw new ClipError(
    "source_unsupported",
    "The server of this source does not serve parts of the file (byte ranges), which the companion needs to read a clip safely. Download the file and cut it with the CLI (clipcut-companion cut).",
    422,
  );
}

/**
 * Where the last answer ended and how big its chunks had grown: a request that continues it keeps the pace. And the
 * origin's hosts as checked once for this proxy: every later request goes to the same address, without a lookup.
 */
interface ReadState {
  nextByte: number;
  chunk: number;
  checked: CheckedHosts;
}

async function serve(req: IncomingMessage, res: ServerResponse, origin: InputSpec, size: number, state: ReadState) {
  const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "bytes=0-");
  const start = Number(match?.[1] ?? 0);
  // Each answer is capped: bytes handed to the loopback socket sit in kernel buffers (megabytes) that are thrown
  // away when ffmpeg seeks or stops. A short 206 makes ffmpeg come back for the rest (-reconnect), so at most one
  // capped answer is ever read ahead.
  const asked = match?.[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  const end = Math.min(asked, start + MAX_ANSWER - 1);
  if (start >= size || start > end) {
    res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
    return;
  }
  res.writeHead(206, {
    "Content-Type": "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Content-Range": `bytes ${start}-${end}/${size}`,
    "Content-Length": String(end - start + 1),
  });
  if (req.method === "HEAD") return void res.end();
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  let position = start;
  // Sequential reading earns bigger chunks (fewer round trips) across answers; a seek starts small again.
  let chunk = start === state.nextByte ? state.chunk : MIN_CHUNK;
  try {
    while (position <= end && !res.destroyed) {
      const last = Math.min(end, position + chunk - 1);
      // Connected to the address the guard checked (once per host for this proxy, no second DNS answer); a redirect's
      // host is checked too.
      const upstream = await pinnedGet(origin.url, {
        headers: { ...origin.headers, Range: `bytes=${position}-${last}` },
        // A stalled origin must not hold ffmpeg forever.
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]),
        ...guardOf(origin),
        checked: state.checked,
      });
      if (upstream.statusCode !== 206) {
        upstream.resume();
        throw new Error(`origin answered ${upstream.statusCode}`);
      }
      for await (const piece of upstream as AsyncIterable<Buffer>) {
        if (!res.write(piece)) await once(res, "drain");
      }
      position = last + 1;
      chunk = Math.min(MAX_CHUNK, chunk * 2);
      state.nextByte = position;
      state.chunk = chunk;
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/**
 * Starts a proxy for an http input (and its separate audio stream, each with its own headers). Throws when the
 * origin cannot be read through it: no remote URL ever reaches ffmpeg.
 */
export async function startRangeProxy(input: InputSpec): Promise<RangeProxy> {
  if (input.audio) {
    const { audio, ...video } = input;
    const [vs, as] = await Promise.allSettled([startRangeProxy(video), startRangeProxy(audio)]);
    if (vs.status === "rejected" || as.status === "rejected") {
      // The one that started must not stay open.
      for (const s of [vs, as]) if (s.status === "fulfilled") await s.value.close();
      throw vs.status === "rejected" ? vs.reason : (as as PromiseRejectedResult).reason;
    }
    const [v, a] = [vs.value, as.value];
    return {
      input: { ...v.input, audio: a.input },
      close: async () => {
        await Promise.all([v.close(), a.close()]);
      },
    };
  }
  if (input.kind !== "http" || input.viaProxy) return { input, close: async () => undefined };
  const size = await originSize(input);
  const secret = randomBytes(16).toString("hex");
  const state: ReadState = { nextByte: -1, chunk: MIN_CHUNK, checked: new Map() };
  const server = createServer((req, res) => {
    if (req.url !== `/${secret}`) return void res.writeHead(404).end();
    void serve(req, res, input, size, state);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    input: { ...input, url: `http://127.0.0.1:${port}/${secret}`, headers: {}, viaProxy: true },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `fn` with the input behind a range proxy. */
export async function withRangeProxy<T>(input: InputSpec, fn: (input: InputSpec) => Promise<T>): Promise<T> {
  const proxy = await startRangeProxy(input);
  try {
    return await fn(proxy.input);
  } finally {
    await proxy.close();
  }
}
