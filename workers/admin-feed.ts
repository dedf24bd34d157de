import { CLOSE_CODES, REALTIME_VERSION, type AdminFeedMessage, type SettingsData } from "~/domain/realtime";
import type { AdminFeedTopic } from "../app/services/admin-events.server";
import { ADMIN_FEED_NAME } from "../app/services/realtime-control.server";
import { SocketHub } from "./socket-hub";

type Topic = AdminFeedTopic;
const FLUSH_MS = 500;

/**
 * Fans change events out to admin dashboards. Events are not forwarded one by one: they are counted per topic and
 * flushed at most every 500 ms as one "invalidate" hint, and pages refetch their data. So a burst of 10,000 clip
 * events costs admins a handful of revalidations, and the object's work per event is a counter increment.
 *
 * Sharding, when one object is no longer enough: name N feeds "admin-feed-0".."admin-feed-{N-1}", publish to
 * hash(userId) % N, and let each admin page hold a socket to every shard (N is small: admins are few, events many).
 */
export class AdminFeed extends SocketHub<null> {
  private pending = new Map<Topic, number>();
  /** A flush is already due: most events then cost no storage call at all. */
  private flushScheduled = false;

  async publish(topic: Topic): Promise<void> {
    this.pending.set(topic, (this.pending.get(topic) ?? 0) + 1);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + FLUSH_MS);
  }

  async alarm(): Promise<void> {
    this.flushScheduled = false;
    if (this.pending.size === 0) return;
    const message: AdminFeedMessage = {
      v: REALTIME_VERSION,
      type: "invalidate",
      topics: [...this.pending.keys()],
      events: [...this.pending.values()].reduce((a, b) => a + b, 0),
    };
    this.pending.clear();
    this.sendAll(message);
  }

  /** A settings change goes out at once (it is rare, and pages act on its value). */
  async pushSettings(data: SettingsData): Promise<number> {
    this.sendAll({ v: REALTIME_VERSION, type: "settings", data } satisfies AdminFeedMessage);
    const sockets = this.ctx.getWebSockets();
    return sockets.length;
  }

  /** Admin page sockets, forwarded by the Worker after requireAdmin. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("Expected a WebSocket", { status: 426 });
    // Tagged with the admin's id, so a demoted or banned admin's sockets can be closed.
    const userId = request.headers.get("X-ClipCut-User");
    return this.acceptSocket(null, userId ? [userId] : []);
  }

  /** Closes the admin sockets of one user (demoted, banned or signed out everywhere). */
  async disconnectUser(userId: string): Promise<number> {
    return this.closeAll(CLOSE_CODES.adminAccessEnded, "admin access ended", userId);
  }

  async webSocketMessage(): Promise<void> {
    // Admin pages only listen.
  }
}

export { ADMIN_FEED_NAME };
export { publishAdminEvent } from "../app/services/admin-events.server";
