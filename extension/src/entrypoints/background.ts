import { browser } from "wxt/browser";
import { defineBackground } from "wxt/utils/define-background";
import { ACCOUNT_PORT, createAccountFeed } from "../lib/account-feed";
import { createHandlers, type Store, type Stored } from "../lib/background-handlers";
import { CompanionClient } from "../lib/companion-client";
import { createCompanionLink } from "../lib/companion-link";
import { COMPANION_URL, SITE_ORIGINS } from "../lib/config";
import { createJobFeed, JOBS_PORT } from "../lib/job-feed";
import { connectAccountSocket } from "../lib/live-account";
import { createNativeCompanion, type NativePort } from "../lib/native-companion";
import { NATIVE_HOST_NAME } from "../../../app/domain/native-messaging";
import { readSecrets, writeSecrets } from "../lib/secret-store";
import { senderOf } from "../lib/sender";
import { fetchAccount, SiteApi } from "../lib/site-api";

/** runtime.getURL for any path (WXT types it for the build's public files only). */
const extensionUrl = (path: string) => (browser.runtime as unknown as { getURL(p: string): string }).getURL(path);

const EMPTY: Stored = { apiKey: null, pairingToken: null, plan: null };
const KEYS = Object.keys(EMPTY);

/** Earlier versions kept the tokens in storage.local, which content scripts can read: move them once. */
async function moveOutOfStorageLocal() {
  const old = await browser.storage.local.get(KEYS);
  if (Object.keys(old).length === 0) return;
  await writeSecrets(old);
  await browser.storage.local.remove(KEYS);
}

const ready = moveOutOfStorageLocal().catch(() => undefined);

const store: Store = {
  async get() {
    await ready;
    return { ...EMPTY, ...((await readSecrets(KEYS)) as Partial<Stored>) };
  },
  async set(patch) {
    await ready;
    await writeSecrets(patch);
  },
};

export default defineBackground(() => {
  // The companion the browser starts: one port while there is work (it keeps this background alive), then closed.
  const native = createNativeCompanion({
    connect: () => browser.runtime.connectNative(NATIVE_HOST_NAME) as unknown as NativePort,
    lastError: () => browser.runtime.lastError?.message,
  });
  // The one choice of companion (native host, else a paired serve), for every handler and the job feed.
  const companion = createCompanionLink({
    native,
    paired: (token) => new CompanionClient(token),
    pairingToken: async () => (await store.get()).pairingToken,
    socketUrl: (token) => `${COMPANION_URL.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`,
  });
  const handlers = createHandlers({
    store,
    companion,
    account: fetchAccount,
    site: (apiKey) => new SiteApi(apiKey),
    version: browser.runtime.getManifest().version,
  });
  const self = { id: browser.runtime.id, base: extensionUrl("/"), siteOrigins: SITE_ORIGINS };

  // First install: open the popup's page in a tab, where the user grants site access (Firefox) and pairs.
  browser.runtime.onInstalled.addListener(({ reason }) => {
    if (reason === "install") void browser.tabs.create({ url: extensionUrl("/popup.html?welcome") });
  });

  // Chrome/Edge: our website, by the origins listed in externally_connectable (checked again here).
  browser.runtime.onMessageExternal?.addListener((message, sender, sendResponse) => {
    const origin = sender.origin ?? (sender.url ? new URL(sender.url).origin : undefined);
    handlers
      .onSiteMessage(message, origin)
      .then(sendResponse, () =>
        sendResponse({ success: false, message: "The extension could not handle this message." }),
      );
    return true;
  });

  // Job progress for the panel and the popup: pushed from the companion's WebSocket, on a port each opens.
  const feed = createJobFeed(companion);
  // The panel's balance and plan: pushed from the site's realtime socket, which only the background opens.
  const account = createAccountFeed({ apiKey: async () => (await store.get()).apiKey, connect: connectAccountSocket });
  browser.runtime.onConnect.addListener((port) => {
    const from = port.sender ? senderOf(port.sender, self) : null;
    if (port.name === JOBS_PORT && (from === "panel" || from === "popup")) return feed.connect(port);
    if (port.name === ACCOUNT_PORT && from === "panel") return account.connect(port);
    port.disconnect();
  });

  // Our popup, the clip panel, and on Firefox the bridge content script on our website.
  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    const from = senderOf(sender, self);
    if (!from) return false;
    const siteOrigin = from === "bridge" && sender.url ? new URL(sender.url).origin : undefined;
    handlers.onInternalMessage(message, { sender: from, siteOrigin }).then(sendResponse, () =>
      sendResponse({
        ok: false,
        failure: { kind: "other", message: "The extension could not handle this request." },
      }),
    );
    return true;
  });
});
