import { PAIRING_TOKEN, type ClipJobRequest } from "../../../app/domain/companion";
import { siteMessageSchema, type ExtensionReply } from "../../../app/domain/extension";
import type { CompanionClient } from "./companion-client";
import { SITE_ORIGIN, SITE_ORIGINS } from "./config";
import { FAILURE_TEXT } from "./failures";
import {
  internalMessageSchema,
  type ClipJob,
  type CompanionState,
  type Job,
  type Result,
  type Status,
} from "./messages";
import type { fetchAccount } from "./site-api";

/** What the background keeps in storage.local. The API token is revocable and never the session cookie. */
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
  companion: (pairingToken: string | null) => CompanionClient;
  account: typeof fetchAccount;
  version: string;
}

const refused = (message: string): ExtensionReply => ({ success: false, message });

/** The background's message map, written against injected parts so that a unit test can drive it. */
export function createHandlers({ store, companion, account, version }: Deps) {
  /** Hands the API token to the companion (kept in its memory only) so that it can reserve credits. */
  async function pushSession(client: CompanionClient, apiKey: string) {
    return client.setSession(apiKey, SITE_ORIGIN);
  }

  async function companionState(pairingToken: string | null): Promise<CompanionState> {
    const health = await companion(pairingToken).health();
    if (health.ok)
      return {
        state: "paired",
        version: health.value.version,
        outputDir: health.value.outputDir,
        session: health.value.session,
      };
    return { state: health.failure.kind === "stopped" ? "stopped" : "unpaired" };
  }

  /** Sends clips to the companion after checking that the user is signed in, paired and the session is set. */
  async function startJobs(jobs: ClipJob[]): Promise<Result<Job[]>> {
    const { apiKey, pairingToken } = await store.get();
    if (!apiKey) return { ok: false, failure: { kind: "signed_out", message: FAILURE_TEXT.signed_out } };
    if (!pairingToken) return { ok: false, failure: { kind: "unpaired", message: FAILURE_TEXT.unpaired } };
    const client = companion(pairingToken);
    const health = await client.health();
    if (!health.ok) return health;
    if (!health.value.session) {
      const session = await pushSession(client, apiKey);
      if (!session.ok) return session;
    }
    const requests: ClipJobRequest[] = jobs.map((job) => ({
      source: job.videoUrl,
      videoUrl: job.videoUrl,
      name: job.name,
      startSeconds: job.startSeconds,
      endSeconds: job.endSeconds,
      format: job.format,
      quality: job.quality,
    }));
    if (requests.length === 1 && requests[0]) {
      const one = await client.submit(requests[0]);
      return one.ok ? { ok: true, value: [one.value] } : one;
    }
    return client.batch(requests);
  }

  async function status(): Promise<Status> {
    const { apiKey, pairingToken } = await store.get();
    const [me, state] = await Promise.all([
      apiKey ? account(apiKey).catch(() => null) : Promise.resolve(null),
      companionState(pairingToken),
    ]);
    return { signedIn: me !== null, apiKey: me ? apiKey : null, account: me, companion: state };
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
        const { pairingToken } = await store.get();
        if (pairingToken) await pushSession(companion(pairingToken), message.apiKey);
        return { success: true, message: "Signed in." };
      }
      case "clearApiKey": {
        const { pairingToken } = await store.get();
        await store.set({ apiKey: null, plan: null });
        if (pairingToken) await companion(pairingToken).clearSession();
        return { success: true, message: "Signed out." };
      }
      case "userPlanUpdated":
        await store.set({ plan: message.plan });
        return { success: true, message: `Plan is now ${message.plan}.` };
      case "createClip": {
        const { action: _action, ...job } = message;
        const started = await startJobs([job]);
        return started.ok
          ? {
              success: true,
              message: `"${job.name}" is being cut by the companion. Follow it in the ClipCut extension.`,
            }
          : refused(started.failure.message);
      }
    }
  }

  /** Messages from our own popup, clip panel and bridge. */
  async function onInternalMessage(raw: unknown, siteOrigin: string | undefined): Promise<unknown> {
    const parsed = internalMessageSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, failure: { kind: "invalid", message: "Unknown or malformed message." } };
    const message = parsed.data;
    switch (message.type) {
      case "site":
        return onSiteMessage(message.message, siteOrigin);
      case "status":
        return status();
      case "pair": {
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
      }
      case "createJob":
        return startJobs([message.job]);
      case "batch":
        return startJobs(message.jobs);
      case "job":
        return companion((await store.get()).pairingToken).job(message.id);
      case "jobs":
        return companion((await store.get()).pairingToken).jobs();
      case "cancelJob":
        return companion((await store.get()).pairingToken).cancel(message.id);
      case "presets":
        return companion((await store.get()).pairingToken).presets();
      case "savePreset":
        return companion((await store.get()).pairingToken).savePreset(message.preset);
    }
  }

  return { onSiteMessage, onInternalMessage, status };
}
