import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { startEgressProxy } from "../src/source/egress-proxy";
import { ClipError } from "../src/errors";
import { isPrivateAddress, type Guard, type Resolver } from "../src/source/net-guard";
import { probeMedia } from "../src/source/probe";
import { resolveSource } from "../src/source/source";
import { tools } from "./helpers";
import { startRangeServer, type RangeServer } from "./range-server";
import { fakeYtDlp } from "./ytdlp-fixture";

/**
 * No test can reach the internet or a real LAN, so two loopback addresses play them: 127.0.0.1 is "the internet"
 * (the guard lets it through) and 127.0.0.2 is the user's network, where a victim service (a router's admin page)
 * counts every request it gets. Every attack below must leave it untouched.
 */
const PUBLIC = "127.0.0.1";
const guard: Guard = { allowPrivate: false, isPrivate: (a) => a !== PUBLIC && isPrivateAddress(a) };

interface Recorder {
  server: Server;
  port: number;
  seen: string[];
}

async function listen(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers["user-agent"] ?? ""}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, seen } satisfies Recorder;
}

const close = (r: Recorder) =>
  new Promise<void>((resolve) => {
    r.server.closeAllConnections();
    r.server.close(() => resolve());
  });

/** Serves `body` with single byte ranges (so the range proxy accepts the origin), or whole when `ranges` is off. */
function serveText(res: ServerResponse, req: IncomingMessage, body: string, type: string, ranges = true) {
  const bytes = Buffer.from(body);
  const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
  if (!ranges || !m) return void res.writeHead(200, { "Content-Type": type }).end(bytes);
  const start = Number(m[1]);
  const end = Math.min(m[2] ? Number(m[2]) : bytes.length - 1, bytes.length - 1);
  res
    .writeHead(206, { "Content-Type": type, "Content-Range": `bytes ${start}-${end}/${bytes.length}` })
    .end(bytes.subarray(start, end + 1));
}

let victim: Recorder;
let origin: Recorder;
let media: RangeServer;

beforeAll(async () => {
  victim = await listen("127.0.0.2", (_req, res) => void res.writeHead(200, { "Content-Type": "video/mp4" }).end("ok"));
  media = await startRangeServer(inject("mediaDir"));
  const victimUrl = (path: string) => `http://127.0.0.2:${victim.port}${path}`;
  // An HLS playlist whose one segment is the victim (".ts": ffmpeg 5.1 opens segments with media extensions only).
  const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${victimUrl("/admin/reboot.ts")}\n#EXT-X-ENDLIST\n`;
  // A DASH manifest whose one representation is the victim.
  const manifest =
    `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" ` +
    `profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" mediaPresentationDuration="PT10S" minBufferTime="PT1S">` +
    `<Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="100000">` +
    `<BaseURL>${victimUrl("/admin/dash.mp4")}</BaseURL></Representation></AdaptationSet></Period></MPD>`;
  origin = await listen(PUBLIC, (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/redirect.mp4") return void res.writeHead(302, { Location: victimUrl("/admin/reboot") }).end();
    if (path === "/live.m3u8") return serveText(res, req, playlist, "application/vnd.apple.mpegurl");
    if (path === "/manifest.mpd") return serveText(res, req, manifest, "video/mp4");
    if (path === "/whole.m3u8") return serveText(res, req, playlist, "application/vnd.apple.mpegurl", false);
    if (path === "/watch-redirect") return void res.writeHead(302, { Location: victimUrl("/admin/reboot") }).end();
    if (path === "/sniff") return serveText(res, req, "not really media", "video/mp4");
    if (path === "/watch") return serveText(res, req, "<html>a video page</html>", "text/html", false);
    res.writeHead(404).end();
  });
});

afterAll(async () => {
  await Promise.all([close(victim), close(origin), media.close()]);
});

afterEach(() => {
  // The point of every test here: nothing reached the private network.
  expect(victim.seen.splice(0)).toEqual([]);
});

/** Resolve and probe a source as a job does; the error code, or "read" when the source was read. */
async function read(source: string, t = tools): Promise<string> {
  try {
    const input = await resolveSource(t, source, { guard, height: 360 });
    await probeMedia(t.ffprobe, input);
    return "read";
  } catch (error) {
    return error instanceof ClipError ? error.code : String(error);
  }
}

describe("the SSRF guard fails closed: no remote URL reaches ffmpeg or yt-dlp unchecked", () => {
  it("the stand-ins work: a public file is read", async () => {
    expect(await read(media.url("src360.mp4"))).toBe("read");
  });

  it("a redirecting origin: a 302 to a private address is refused, not handed to ffmpeg to follow", async () => {
    expect(await read(`http://${PUBLIC}:${origin.port}/redirect.mp4`)).toBe("source_not_allowed");
  });

  it("an origin without byte ranges is refused (its URL would otherwise go to ffmpeg)", async () => {
    expect(await read(`http://${PUBLIC}:${origin.port}/whole.m3u8`)).toBe("source_unsupported");
  });

  it("a playlist source: an HLS playlist read through the proxy opens none of its URLs", async () => {
    expect(await read(`http://${PUBLIC}:${origin.port}/live.m3u8`)).toBe("unreadable_source");
    // It was read through the proxy (the playlist itself was fetched), and stopped at the demuxer.
    expect(origin.seen.some((s) => s.startsWith("GET /live.m3u8"))).toBe(true);
  });

  it("a playlist source: a DASH manifest read through the proxy opens none of its URLs", async () => {
    expect(await read(`http://${PUBLIC}:${origin.port}/manifest.mpd`)).toBe("unreadable_source");
    expect(origin.seen.some((s) => s.startsWith("GET /manifest.mpd"))).toBe(true);
  });

  it("a redirecting page: yt-dlp's own requests go through the guard and stop at the private address", async () => {
    const yt = fakeYtDlp({ id: "x", title: "x", duration: 10, fetchPage: true, formats: [] });
    expect(await read(`http://${PUBLIC}:${origin.port}/watch-redirect`, yt.tools)).toBe("source_not_allowed");
    // yt-dlp was started (the page is not media) with the companion's proxy.
    const call = yt.calls().find((c) => c.includes("-J"));
    expect(call?.[call.indexOf("--proxy") + 1]).toMatch(/^http:\/\/clipcut:[0-9a-f]{32}@127\.0\.0\.1:\d+$/);
  });

  it("a page on a public address is still resolved and read through the proxy", async () => {
    const yt = fakeYtDlp({
      id: "x",
      title: "page",
      duration: 150,
      fetchPage: true,
      formats: [
        { format_id: "18", url: media.url("src360.mp4"), ext: "mp4", vcodec: "avc1", acodec: "mp4a", height: 360 },
      ],
    });
    origin.seen.length = 0;
    expect(await read(`http://${PUBLIC}:${origin.port}/watch`, yt.tools)).toBe("read");
    expect(origin.seen.filter((s) => s.startsWith("GET /watch"))).toHaveLength(2); // the sniff, then yt-dlp
  });

  it("the media-type check connects to the address it checked (no second DNS answer)", async () => {
    // *.test names do not resolve on this machine: only the checked answer can make the connection.
    let asked = 0;
    const resolve: Resolver = async () => (asked++, [{ address: PUBLIC, family: 4 }]);
    const url = `http://media.rebind.test:${origin.port}/sniff`;
    const input = await resolveSource(tools, url, { guard: { ...guard, resolve } }).catch((e: unknown) => e);
    // No extension: only the Content-Type answer, fetched from the checked address, says it is media.
    expect(input).toMatchObject({ kind: "http", title: "sniff" });
    expect(asked).toBe(2); // the check of the source, then the sniff's own check and connection
  });
});

describe("the egress proxy yt-dlp runs behind", () => {
  function connectThrough(proxyUrl: string, authority: string, auth = true): Promise<number> {
    const proxy = new URL(proxyUrl);
    const credentials = Buffer.from(`${proxy.username}:${proxy.password}`).toString("base64");
    return new Promise((resolve, reject) => {
      const req = request({
        host: proxy.hostname,
        port: proxy.port,
        method: "CONNECT",
        path: authority,
        headers: auth ? { "Proxy-Authorization": `Basic ${credentials}` } : {},
      });
      req.on("connect", (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on("response", (res) => resolve(res.statusCode ?? 0));
      req.on("error", reject);
      req.end();
    });
  }

  it("tunnels to public addresses only, and only for the holder of its credentials", async () => {
    const proxy = await startEgressProxy(guard);
    try {
      expect(await connectThrough(proxy.url, `${PUBLIC}:${origin.port}`)).toBe(200);
      expect(await connectThrough(proxy.url, `127.0.0.2:${victim.port}`)).toBe(403);
      expect(await connectThrough(proxy.url, `localhost:${victim.port}`)).toBe(403);
      expect(await connectThrough(proxy.url, `LOCALHOST:${victim.port}`)).toBe(403);
      expect(await connectThrough(proxy.url, `${PUBLIC}:${origin.port}`, false)).toBe(407);
      expect(proxy.refusals.map((r) => r.code)).toEqual(Array(3).fill("source_not_allowed"));
    } finally {
      await proxy.close();
    }
  });
});
