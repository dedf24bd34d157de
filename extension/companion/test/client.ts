import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { DEFAULT_EXTENSION_ID } from "../../../app/domain/extension";
import type { Job } from "../../../app/domain/companion";

export const EXTENSION_ORIGIN = `chrome-extension://${DEFAULT_EXTENSION_ID}`;

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
  text: string;
}

/** Raw HTTP (fetch will not let a test forge Host). Defaults: loopback Host, extension Origin, pairing token. */
export function call(
  port: number,
  token: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string | undefined> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  const defaults: Record<string, string | undefined> = {
    host: `127.0.0.1:${port}`,
    origin: EXTENSION_ORIGIN,
    authorization: `Bearer ${token}`,
    ...(options.body !== undefined || options.rawBody !== undefined ? { "content-type": "application/json" } : {}),
    ...options.headers,
  };
  for (const [k, v] of Object.entries(defaults)) if (v !== undefined) headers[k] = v;
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers, setHost: false }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => {
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          body = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
    });
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

const TERMINAL = new Set(["done", "failed", "cancelled"]);

export async function waitForJob(
  port: number,
  token: string,
  id: string,
  until?: (job: Job) => boolean,
  timeoutMs = 120_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const reply = await call(port, token, "GET", `/jobs/${id}`);
    const job = (reply.body as { job: Job }).job;
    if (until ? until(job) : TERMINAL.has(job.status)) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not finish`);
}
