import { createReadStream, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";

/**
 * A loopback static file server that honours single byte ranges and counts every byte it sends. The counts since a
 * reset (requests, what they asked, bytes) are of the requests that arrived since then: an answer still streaming
 * from before (a probe's request that ffprobe left behind) is not counted against the cut that follows.
 */
export interface RangeServer {
  url: (name: string) => string;
  bytesSent: () => number;
  requests: () => number;
  reset: () => void;
  /** Per request: the file asked for and the headers that came with it (yt-dlp's per-stream http_headers). */
  seen: () => { name: string; headers: Record<string, string | string[] | undefined> }[];
  /** The most requests answered at once since the last reset (from arrival to the end of the answer). */
  mostAtOnce: () => number;
  /** Bytes sent per file name for the requests that arrived since the last reset. */
  bytesFor: (name: string) => number;
  close: () => Promise<void>;
}

/**
 * `delayMs`: a fixed delay before each answer (a simulated slow link: every round trip costs that much).
 * `bytesPerSecond`: one pipe of that rate shared by every answer, as a home connection is shared by all of a
 * client's connections (the bench's realistic link).
 */
export async function startRangeServer(
  root: string,
  o: { delayMs?: number; bytesPerSecond?: number } = {},
): Promise<RangeServer> {
  let sent = 0;
  let requests = 0;
  let seen: { name: string; headers: Record<string, string | string[] | undefined> }[] = [];
  let perFile = new Map<string, number>();
  let atOnce = 0;
  let mostAtOnce = 0;
  /** Bumped by each reset: a request counts only while the epoch it arrived in lasts. */
  let epoch = 0;
  /** When the shared pipe is next free (performance.now() ms): each chunk books its own time on it in turn. */
  let pipeFreeAt = 0;
  const server: Server = createServer((req, res) => {
    atOnce++;
    mostAtOnce = Math.max(mostAtOnce, atOnce);
    res.on("close", () => atOnce--);
    const arrived = epoch;
    if (o.delayMs) return void setTimeout(() => answer(req, res, arrived), o.delayMs);
    answer(req, res, arrived);
  });
  const answer = (req: IncomingMessage, res: ServerResponse, arrived: number) => {
    const counted = () => arrived === epoch;
    if (counted()) requests++;
    const name = normalize(decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/")).replace(/^[/\\]+/, "");
    if (name.includes("..")) return void res.writeHead(400).end();
    if (counted()) seen.push({ name, headers: { ...req.headers } });
    const path = join(root, name);
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return void res.writeHead(404).end();
    }
    const type = path.endsWith(".m4a") ? "audio/mp4" : path.endsWith(".webm") ? "video/webm" : "video/mp4";
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    let start = 0;
    let end = size - 1;
    if (range) {
      start = range[1] ? Number(range[1]) : size - Number(range[2]);
      end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size || start > end) return void res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
      res.writeHead(206, {
        "Content-Type": type,
        "Accept-Ranges": "bytes",
        "Content-Range": `bytes ${start}-${end}/${size}`,
        "Content-Length": String(end - start + 1),
      });
    } else {
      res.writeHead(200, { "Content-Type": type, "Accept-Ranges": "bytes", "Content-Length": String(size) });
    }
    if (req.method === "HEAD") return void res.end();
    const rate = o.bytesPerSecond;
    const stream = createReadStream(path, { start, end, highWaterMark: 64 * 1024 });
    const count = (chunk: Buffer | string) => {
      if (!counted()) return;
      sent += chunk.length;
      perFile.set(name, (perFile.get(name) ?? 0) + chunk.length);
    };
    res.on("close", () => stream.destroy());
    if (!rate) {
      stream.on("data", count);
      return void stream.pipe(res);
    }
    const drained = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done).off("close", done);
          resolve();
        };
        res.on("drain", done).on("close", done);
      });
    void (async () => {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        // A timer that fires late does not lose the pipe's time: only a pipe idle for a while starts again from now.
        const now = performance.now();
        pipeFreeAt = (pipeFreeAt < now - 50 ? now : pipeFreeAt) + (chunk.length / rate) * 1000;
        if (pipeFreeAt > now) await new Promise((resolve) => setTimeout(resolve, pipeFreeAt - now));
        if (res.destroyed) return;
        count(chunk);
        if (!res.write(chunk)) await drained();
      }
      res.end();
    })().catch(() => res.destroy());
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    bytesSent: () => sent,
    requests: () => requests,
    reset: () => {
      epoch++;
      sent = 0;
      requests = 0;
      seen = [];
      perFile = new Map();
      mostAtOnce = atOnce;
    },
    mostAtOnce: () => mostAtOnce,
    seen: () => seen,
    bytesFor: (name) => perFile.get(name) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
