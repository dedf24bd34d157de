/**
 * Talks to the ClipCut browser extension from our pages. Chrome and Edge: chrome.runtime.sendMessage to the
 * extension id (it lists our origin in externally_connectable). Firefox: a content script relays window messages.
 * Every call resolves to null when no extension answers: the site works the same without it.
 */
export type ExtensionMessage =
  | { action: "ping" }
  | { action: "setApiKey"; apiKey: string }
  | { action: "clearApiKey" }
  | { action: "userPlanUpdated"; plan: string };

export interface ExtensionReply {
  success: boolean;
  message?: string;
}

interface ChromeRuntime {
  sendMessage(id: string, message: unknown, callback: (reply: unknown) => void): void;
  lastError?: unknown;
}

function chromeRuntime(): ChromeRuntime | null {
  const runtime = (globalThis as { chrome?: { runtime?: Partial<ChromeRuntime> } }).chrome?.runtime;
  return runtime && typeof runtime.sendMessage === "function" ? (runtime as ChromeRuntime) : null;
}

function asReply(value: unknown): ExtensionReply | null {
  if (typeof value !== "object" || value === null || !("success" in value)) return null;
  const { success, message } = value as { success: unknown; message?: unknown };
  return { success: success === true, message: typeof message === "string" ? message : undefined };
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
      if (data?.source === "clipcut-extension" && data.requestId === requestId) finish(asReply(data.reply));
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    window.addEventListener("message", onWindowMessage);
    const runtime = chromeRuntime();
    if (runtime) {
      try {
        runtime.sendMessage(extensionId, message, (reply) => {
          void runtime.lastError; // reading it silences "Unchecked runtime.lastError" when nothing listens
          finish(asReply(reply));
        });
      } catch {
        // No extension with that id: fall through to the timeout.
      }
    }
    window.postMessage({ source: "clipcut-page", requestId, message }, window.location.origin);
  });
}
