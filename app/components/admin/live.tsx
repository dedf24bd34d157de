import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { adminFeedMessageSchema, type AdminFeedMessage } from "~/domain/realtime";
import { connectRealtime } from "~/domain/realtime-client";

/** Revalidations at most this often, however many hints arrive: a burst of changes costs one refetch. */
const MIN_GAP_MS = 1000;

/**
 * Admin pages listen to AdminFeed: an "invalidate" hint refetches the loaders of the page (batched), a "settings"
 * message reports the new value. Reconnects with backoff and stops when admin access ended (4003); the data itself
 * always comes from the loaders.
 */
export function useAdminFeed(onSettings?: (data: { extensionId: string }) => void) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const settingsRef = useRef(onSettings);
  settingsRef.current = onSettings;
  const [connected, setConnected] = useState(false);

  useEffect(() => {
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
    const connection = connectRealtime<AdminFeedMessage>({
      url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/admin/realtime`,
      parse: (json) => {
        const parsed = adminFeedMessageSchema.safeParse(json);
        return parsed.success ? parsed.data : null;
      },
      onStatus: (status) => setConnected(status === "live"),
      onMessage: (message) => {
        if (message.type === "invalidate") schedule();
        else settingsRef.current?.(message.data);
      },
    });
    return () => {
      clearTimeout(pending);
      connection.close();
    };
  }, []);
  return connected;
}

/** What the admin layout hands its pages through <Outlet context>. */
export interface AdminOutletContext {
  liveExtensionId: string | null;
}
