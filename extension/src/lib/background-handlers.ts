import { PAIRING_TOKEN, type ClipJobRequest } from "../../../app/domain/companion";
import { siteMessageSchema, type ExtensionReply } from "../../../app/domain/extension";
import { createAccountMemo } from "./account-memo";
import type { CompanionLink } from "./companion-link";
import { SITE_ORIGIN, SITE_ORIGINS } from "./config";
import { FAILURE_TEXT } from "./failures";
import {
  clipJobSchema,
  parseMessage,
  type ClipJob,
  type Job,
  type MessageType,
  type ParsedMessage,
  type ReplyOf,
  type Result,
  type Sender,
  type AccountStatus,
  type Status,
} from "./messages";
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
  /** The companion, native host or paired serve: chosen by the link, never by a handler. */
  companion: CompanionLink;
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

/** The part of a companion's answer a message replies with. */
const pick = <A, B>(answer: Result<A>, part: (value: A) => B): Result<B> =>
  answer.ok ? { ok: true, value: part(answer.value) } : answer;

/** The background's message map, written against injected parts so that a unit test can drive it. */
const SIGNED_OUT = { ok: false, failure: { kind: "signed_out", message: FAILURE_TEXT.signed_out } } as const;

export function createHandlers({ store, companion, account, site, version, now }: Deps) {
  const accounts = createAccountMemo(account, now);

  /** Sends clips to the companion, with the account's token for their credits. */
  async function startJobs(jobs: ClipJob[]): Promise<Result<Job[]>> {
    const { apiKey } = await store.get();
    if (!apiKey) return SIGNED_OUT;
    const requests: ClipJobRequest[] = jobs.map((job) => ({
      source: job.videoUrl,
      videoUrl: job.videoUrl,
      name: job.name,
      startSeconds: job.startSeconds,
      endSeconds: job.endSeconds,
      format: job.format,
      quality: job.quality,
      // The options for short videos, only when asked for: an Original clip's request stays as older companions know it.
      ...(job.aspect !== undefined ? { aspect: job.aspect } : {}),
      ...(job.crop ? { crop: job.crop } : {}),
      ...(job.cropPosition != null ? { cropPosition: job.cropPosition } : {}),
      ...(job.captions ? { captions: job.captions } : {}),
    }));
    const session = { apiToken: apiKey, apiBaseUrl: SITE_ORIGIN };
    const submitted = await companion.call({ type: "submit", session, jobs: requests });
    return submitted.ok ? { ok: true, value: submitted.value.jobs } : submitted;
  }

  /** The signed-in account (never the token itself): the remembered one at once, unless `fresh` asks the site now. */
  async function accountStatus(fresh: boolean): Promise<AccountStatus> {
    return accounts.get((await store.get()).apiKey, fresh);
  }

  /** The account and the companion, as the popup shows them. */
  async function status(): Promise<Status> {
    const [me, state] = await Promise.all([accountStatus(true), companion.state()]);
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
        await companion.session(message.apiKey, SITE_ORIGIN);
        return { success: true, message: "Signed in." };
      }
      case "clearApiKey": {
        await store.set({ apiKey: null, plan: null });
        accounts.forget();
        await companion.session(null, SITE_ORIGIN);
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
    companion: async () => ({ ok: true, value: await companion.state() }),
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
      const accepted = await companion.checkPairing(message.token);
      if (!accepted.ok) return accepted;
      await store.set({ pairingToken: message.token });
      const { apiKey } = await store.get();
      if (apiKey) await companion.session(apiKey, SITE_ORIGIN);
      return { ok: true, value: await status() };
    },
    createJob: (message) => startJobs([message.job]),
    batch: (message) => startJobs(message.jobs),
    job: async (message) => pick(await companion.call({ type: "job", jobId: message.id }), (v) => v.job),
    jobs: async () => pick(await companion.call({ type: "jobs" }), (v) => v.jobs),
    cancelJob: async (message) => pick(await companion.call({ type: "cancel", jobId: message.id }), (v) => v.job),
    dryRun: async ({ ask }) => {
      const { videoUrl, ...range } = ask;
      const answer = await companion.call({ type: "dryRun", request: { source: videoUrl, ...range } });
      return pick(answer, (v) => v.report);
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
