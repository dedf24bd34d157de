import type { z } from "zod";
import { companionEventSchema, type Job } from "../../../app/domain/companion";
import type { NativeRequest, nativeReplyValues } from "../../../app/domain/native-messaging";
import type { CompanionClient } from "./companion-client";
import type { FeedMessage } from "./job-feed";
import type { Result } from "./messages";
import type { NativeCompanion } from "./native-companion";

/** What the extension asks a companion: the native protocol's requests (without the port's own hello and ping). */
export type CompanionCall = Exclude<NativeRequest["type"], "hello" | "ping">;
export type CompanionRequest<T extends CompanionCall = CompanionCall> = T extends CompanionCall
  ? Omit<Extract<NativeRequest, { type: T }>, "id">
  : never;
/** Its answer, by request type (the same shapes on both transports). */
export type CompanionAnswer<T extends CompanionCall> = z.infer<(typeof nativeReplyValues)[T]>;

/**
 * A way to reach a companion: a request and its answer, and the job events it pushes ("closed" when they stop).
 * Two implementations below (the native host the browser starts; a paired `serve` over HTTP); the background
 * chooses between them in one place (companion-link.ts), so nothing else asks which one it is talking to.
 */
export interface CompanionTransport {
  call<R extends CompanionRequest>(request: R): Promise<Result<CompanionAnswer<R["type"]>>>;
  /** Follows the companion's job events; returns the way to stop. */
  events(listener: (message: FeedMessage) => void): () => void;
}

type AnyCall = (request: CompanionRequest) => Promise<Result<CompanionAnswer<CompanionCall>>>;
/** The map from request to answer is checked per branch; TypeScript cannot follow it through the generic. */
const typed = (call: AnyCall) => call as CompanionTransport["call"];

/**
 * The native host. A job of a host that has exited meanwhile is answered from its last state (the popup's recent
 * clips), and so is a job the live host no longer answers for.
 */
export function nativeTransport(native: NativeCompanion): CompanionTransport {
  return {
    call: typed(async (request) => {
      if (request.type !== "job") return native.call(request.type, request);
      const known = native.known(request.jobId);
      if (known && !native.isOpen()) return { ok: true, value: { job: known } };
      const fresh = await native.call("job", request);
      if (fresh.ok || !known) return fresh;
      return { ok: true, value: { job: native.known(request.jobId) ?? known } };
    }),
    events: (listener) => native.subscribe(listener),
  };
}

type Socket = Pick<WebSocket, "addEventListener" | "close">;

export interface PairedOptions {
  /** The serve's answer to /health when it was chosen: a submit first hands it the session it lacks. */
  session: boolean;
  /** ws://127.0.0.1:<port>/ws?token=… (WebSockets cannot send an Authorization header). */
  socketUrl: string;
  open?: (url: string) => Socket;
}

/** A paired `serve` on 127.0.0.1: the same requests as REST calls, its events over one WebSocket. */
export function pairedTransport(client: CompanionClient, options: PairedOptions): CompanionTransport {
  const open = options.open ?? ((url: string) => new WebSocket(url));
  const jobs = (answer: Result<Job[]>): Result<{ jobs: Job[] }> =>
    answer.ok ? { ok: true, value: { jobs: answer.value } } : answer;
  const job = (answer: Result<Job>): Result<{ job: Job }> =>
    answer.ok ? { ok: true, value: { job: answer.value } } : answer;
  return {
    call: typed(async (request) => {
      switch (request.type) {
        case "submit": {
          if (!options.session) {
            const session = await client.setSession(request.session.apiToken, request.session.apiBaseUrl);
            if (!session.ok) return session;
          }
          const [first, ...rest] = request.jobs;
          if (!first || rest.length > 0) return jobs(await client.batch(request.jobs));
          const one = await client.submit(first);
          return one.ok ? { ok: true, value: { jobs: [one.value] } } : one;
        }
        case "jobs":
          return jobs(await client.jobs());
        case "job":
          return job(await client.job(request.jobId));
        case "cancel":
          return job(await client.cancel(request.jobId));
        case "dryRun": {
          const report = await client.dryRun(request.request);
          return report.ok ? { ok: true, value: { report: report.value } } : report;
        }
      }
    }),
    events(listener) {
      const ws = open(options.socketUrl);
      let stopped = false;
      ws.addEventListener("message", (event) => {
        let json: unknown;
        try {
          json = JSON.parse(String(event.data));
        } catch {
          return;
        }
        const parsed = companionEventSchema.safeParse(json);
        if (parsed.success && !stopped) listener(parsed.data);
      });
      ws.addEventListener("close", () => !stopped && listener({ type: "closed" }));
      return () => {
        stopped = true;
        ws.close();
      };
    },
  };
}
