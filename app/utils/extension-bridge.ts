/**
 * Talks to the ClipCut browser extension from our pages. Chrome and Edge: chrome.runtime.sendMessage to the
 * extension id (it lists our origin in externally_connectable). Firefox: a content script relays window messages.
 * Every call resolves to null when no extension answers: the site works the same without it.
 */
import {
  EXTENSION_SOURCE,
  PAGE_SOURCE,
  extensionReplySchema,
  type ExtensionReply,
  type SiteMessage,
} from "~/domain/extension";

export type ExtensionMessage = SiteMessage;
export type { ExtensionReply };

interface ChromeRuntime {
  sendMessage(id: string, message: unknown, callback: (reply: unknown) => void): void;
  lastError?: unknown;
}

function chromeRuntime(): ChromeRuntime | null {
  const runtime = (globalThis as { chrome?: { runtime?: Partial<ChromeRuntime> } }).chrome?.runtime;
  return runtime && typeof runtime.sendMessage === "function" ? (runtime as ChromeRuntime) : null;
}

function asReply(value: unknown): ExtensionReply | null {
  const parsed = extensionReplySchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function sendToExtension(
  extensionId: string,
  message: ExtensionMessage,
  timeoutMs = 1500,
): Promise<ExtensionReply | null> {
  if (typeof window === "undefined") return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (reply: ExtensionReply | null) => {
      if (settled) return;
      settled = true;
      window.removeEventListener("message", onWindowMessage);
      clearTimeout(timer);
      resolve(reply);
    };
    const requestId = crypto.randomUUID();
    const onWindowMessage = (event: MessageEvent) => {
      if (event.source !== window || event.origin !== window.location.origin) return;
      const data = event.data as { source?: unknown; requestId?: unknown; reply?: unknown } | null;
      if (data?.source === EXTENSION_SOURCE && data.requestId === requestId) finish(asReply(data.reply));
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    window.addEventListener("message", onWindowMessage);
    const runtime = chromeRuntime();
    if (runtime) {
      // Chrome/Edge: straight to the extension; the token never travels through window.postMessage.
      try {
        runtime.sendMessage(extensionId, message, (reply) => {
          void runtime.lastError; // reading it silences "Unchecked runtime.lastError" when nothing listens
          finish(asReply(reply));
        });
      } catch {
        // No extension with that id: fall through to the timeout.
      }
      return;
    }
    // Firefox: the extension's content script on our origin relays window messages.
    window.postMessage({ source: PAGE_SOURCE, requestId, message }, window.location.origin);
  });
}
