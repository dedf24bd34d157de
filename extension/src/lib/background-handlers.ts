import { PAIRING_TOKEN, type ClipJobRequest } from "../../../app/domain/companion";
import { siteMessageSchema, type ExtensionReply } from "../../../app/domain/extension";
import { createAccountMemo } from "./account-memo";
import type { CompanionClient } from "./companion-client";
import { SITE_ORIGIN, SITE_ORIGINS } from "./config";
import { FAILURE_TEXT } from "./failures";
import {
  clipJobSchema,
  parseMessage,
  type ClipJob,
  type CompanionState,
  type Job,
  type MessageType,
  type ParsedMessage,
  type ReplyOf,
  type Result,
  type Sender,
  type AccountStatus,
  type Status,
} from "./messages";
import type { NativeCompanion } from "./native-companion";
import type { fetchAccount, SiteApi } from "./site-api";

/**
 * What the background keeps. The API token is revocable and never the session cookie; the background stores it
 * where no content script can read it (background.ts).
 */
export interface Stored {
  apiKey: string | null;
  pairingToken: string | null;
  plan: string | null;
}

export interface Store {
  get(): Promise<Stored>;
  set(patch: Partial<Stored>): Promise<void>;
}

export interface Deps {
  store: Store;
  /** The paired `serve` companion (opt-in fallback). */
  companion: (pairingToken: string | null) => CompanionClient;
  /** The companion the browser starts (native messaging): the default, no pairing. */
  native: NativeCompanion;
  account: typeof fetchAccount;
  /** The site's API with the extension's token. */
  site: (apiKey: string) => SiteApi;
  version: string;
  /** The clock the remembered account ages by (a test may pass its own). */
  now?: () => number;
}

/** Where a message came from: the sender kind, and for the bridge the page's origin. */
export interface From {
  sender: Sender | null;
  siteOrigin?: string;
}

type Handlers = { [K in MessageType]: (message: ParsedMessage<K>, from: From) => Promise<ReplyOf<K>> };

const refused = (message: string): ExtensionReply => ({ success: false, message });

/** The background's message map, written against injected parts so that a unit test can drive it. */
const SIGNED_OUT = { ok: false, failure: { kind: "signed_out", message: FAILURE_TEXT.signed_out } } as const;

export function createHandlers({ store, companion, native, account, site, version, now }: Deps) {
  const accounts = createAccountMemo(account, now);

  /** Hands the API token to the companion (kept in its memory only) so that it can reserve credits. */
  async function pushSession(client: CompanionClient, apiKey: string) {
    return client.setSession(apiKey, SITE_ORIGIN);
  }

  /**
   * The companion to use: the browser's native host when it answers; otherwise a paired `serve` (the fallback for
   * sandboxed browsers); otherwise why there is none, from the browser's own error.
   */
  async function companionState(pairingToken: string | null): Promise<CompanionState> {
    const hello = await native.connect();
    if (hello.ok) {
      const { version, outputDir, ...tools } = hello.value;
      return {
        state: "paired",
        via: "native",
        version,
        outputDir,
        session: true,
        tools: { ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, ytDlp: tools.ytDlp, ytDlpWarning: tools.ytDlpWarning },
      };
    }
    if (hello.failure.kind !== "outdated") {
      const health = await companion(pairingToken).health();
      if (health.ok)
        return pairingToken
          ? {
              state: "paired",
              via: "serve",
              version: health.value.version,
              outputDir: health.value.outputDir,
              session: health.value.session,
              tools: null,
            }
          : { state: "unpaired" };
      if (health.failure.kind === "unpaired") return { state: "unpaired" };
    }
    return { state: "unavailable", kind: hello.failure.kind, message: hello.failure.message };
  }

  /**
   * Sends clips to the companion: the native host with the account's token on the jobs (no pairing), or else a
   * paired `serve` after checking its session.
   */
  async function startJobs(jobs: ClipJob[]): Promise<Result<Job[]>> {
    const { apiKey, pairingToken } = await store.get();
    if (!apiKey) return SIGNED_OUT;
    const requests: ClipJobRequest[] = jobs.map((job) => ({
      source: job.videoUrl,
      videoUrl: job.videoUrl,
      name: job.name,
      startSeconds: job.startSeconds,
      endSeconds: job.endSeconds,
      format: job.format,
      quality: job.quality,
    }));
    const hello = await native.connect();
    if (hello.ok) {
      const submitted = await native.call("submit", {
        session: { apiToken: apiKey, apiBaseUrl: SITE_ORIGIN },
        jobs: requests,
      });
      return submitted.ok ? { ok: true, value: submitted.value.jobs } : submitted;
    }
    if (hello.failure.kind === "outdated") return hello;
    const client = companion(pairingToken);
    const health = await client.health();
    if (!health.ok) return health.failure.kind === "stopped" ? hello : health;
    if (!pairingToken) return { ok: false, failure: { kind: "unpaired", message: FAILURE_TEXT.unpaired } };
    if (!health.value.session) {
      const session = await pushSession(client, apiKey);
      if (!session.ok) return session;
    }
    if (requests.length === 1 && requests[0]) {
      const one = await client.submit(requests[0]);
      return one.ok ? { ok: true, value: [one.value] } : one;
    }
    return client.batch(requests);
  }

  /** A job of the native host (answered from its last state once the host has exited), or of the paired serve. */
  async function job(id: string): Promise<Result<Job>> {
    const known = native.known(id);
    if (!known) return (await paired()).job(id);
    if (!native.isOpen()) return { ok: true, value: known };
    const fresh = await native.call("job", { jobId: id });
    return fresh.ok ? { ok: true, value: fresh.value.job } : { ok: true, value: native.known(id) ?? known };
  }

  /** Recent jobs of both companions, oldest first. */
  async function allJobs(): Promise<Result<Job[]>> {
    const { pairingToken } = await store.get();
    const served = pairingToken ? await companion(pairingToken).jobs() : null;
    const mine = native.recent();
    const list = [...mine, ...(served?.ok ? served.value : [])];
    if (!served || served.ok || mine.length > 0)
      return { ok: true, value: list.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) };
    return served;
  }

  /** The signed-in account (never the token itself): the remembered one at once, unless `fresh` asks the site now. */
  async function accountStatus(fresh: boolean): Promise<AccountStatus> {
    return accounts.get((await store.get()).apiKey, fresh);
  }

  /** The account and the companion, as the popup shows them. */
  async function status(): Promise<Status> {
    const { pairingToken } = await store.get();
    const [me, state] = await Promise.all([accountStatus(true), companionState(pairingToken)]);
    return { ...me, companion: state };
  }

  /** Messages from our website: externally_connectable on Chrome/Edge, the bridge content script on Firefox. */
  async function onSiteMessage(raw: unknown, origin: string | undefined): Promise<ExtensionReply> {
    if (!origin || !SITE_ORIGINS.includes(origin)) return refused("This site may not send messages to ClipCut.");
    const parsed = siteMessageSchema.safeParse(raw);
    if (!parsed.success) return refused("Unknown or malformed message.");
    const message = parsed.data;
    switch (message.action) {
      case "ping":
        return { success: true, message: `ClipCut extension ${version}` };
      case "setApiKey": {
        await store.set({ apiKey: message.apiKey });
        accounts.forget();
        const { pairingToken } = await store.get();
        if (pairingToken) await pushSession(companion(pairingToken), message.apiKey);
        return { success: true, message: "Signed in." };
      }
      case "clearApiKey": {
        const { pairingToken } = await store.get();
        await store.set({ apiKey: null, plan: null });
        accounts.forget();
        if (pairingToken) await companion(pairingToken).clearSession();
        return { success: true, message: "Signed out." };
      }
      case "userPlanUpdated":
        await store.set({ plan: message.plan });
        return { success: true, message: `Plan is now ${message.plan}.` };
      case "createClip": {
        // The same rule as the panel's clips: the page link must be one the site itself accepts (videoUrlSchema).
        const { action: _action, ...fields } = message;
        const job = clipJobSchema.safeParse(fields);
        if (!job.success) return refused("Unknown or malformed message.");
        const started = await startJobs([job.data]);
        return started.ok
          ? {
              success: true,
              message: `"${job.data.name}" is being cut by the companion. Follow it in the ClipCut extension.`,
            }
          : refused(started.failure.message);
      }
    }
  }

  const paired = async () => companion((await store.get()).pairingToken);
  /** A call to the site's API as the signed-in account; signed out, it says so. */
  const asAccount = async <T>(call: (api: SiteApi) => Promise<Result<T>>): Promise<Result<T>> => {
    const { apiKey } = await store.get();
    return apiKey ? call(site(apiKey)) : SIGNED_OUT;
  };

  /** One handler per message of the map (messages.ts): a missing or unknown one fails to compile. */
  const handlers: Handlers = {
    site: (message, from) => onSiteMessage(message.message, from.siteOrigin),
    status: async () => ({ ok: true, value: await status() }),
    account: async (message) => ({ ok: true, value: await accountStatus(message.fresh ?? false) }),
    companion: async () => ({ ok: true, value: await companionState((await store.get()).pairingToken) }),
    realtimeToken: async () => ({ ok: true, value: (await store.get()).apiKey }),
    pair: async (message) => {
      if (!PAIRING_TOKEN.test(message.token))
        return {
          ok: false,
          failure: {
            kind: "invalid",
            message: "That is not a pairing token. Copy the whole token the companion printed.",
          },
        };
      const client = companion(message.token);
      const health = await client.health();
      if (!health.ok) {
        if (health.failure.kind === "unpaired")
          return {
            ok: false,
            failure: {
              kind: "unpaired",
              message: "The companion did not accept this pairing token. Check it and try again.",
            },
          };
        return health;
      }
      await store.set({ pairingToken: message.token });
      const { apiKey } = await store.get();
      if (apiKey) await pushSession(client, apiKey);
      return { ok: true, value: await status() };
    },
    createJob: (message) => startJobs([message.job]),
    batch: (message) => startJobs(message.jobs),
    job: (message) => job(message.id),
    jobs: () => allJobs(),
    cancelJob: async (message) => {
      if (!native.known(message.id)) return (await paired()).cancel(message.id);
      const cancelled = await native.call("cancel", { jobId: message.id });
      return cancelled.ok ? { ok: true, value: cancelled.value.job } : cancelled;
    },
    dryRun: async ({ ask }) => {
      const { videoUrl, ...range } = ask;
      const request = { source: videoUrl, ...range };
      // The same companion the clip would go to: the native host when it answers, else a paired `serve`.
      if ((await native.connect()).ok) {
        const answered = await native.call("dryRun", { request });
        return answered.ok ? { ok: true, value: answered.value.report } : answered;
      }
      return (await paired()).dryRun(request);
    },
    presets: () => asAccount((api) => api.presets()),
    savePreset: (message) => asAccount((api) => api.savePreset(message.preset)),
    deletePreset: (message) => asAccount((api) => api.deletePreset(message.id)),
  };

  /** Messages from our own popup, clip panel and bridge, each allowed only from the senders the map names. */
  async function onInternalMessage(raw: unknown, from: From): Promise<ReplyOf<MessageType>> {
    const parsed = parseMessage(raw, from.sender);
    if (!parsed.ok) return { ok: false, failure: parsed.failure };
    const message = parsed.message;
    // The map pairs each type with its handler; TypeScript cannot follow that through a union, hence the cast.
    const handler = handlers[message.type] as (m: typeof message, f: From) => Promise<ReplyOf<MessageType>>;
    return handler(message, from);
  }

  return { onSiteMessage, onInternalMessage, status };
}
