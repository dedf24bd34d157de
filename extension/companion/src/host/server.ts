import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { ZodType, ZodTypeDef } from "zod";
import {
  batchRequestSchema,
  clipJobRequestSchema,
  sessionRequestSchema,
  type CompanionEvent,
  type HealthResponse,
  type Job,
} from "../../../../app/domain/companion";
import { dryRunRequestSchema } from "../../../../app/domain/true-cut";
import { ApiClient, DEFAULT_API_BASE } from "./api-client";
import { ClipError } from "../errors";
import { checkApiBase } from "../source/net-guard";
import { createHandler } from "./handler";
import { JobQueue, type Session } from "./jobs";
import { SourceCache } from "../source/source-cache";
import {
  checkRequest,
  memoryFirefoxBinding,
  originAllowed,
  type FirefoxBinding,
  type SecurityOptions,
} from "./security";
import type { Tools } from "./tools";
import { VERSION } from "./version";

export interface CompanionServerOptions {
  tools: Tools;
  toolVersions: { ffmpeg: string; ytDlp: string | null };
  outputDir: string;
  pairingToken: string;
  allowedOrigins: ReadonlySet<string>;
  /** The Firefox origin bound at pairing (kept in memory when not given). */
  firefox?: FirefoxBinding;
  apiBaseUrl?: string;
  concurrency?: number;
  fetchImpl?: typeof fetch;
  /** Loopback/private sources and local files (tests, local demos): --allow-private-sources. */
  allowPrivateSources?: boolean;
  /** Shown in /health and added to yt-dlp failures when yt-dlp is old. */
  ytDlpWarning?: string | null;
}

export interface CompanionServer {
  server: Server;
  queue: JobQueue;
  listen(port: number): Promise<number>;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

class HttpError extends ClipError {}

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
    throw new HttpError("unsupported_media_type", "Send the body as application/json.", 415);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError("payload_too_large", "The request body is too large.", 413);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError("invalid_json", "The request body is not valid JSON.", 400);
  }
}

function parse<T>(schema: ZodType<T, ZodTypeDef, unknown>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length ? `${issue.path.join(".")}: ` : "";
    throw new HttpError("invalid_input", `${where}${issue?.message ?? "Invalid request."}`, 422);
  }
  return result.data;
}

/**
 * The companion's HTTP API (see README), the optional transport of `serve`: health, session, jobs, batch, and the
 * WebSocket of job events (the one push channel). Host, Origin and the pairing token are checked here; the requests
 * themselves are answered by handler.ts, as over native messaging.
 */
export function createCompanionServer(options: CompanionServerOptions): CompanionServer {
  let port = 0;
  let session: Session | null = null;
  const apiBase = checkApiBase(options.apiBaseUrl ?? DEFAULT_API_BASE);
  // One cache of resolved sources for the panel's reports and the jobs: the clip reuses its report's yt-dlp answer.
  const sources = new SourceCache(options.tools);
  const queue = new JobQueue({
    sources,
    tools: options.tools,
    outputDir: options.outputDir,
    concurrency: options.concurrency ?? 2,
    session: () => session,
    fetchImpl: options.fetchImpl,
    allowPrivateSources: options.allowPrivateSources ?? false,
    ytDlpWarning: options.ytDlpWarning ?? null,
  });
  const handle = createHandler({
    queue,
    sources,
    tools: options.tools,
    allowPrivateSources: options.allowPrivateSources ?? false,
    apiBase,
    // serve starts only when ffmpeg and ffprobe run (checkTools).
    toolsReady: async () => ({
      ffmpeg: Boolean(options.toolVersions.ffmpeg),
      ytDlpWarning: options.ytDlpWarning ?? null,
    }),
    session: () => session,
  });
  const security: SecurityOptions = {
    port: () => port,
    pairingToken: options.pairingToken,
    allowedOrigins: options.allowedOrigins,
    firefox: options.firefox ?? memoryFirefoxBinding(),
  };
  const broadcast = (event: CompanionEvent) => {
    const text = JSON.stringify(event);
    for (const ws of wss.clients) if (ws.readyState === ws.OPEN) ws.send(text);
  };
  queue.on("event", broadcast);

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  }
  const error = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { error: { code, message } });

  function corsHeaders(req: IncomingMessage, res: ServerResponse) {
    const origin = req.headers.origin;
    // Only ever echo an allowed extension origin; never "*".
    if (origin && originAllowed(origin, security)) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
    }
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    const method = req.method ?? "GET";
    let m: RegExpExecArray | null;

    if (method === "GET" && path === "/health") {
      const body: HealthResponse = {
        name: "clipcut-companion",
        version: VERSION,
        ffmpeg: options.toolVersions.ffmpeg,
        ytDlp: options.toolVersions.ytDlp,
        ytDlpWarning: options.ytDlpWarning ?? null,
        session: session !== null,
        outputDir: options.outputDir,
      };
      return send(res, 200, body);
    }
    if (path === "/session") {
      if (method === "PUT") {
        const body = parse(sessionRequestSchema, await readJson(req));
        const candidate: Session = {
          apiToken: body.apiToken,
          apiBaseUrl: body.apiBaseUrl ? checkApiBase(body.apiBaseUrl) : apiBase,
        };
        // Check the token with the server before keeping it (in memory only).
        const me = await new ApiClient(candidate.apiBaseUrl, candidate.apiToken, options.fetchImpl).me();
        session = candidate;
        return send(res, 200, { user: me.user, credits: me.credits, limits: me.limits });
      }
      if (method === "DELETE") {
        session = null;
        return send(res, 200, { session: false });
      }
    }
    if (path === "/jobs") {
      if (method === "GET") return send(res, 200, await handle({ type: "jobs" }));
      if (method === "POST") {
        const job = parse(clipJobRequestSchema, await readJson(req));
        const { jobs } = (await handle({ type: "submit", jobs: [job], session: null })) as { jobs: Job[] };
        return send(res, 202, { job: jobs[0] });
      }
    }
    if (path === "/batch" && method === "POST") {
      const batch = parse(batchRequestSchema, await readJson(req));
      return send(res, 202, await handle({ type: "submit", jobs: batch.jobs, session: null }));
    }
    if (path === "/dry-run" && method === "POST") {
      // The true-cut report (dry-run.ts): reads the source's packets around the range, spends and writes nothing.
      const request = parse(dryRunRequestSchema, await readJson(req));
      return send(res, 200, await handle({ type: "dryRun", request }));
    }
    if ((m = /^\/jobs\/([0-9a-f-]{36})(\/cancel)?$/.exec(path))) {
      const jobId = m[1] ?? "";
      if (method === "GET" && !m[2]) return send(res, 200, await handle({ type: "job", jobId }));
      if ((method === "POST" && m[2]) || (method === "DELETE" && !m[2]))
        return send(res, 200, await handle({ type: "cancel", jobId }));
    }
    return error(res, 404, "not_found", `No route for ${method} ${path}.`);
  }

  const server = createServer((req, res) => {
    corsHeaders(req, res);
    if (req.method === "OPTIONS") {
      // Preflights carry no credentials: check Host and Origin only, then allow the real request.
      const refusal = checkRequest(req, { ...security, pairingToken: "" }, false);
      if (refusal && refusal.code !== "pairing_required" && refusal.code !== "invalid_pairing_token") {
        return error(res, refusal.status, refusal.code, refusal.message);
      }
      res.writeHead(204, {
        "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type",
        "Access-Control-Allow-Private-Network": "true",
        "Access-Control-Max-Age": "600",
      });
      return void res.end();
    }
    // The token rides in the query only on the WebSocket (browsers cannot set its headers).
    const refusal = checkRequest(req, security, false);
    if (refusal) return error(res, refusal.status, refusal.code, refusal.message);
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.end();
      if (err instanceof ClipError)
        return error(res, err.status >= 400 && err.status < 600 ? err.status : 500, err.code, err.message);
      error(res, 500, "internal", "Something went wrong in the companion.");
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "/").split("?")[0];
    const refusal = path === "/ws" ? checkRequest(req, security, true) : { status: 404, message: "Not Found" };
    if (refusal) {
      socket.end(
        `HTTP/1.1 ${refusal.status} ${refusal.status === 404 ? "Not Found" : "Forbidden"}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      for (const job of queue.list()) ws.send(JSON.stringify({ type: "job", job }));
      ws.on("message", () => undefined); // commands go over HTTP; the socket only pushes events
    });
  });

  return {
    server,
    queue,
    listen: (wanted: number) =>
      new Promise<number>((resolve, reject) => {
        server.once("error", reject);
        // Loopback only: never reachable from the network.
        server.listen(wanted, "127.0.0.1", () => {
          port = (server.address() as AddressInfo).port;
          resolve(port);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        for (const job of queue.list()) queue.cancel(job.id);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
