import type { Job } from "../../../app/domain/companion";
import type { CompanionClient } from "./companion-client";
import {
  nativeTransport,
  pairedTransport,
  type CompanionAnswer,
  type CompanionCall,
  type CompanionRequest,
  type CompanionTransport,
  type PairedOptions,
} from "./companion-transport";
import { FAILURE_TEXT } from "./failures";
import type { FeedMessage } from "./job-feed";
import type { CompanionState, Failure, Result } from "./messages";
import type { NativeCompanion } from "./native-companion";

export interface LinkOptions {
  /** The companion the browser starts (native messaging): the default, no pairing. */
  native: NativeCompanion;
  /** The `serve` companion for a pairing token (the opt-in fallback for sandboxed browsers). */
  paired: (pairingToken: string | null) => CompanionClient;
  pairingToken: () => Promise<string | null>;
  /** The serve's WebSocket for a pairing token. */
  socketUrl: (pairingToken: string) => string;
  open?: PairedOptions["open"];
}

type Choice =
  | { ok: true; transport: CompanionTransport; state: CompanionState }
  | { ok: false; state: CompanionState; failure: Failure };

/**
 * The one place that decides which companion the extension talks to: the browser's native host when it answers;
 * otherwise a paired `serve`; otherwise why there is none, from the browser's own error. It is itself a
 * CompanionTransport: a new clip or report goes to the chosen one, a known job to the companion that runs it, the job
 * list and the events come from both. Built once by the background; the handlers and the job feed only call it.
 */
export function createCompanionLink(options: LinkOptions) {
  const native = nativeTransport(options.native);
  const serve = (token: string, session: boolean) =>
    pairedTransport(options.paired(token), { session, socketUrl: options.socketUrl(token), open: options.open });

  async function choose(): Promise<Choice> {
    const hello = await options.native.connect();
    if (hello.ok) {
      const { version, outputDir, ffmpeg, ffprobe, ytDlp, ytDlpWarning } = hello.value;
      const tools = { ffmpeg, ffprobe, ytDlp, ytDlpWarning };
      return {
        ok: true,
        transport: native,
        state: { state: "paired", via: "native", version, outputDir, session: true, tools },
      };
    }
    const unavailable = { state: "unavailable", kind: hello.failure.kind, message: hello.failure.message } as const;
    if (hello.failure.kind === "outdated") return { ok: false, state: unavailable, failure: hello.failure };
    const token = await options.pairingToken();
    const health = await options.paired(token).health();
    if (health.ok) {
      if (!token)
        return {
          ok: false,
          state: { state: "unpaired" },
          failure: { kind: "unpaired", message: FAILURE_TEXT.unpaired },
        };
      const { version, outputDir, session } = health.value;
      return {
        ok: true,
        transport: serve(token, session),
        state: { state: "paired", via: "serve", version, outputDir, session, tools: null },
      };
    }
    if (health.failure.kind === "unpaired") return { ok: false, state: { state: "unpaired" }, failure: health.failure };
    // Neither answers: the native host's reason says what to do (a serve that is not running is the rarer case).
    return {
      ok: false,
      state: unavailable,
      failure: health.failure.kind === "stopped" ? hello.failure : health.failure,
    };
  }

  /** The companion a job runs on: the native host when it knows the job, else the paired serve. */
  async function owner(jobId: string): Promise<CompanionTransport> {
    if (options.native.known(jobId)) return native;
    return serve((await options.pairingToken()) ?? "", true);
  }

  /** Recent jobs of both companions, oldest first; the serve's failure only when nothing else answers. */
  async function allJobs(): Promise<Result<{ jobs: Job[] }>> {
    const token = await options.pairingToken();
    const served = token ? await serve(token, true).call({ type: "jobs" }) : null;
    const mine = options.native.recent();
    if (served && !served.ok && mine.length === 0) return served;
    const list = [...mine, ...(served?.ok ? served.value.jobs : [])];
    return { ok: true, value: { jobs: list.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) } };
  }

  type AnyAnswer = Promise<Result<CompanionAnswer<CompanionCall>>>;
  async function call(request: CompanionRequest): AnyAnswer {
    switch (request.type) {
      case "jobs":
        return allJobs();
      case "job":
      case "cancel":
        return (await owner(request.jobId)).call(request);
      case "submit":
      case "dryRun": {
        const chosen = await choose();
        return chosen.ok ? chosen.transport.call(request) : { ok: false, failure: chosen.failure };
      }
    }
  }

  /** The native host's events, and with a pairing the serve's; "closed" when the serve's socket closes. */
  function events(listener: (message: FeedMessage) => void): () => void {
    const stops = [native.events(listener)];
    let stopped = false;
    void options.pairingToken().then((token) => {
      if (!stopped && token) stops.push(serve(token, true).events(listener));
    });
    return () => {
      stopped = true;
      for (const stop of stops) stop();
    };
  }

  const link: CompanionTransport & {
    /** The companion's state as the popup and the panel show it (the browser may start the native host to answer). */
    state(): Promise<CompanionState>;
    /** Whether the serve accepts this pairing token (with the texts the popup shows). */
    checkPairing(token: string): Promise<Result<unknown>>;
    /** A paired serve keeps the account's token for its jobs: handed over on sign-in, dropped on sign-out. */
    session(apiKey: string | null, apiBaseUrl: string): Promise<Result<unknown>>;
  } = {
    call: call as CompanionTransport["call"],
    events,
    state: async () => (await choose()).state,
    async checkPairing(token) {
      const health = await options.paired(token).health();
      if (health.ok || health.failure.kind !== "unpaired") return health;
      return {
        ok: false,
        failure: {
          kind: "unpaired",
          message: "The companion did not accept this pairing token. Check it and try again.",
        },
      };
    },
    async session(apiKey, apiBaseUrl) {
      const token = await options.pairingToken();
      if (!token) return { ok: true, value: null };
      const client = options.paired(token);
      return apiKey ? client.setSession(apiKey, apiBaseUrl) : client.clearSession();
    },
  };
  return link;
}

export type CompanionLink = ReturnType<typeof createCompanionLink>;
