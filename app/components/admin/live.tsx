import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { adminFeedMessageSchema, reconnectDelayMs } from "~/domain/realtime";

/** Revalidations at most this often, however many hints arrive: a burst of changes costs one refetch. */
const MIN_GAP_MS = 1000;

/**
 * Admin pages listen to AdminFeed: an "invalidate" hint refetches the loaders of the page (batched), a "settings"
 * message reports the new value. Reconnects with backoff; the data itself always comes from the loaders.
 */
export function useAdminFeed(onSettings?: (data: { extensionId: string }) => void) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const settingsRef = useRef(onSettings);
  settingsRef.current = onSettings;
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    let socket: WebSocket | null = null;
    let stopped = false;
    let attempt = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pending: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const schedule = () => {
      if (pending) return;
      const wait = Math.max(0, last + MIN_GAP_MS - Date.now());
      pending = setTimeout(() => {
        pending = undefined;
        last = Date.now();
        revalidate.current();
      }, wait);
    };
    const connect = () => {
      socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/admin/realtime`);
      socket.addEventListener("open", () => {
        attempt = 0;
        setConnected(true);
      });
      socket.addEventListener("message", (event) => {
        let json: unknown;
        try {
          json = JSON.parse(String(event.data));
        } catch {
          return;
        }
        const parsed = adminFeedMessageSchema.safeParse(json);
        if (!parsed.success) return;
        if (parsed.data.type === "invalidate") schedule();
        else settingsRef.current?.(parsed.data.data);
      });
      socket.addEventListener("close", () => {
        setConnected(false);
        if (stopped) return;
        retry = setTimeout(connect, reconnectDelayMs(attempt++));
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(pending);
      socket?.close(1000, "page closed");
    };
  }, []);
  return connected;
}

/** What the admin layout hands its pages through <Outlet context>. */
export interface AdminOutletContext {
  liveExtensionId: string | null;
}
