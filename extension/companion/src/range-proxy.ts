import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pinnedGet } from "./net-guard";
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

async function originSize(input: InputSpec): Promise<number | null> {
  const key = `${input.url}\n${JSON.stringify(input.headers)}`;
  const now = Date.now();
  for (const [k, v] of knownSizes) if (now - v.at > SIZE_TTL_MS) knownSizes.delete(k);
  const known = knownSizes.get(key);
  if (known) return known.size;
  const size = await fetchOriginSize(input);
  if (size !== null) knownSizes.set(key, { at: now, size });
  return size;
}

async function fetchOriginSize(input: InputSpec): Promise<number | null> {
  try {
    const res = await pinnedGet(input.url, {
      headers: { ...input.headers, Range: "bytes=0-0" },
      signal: AbortSignal.timeout(15_000),
      allowPrivate: input.allowPrivate ?? false,
    });
    res.resume();
    const total = /\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1];
    return res.statusCode === 206 && total ? Number(total) : null;
  } catch {
    return null;
  }
}

/** Where the last answer ended and how big its chunks had grown: a request that continues it keeps the pace. */
interface ReadState {
  nextByte: number;
  chunk: number;
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
      // Connected to the address the guard checked (no second DNS answer), every redirect checked again.
      const upstream = await pinnedGet(origin.url, {
        headers: { ...origin.headers, Range: `bytes=${position}-${last}` },
        // A stalled origin must not hold ffmpeg forever.
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]),
        allowPrivate: origin.allowPrivate ?? false,
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
 * Starts a proxy for an http input (and its separate audio stream, each with its own headers); returns the input
 * unchanged (no-op close) when the origin cannot do ranges.
 */
export async function startRangeProxy(input: InputSpec): Promise<RangeProxy> {
  if (input.audio) {
    const { audio, ...video } = input;
    const [v, a] = await Promise.all([startRangeProxy(video), startRangeProxy(audio)]);
    return {
      input: { ...v.input, audio: a.input },
      close: async () => {
        await Promise.all([v.close(), a.close()]);
      },
    };
  }
  if (input.kind !== "http" || input.viaProxy) return { input, close: async () => undefined };
  const size = await originSize(input);
  if (size === null) return { input, close: async () => undefined };
  const secret = randomBytes(16).toString("hex");
  const state: ReadState = { nextByte: -1, chunk: MIN_CHUNK };
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
