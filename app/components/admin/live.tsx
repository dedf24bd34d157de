import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { adminFeedMessageSchema, destinationAfterEnd, type AdminFeedMessage } from "~/domain/realtime";
import { connectRealtime, type RealtimeConnection, type RealtimeStatus } from "~/domain/realtime-client";
import { RealtimeFailed } from "~/components/realtime";

/** Revalidations at most this often, however many hints arrive: a burst of changes costs one refetch. */
const MIN_GAP_MS = 1000;

export type AdminFeedStatus = Exclude<RealtimeStatus, "ended">;

/**
 * Admin pages listen to AdminFeed: an "invalidate" hint refetches the loaders of the page (batched), a "settings"
 * message reports the new value. Reconnects with backoff; when the session ended (4001) the page goes to /signin
 * with the "session ended" notice, when admin access ended (4003) to /dashboard; after the retries give up the
 * status is "failed" and `retry` starts over. The data itself always comes from the loaders.
 */
export function useAdminFeed(onSettings?: (data: { extensionId: string }) => void) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const settingsRef = useRef(onSettings);
  settingsRef.current = onSettings;
  const [status, setStatus] = useState<AdminFeedStatus>("connecting");
  // A navigation under way (signing out in this tab) lands where it should: the end is no news to it.
  const navigation = useNavigation();
  const navigating = useRef(false);
  navigating.current = navigation.state !== "idle";
  const connectionRef = useRef<RealtimeConnection | null>(null);

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
      onStatus: (next, closeCode) => {
        if (next !== "ended") return setStatus(next);
        if (!navigating.current)
          window.location.assign(destinationAfterEnd(closeCode, location.pathname + location.search));
      },
      onMessage: (message) => {
        if (message.type === "invalidate") schedule();
        else settingsRef.current?.(message.data);
      },
    });
    connectionRef.current = connection;
    return () => {
      clearTimeout(pending);
      connection.close();
    };
  }, []);
  return { status, retry: () => connectionRef.current?.retry() };
}

/** The admin header's live-updates dot; after the retries gave up, the spec's text (K3) and a retry. */
export function AdminLiveStatus({ status, onRetry }: { status: AdminFeedStatus; onRetry: () => void }) {
  if (status === "failed") return <RealtimeFailed onRetry={onRetry} data-admin-live="failed" />;
  const live = status === "live";
  return (
    <span
      className={`hidden h-2 w-2 rounded-full sm:inline-block ${live ? "bg-emerald-500" : "bg-amber-500"}`}
      title={live ? "Live updates on" : "Connecting live updates"}
      data-admin-live={status}
      aria-hidden="true"
    />
  );
}

/** What the admin layout hands its pages through <Outlet context>. */
export interface AdminOutletContext {
  liveExtensionId: string | null;
}
