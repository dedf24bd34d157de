import type { AccountMessage } from "./live-account";

/** The port name the panel opens to follow the account's balance and plan. */
export const ACCOUNT_PORT = "account";

/** The part of a runtime Port the feed uses. */
export interface AccountPort {
  postMessage(message: AccountMessage): void;
  onDisconnect: { addListener(listener: () => void): void };
}

/**
 * The account's balance and plan, pushed by the site's realtime socket (/api/v1/realtime) to the open clip panels:
 * one socket in the background, with the token no content script gets, open only while a panel listens. After a
 * clip, the panel learns the new balance here instead of asking /api/v1/me again.
 */
export function createAccountFeed(options: {
  apiKey: () => Promise<string | null>;
  /** Opens the realtime socket for this token; returns the way to close it. */
  connect: (apiKey: string, onMessage: (message: AccountMessage) => void) => () => void;
}) {
  const ports = new Set<AccountPort>();
  let stop: (() => void) | null = null;
  let opening: Promise<void> | null = null;

  async function open() {
    const apiKey = await options.apiKey();
    if (!apiKey || ports.size === 0 || stop) return;
    stop = options.connect(apiKey, (message) => {
      for (const port of ports) port.postMessage(message);
    });
  }

  return {
    connect(port: AccountPort) {
      ports.add(port);
      port.onDisconnect.addListener(() => {
        ports.delete(port);
        if (ports.size > 0) return;
        stop?.();
        stop = null;
      });
      opening ??= open().finally(() => (opening = null));
    },
  };
}
