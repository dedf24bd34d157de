import { useEffect, useRef } from "react";
import { browser } from "wxt/browser";
import type { CompanionEvent } from "../../../app/domain/companion";
import { JOBS_PORT, type FeedMessage } from "./job-feed";

const RECONNECT_MS = 1000;

/**
 * Follows the companion's job events, pushed by the background on a "jobs" port, while `enabled`. When the feed
 * stops (companion stopped, extension reloaded), `onClosed` runs (to read the jobs once) and the port reconnects.
 */
export function useJobFeed(enabled: boolean, onEvent: (event: CompanionEvent) => void, onClosed: () => void) {
  const handlers = useRef({ onEvent, onClosed });
  handlers.current = { onEvent, onClosed };

  useEffect(() => {
    if (!enabled) return;
    let port: ReturnType<typeof browser.runtime.connect> | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const reconnectLater = () => {
      port?.disconnect();
      port = null;
      handlers.current.onClosed();
      if (!stopped) retry = setTimeout(connect, RECONNECT_MS);
    };
    function connect() {
      try {
        port = browser.runtime.connect({ name: JOBS_PORT });
      } catch {
        return reconnectLater();
      }
      port.onMessage.addListener((message: FeedMessage) => {
        if (message.type === "closed") reconnectLater();
        else handlers.current.onEvent(message);
      });
      port.onDisconnect.addListener(() => {
        if (!stopped && port) reconnectLater();
      });
    }
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      port?.disconnect();
    };
  }, [enabled]);
}
