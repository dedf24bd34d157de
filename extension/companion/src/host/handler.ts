import type { SessionRequest } from "../../../../app/domain/companion";
import { NATIVE_PROTOCOL, type NativeHello, type NativeRequest } from "../../../../app/domain/native-messaging";
import { ClipError } from "../errors";
import { dryRun } from "../source/dry-run";
import { checkApiBase } from "../source/net-guard";
import type { SourceCache } from "../source/source-cache";
import type { JobQueue, Session } from "./jobs";
import { installHint, type Tools } from "./tools";

/**
 * The one request handler: native messaging (native-host.ts) and HTTP (server.ts) parse what arrives into a
 * request of this union and hand it here; they only carry it (frames on stdin/stdout, or routes behind the Host,
 * Origin and pairing checks). The tool check and the submit rules live here once.
 */

type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;
type NativeSubmit = Extract<NativeRequest, { type: "submit" }>;

/**
 * A request from either transport: the native union (app/domain/native-messaging.ts) without its id. A submit over
 * HTTP carries no session: the account paired with the server pays (`session: null`).
 */
export type CompanionRequest =
  | WithoutId<Exclude<NativeRequest, NativeSubmit>>
  | (Omit<NativeSubmit, "id" | "session"> & { session: SessionRequest | null });

export interface HandlerContext {
  queue: JobQueue;
  sources: SourceCache;
  tools: Tools;
  allowPrivateSources: boolean;
  /** The ClipCut API a session without its own base URL talks to. */
  apiBase: string;
  /** Whether ffmpeg and ffprobe run, and yt-dlp's age warning (asked once, at start). */
  toolsReady: () => Promise<{ ffmpeg: boolean; ytDlpWarning: string | null }>;
  /** The session jobs without their own use (the HTTP server's paired account); null when none is connected. */
  session: () => Session | null;
  /** Resolves once the output folder is ready for writing. */
  folderReady?: Promise<unknown>;
  /** The native host's answer to hello (HTTP has /health instead). */
  hello?: () => Promise<NativeHello>;
  log?: (line: string) => void;
}

export type Handler = (request: CompanionRequest) => Promise<unknown>;

export function createHandler(ctx: HandlerContext): Handler {
  async function requireTools() {
    const t = await ctx.toolsReady();
    if (!t.ffmpeg) throw new ClipError("missing_tool", `FFmpeg is not installed.\n${installHint("ffmpeg")}`, 503);
    return t;
  }

  return async function handle(request) {
    switch (request.type) {
      case "hello":
        if (request.protocol > NATIVE_PROTOCOL)
          throw new ClipError(
            "companion_too_old",
            "The ClipCut companion is older than the extension. Update it: npm install -g clipcut-companion@latest, then run clipcut-companion install.",
            426,
          );
        if (!ctx.hello) throw new ClipError("not_found", "No such request.", 404);
        return ctx.hello();
      case "ping":
        return { pong: true };
      case "submit": {
        await requireTools();
        // A job with its own session (native messaging) is paid by that account; otherwise by the paired one. A plan
        // without batch processing is refused by the ledger when a second clip's hold is asked while one is open.
        const own: Session | null = request.session && {
          apiToken: request.session.apiToken,
          apiBaseUrl: request.session.apiBaseUrl ? checkApiBase(request.session.apiBaseUrl) : ctx.apiBase,
        };
        if (!own && !ctx.session())
          throw new ClipError("session_required", "Connect your ClipCut account in the extension first.", 401);
        await ctx.folderReady;
        const jobs = request.jobs.map((job) => ctx.queue.submit(job, own));
        ctx.log?.(`submitted ${jobs.map((j) => j.id.slice(0, 8)).join(", ")}`);
        return { jobs };
      }
      case "jobs":
        return { jobs: ctx.queue.list() };
      case "job": {
        const job = ctx.queue.get(request.jobId);
        if (!job) throw new ClipError("not_found", "No such job.", 404);
        return { job };
      }
      case "cancel":
        return { job: ctx.queue.cancel(request.jobId) };
      case "dryRun": {
        const { ytDlpWarning } = await requireTools();
        const { sources, tools, allowPrivateSources } = ctx;
        return { report: await dryRun(request.request, { sources, tools, allowPrivateSources, ytDlpWarning }) };
      }
    }
  };
}
