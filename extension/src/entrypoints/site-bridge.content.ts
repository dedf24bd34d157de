import { browser } from "wxt/browser";
import { defineContentScript } from "wxt/utils/define-content-script";
import { EXTENSION_SOURCE, PAGE_SOURCE } from "../../../app/domain/extension-envelope";
import { SITE_ORIGINS } from "../lib/config";

/**
 * Firefox has no externally_connectable: on our own website only, relay the page's messages to the background and
 * post the answers back to the same window. Firefox's match patterns take no port (wxt.config.ts sets them per host),
 * so the script itself checks the full origin: another server on the same host, any other port, gets no bridge.
 */
export default defineContentScript({
  matches: ["http://localhost/*"],
  include: ["firefox"],
  runAt: "document_start",
  main() {
    if (!SITE_ORIGINS.includes(window.location.origin)) return;
    window.addEventListener("message", (event) => {
      if (event.source !== window || event.origin !== window.location.origin) return;
      const data = event.data as { source?: unknown; requestId?: unknown; message?: unknown } | null;
      if (data?.source !== PAGE_SOURCE || typeof data.requestId !== "string") return;
      const requestId = data.requestId;
      void browser.runtime
        .sendMessage({ type: "site", message: data.message })
        .catch(() => ({ success: false, message: "The extension did not answer." }))
        .then((reply: unknown) =>
          window.postMessage({ source: EXTENSION_SOURCE, requestId, reply }, window.location.origin),
        );
    });
  },
});
