import { browser } from "wxt/browser";
import { defineBackground } from "wxt/utils/define-background";
import { createHandlers, type Store, type Stored } from "../lib/background-handlers";
import { CompanionClient } from "../lib/companion-client";
import { fetchAccount } from "../lib/site-api";

const EMPTY: Stored = { apiKey: null, pairingToken: null, plan: null };

const store: Store = {
  async get() {
    const values = await browser.storage.local.get(Object.keys(EMPTY));
    return { ...EMPTY, ...(values as Partial<Stored>) };
  },
  async set(patch) {
    const removed = Object.entries(patch)
      .filter(([, value]) => value === null)
      .map(([key]) => key);
    const kept = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null));
    if (removed.length) await browser.storage.local.remove(removed);
    if (Object.keys(kept).length) await browser.storage.local.set(kept);
  },
};

export default defineBackground(() => {
  const handlers = createHandlers({
    store,
    companion: (token) => new CompanionClient(token),
    account: fetchAccount,
    version: browser.runtime.getManifest().version,
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

  // Our popup, the clip panel, and on Firefox the bridge content script on our website.
  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (sender.id !== browser.runtime.id) return false;
    const siteOrigin = sender.tab && sender.url ? new URL(sender.url).origin : undefined;
    handlers.onInternalMessage(message, siteOrigin).then(sendResponse, () =>
      sendResponse({
        ok: false,
        failure: { kind: "other", message: "The extension could not handle this request." },
      }),
    );
    return true;
  });
});
