import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { ClipError } from "../errors";
import { checkPublicHost, pinnedRequest, type Guard } from "./net-guard";

/**
 * yt-dlp opens the page, its API calls and every redirect itself: one check of the page URL before it starts would
 * not hold (it resolves names again and follows redirects anywhere). So it runs with `--proxy` pointing here, a
 * loopback forward proxy that checks each connection with the guard and connects to the address it checked:
 * CONNECT host:port for https, absolute-form requests for plain http. Only the holder of the per-run credentials
 * (yt-dlp, given them in the proxy URL) may use it.
 */
export interface EgressProxy {
  /** `http://user:secret@127.0.0.1:port`, for yt-dlp's --proxy. */
  url: string;
  /** The connections the guard refused (the reason to report when yt-dlp then fails). */
  refusals: ClipError[];
  close(): Promise<void>;
}

/** Headers about one connection, not the message: never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function endToEnd(headers: IncomingMessage["headers"]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

const AUTHORITY = /^(\[[0-9a-f:.]+\]|[^:[\]/@\s]+):(\d{1,5})$/i;

export async function startEgressProxy(guard: Guard): Promise<EgressProxy> {
  const user = "clipcut";
  const secret = randomBytes(16).toString("hex");
  const expected = `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
  const refusals: ClipError[] = [];
  const sockets = new Set<Socket>();
  const authorized = (req: IncomingMessage) => req.headers["proxy-authorization"] === expected;
  const refused = (error: unknown) => {
    const refusal = error instanceof ClipError && error.code === "source_not_allowed";
    if (refusal) refusals.push(error);
    return refusal;
  };

  async function forward(req: IncomingMessage, res: ServerResponse) {
    if (!authorized(req)) {
      res.writeHead(407, { "Proxy-Authenticate": 'Basic realm="clipcut"' }).end();
      return;
    }
    // A proxy request names its target in full; an origin-form request (a browser page that found this port) is not.
    const target = req.url ?? "";
    if (!/^http:\/\//i.test(target)) return void res.writeHead(400).end();
    try {
      const upstream = await pinnedRequest(target, {
        ...guard,
        method: req.method,
        headers: endToEnd(req.headers),
        body: req.method === "GET" || req.method === "HEAD" ? undefined : req,
      });
      res.on("close", () => upstream.destroy());
      upstream.on("error", () => res.destroy());
      // Redirects go back to yt-dlp, whose next request comes through here and is checked again.
      res.writeHead(upstream.statusCode ?? 502, endToEnd(upstream.headers));
      upstream.pipe(res);
    } catch (error) {
      const status = refused(error) ? 403 : 502;
      if (!res.headersSent) res.writeHead(status, { "Content-Type": "text/plain" });
      res.end(error instanceof ClipError ? error.message : "The connection failed.");
    }
  }

  const server = createServer((req, res) => void forward(req, res));
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on("error", () => client.destroy());
    if (!authorized(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="clipcut"\r\n\r\n');
      return;
    }
    const match = AUTHORITY.exec(req.url ?? "");
    const port = Number(match?.[2]);
    if (!match?.[1] || !(port > 0 && port < 65536)) return void client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    checkPublicHost(match[1], guard, req.url).then(
      (address) => {
        const upstream = connect({ host: address.address, port, family: address.family });
        sockets.add(upstream);
        upstream.once("connect", () => {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on("error", () => client.destroy());
        upstream.on("close", () => {
          sockets.delete(upstream);
          client.destroy();
        });
        client.on("close", () => upstream.destroy());
      },
      (error: unknown) => {
        const status = refused(error) ? "403 Forbidden" : "502 Bad Gateway";
        client.end(`HTTP/1.1 ${status}\r\n\r\n`);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${user}:${secret}@127.0.0.1:${port}`,
    refusals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Runs `fn` with a proxy for one yt-dlp run. */
export async function withEgressProxy<T>(guard: Guard, fn: (proxy: EgressProxy) => Promise<T>): Promise<T> {
  const proxy = await startEgressProxy(guard);
  try {
    return await fn(proxy);
  } finally {
    await proxy.close();
  }
}
