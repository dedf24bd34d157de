import { useEffect, useRef } from "react";
import { browser } from "wxt/browser";
import type { CompanionEvent } from "../../../app/domain/companion";
import { feedMessageSchema, JOBS_PORT } from "./job-feed";

const RECONNECT_MS = 1000;

/**
 * Follows the companion's job events, pushed by the background on a "jobs" port, while `enabled`. `resync` reads the
 * jobs once: when the port has connected, because events sent before it are not replayed (a clip the API refuses
 * fails within milliseconds of its submission, before the panel's port was open, and the panel then showed
 * "Reserving credits" for good), and when the feed stops (companion stopped, extension reloaded), before the port
 * reconnects.
 */
export function useJobFeed(enabled: boolean, onEvent: (event: CompanionEvent) => void, resync: () => void) {
  const handlers = useRef({ onEvent, resync });
  handlers.current = { onEvent, resync };

  useEffect(() => {
    if (!enabled) return;
    let port: ReturnType<typeof browser.runtime.connect> | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const reconnectLater = () => {
      port?.disconnect();
      port = null;
      handlers.current.resync();
      if (!stopped) retry = setTimeout(connect, RECONNECT_MS);
    };
    function connect() {
      try {
        port = browser.runtime.connect({ name: JOBS_PORT });
      } catch {
        return reconnectLater();
      }
      port.onMessage.addListener((raw: unknown) => {
        const parsed = feedMessageSchema.safeParse(raw);
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.type === "closed") reconnectLater();
        else handlers.current.onEvent(message);
      });
      port.onDisconnect.addListener(() => {
        if (!stopped && port) reconnectLater();
      });
      handlers.current.resync();
    }
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      port?.disconnect();
    };
  }, [enabled]);
}
