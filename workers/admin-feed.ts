import {
  clientMessageSchema,
  CLOSE_CODES,
  REALTIME_VERSION,
  type AdminFeedMessage,
  type SettingsData,
} from "~/domain/realtime";
import { getDb } from "../app/db/client.server";
import type { AdminFeedTopic } from "../app/services/admin-events.server";
import { ADMIN_FEED_NAME } from "../app/services/realtime-control.server";
import { liveSessionRole, socketCredential, type SocketCredential } from "./socket-credential";
import { sessionTag, SocketHub } from "./socket-hub";

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
interface AdminSocket {
  userId: string;
  credential?: SocketCredential;
}

export class AdminFeed extends SocketHub<AdminSocket | null> {
  private pending = new Map<Topic, number>();
  /** A flush is already due: most events then cost no storage call at all. */
  private flushScheduled = false;

  async publish(topic: Topic): Promise<void> {
    this.pending.set(topic, (this.pending.get(topic) ?? 0) + 1);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // A timer, not a storage alarm: getAlarm/setAlarm blocked the isolate, which the Worker and every ledger share
    // (a third of the JS time in the ledger bench's profile). A pending timer keeps the object from hibernating.
    setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** An alarm an earlier version of this object set still flushes. */
  async alarm(): Promise<void> {
    this.flush();
  }

  /** Sends the counted topics as one invalidate hint. */
  flush(): void {
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
    // Tagged with the admin's id and session, so a demotion, a ban or the end of that session closes them.
    const userId = request.headers.get("X-ClipCut-User");
    if (!userId) return new Response("Expected a user", { status: 400 });
    const full = this.socketCapReached(userId);
    if (full) return full;
    const credential = socketCredential(request.headers);
    const tags = [userId, ...(credential ? [sessionTag(credential.id)] : [])];
    return this.acceptSocket({ userId, credential }, tags);
  }

  /** These sessions ended (sign-out, password change, revoked on /account): their admin sockets close. */
  async closeSessions(sessionIds: string[]): Promise<number> {
    return this.closeTagged(sessionIds.map(sessionTag), CLOSE_CODES.accessEnded, "session ended");
  }

  /** Closes the admin sockets of one user (demoted, banned or signed out everywhere). */
  async disconnectUser(userId: string): Promise<number> {
    return this.closeAll(CLOSE_CODES.adminAccessEnded, "admin access ended", userId);
  }

  /**
   * Admin pages only listen; a client may say hello to have its session and role checked again. Every frame
   * spends its socket's budget and its admin's, shared by all that admin's sockets (a reconnect loop does not
   * refill it).
   */
  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    let json: unknown = null;
    try {
      json = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      // a stray frame
    }
    const parsed = clientMessageSchema.safeParse(json);
    const kind = parsed.success ? parsed.data.type : "other";
    const socket = this.attachment(ws);
    if (!this.spendFrame(ws, socket?.userId ?? "", kind) || kind !== "hello") return;
    const role =
      socket?.credential?.type === "session"
        ? await liveSessionRole(getDb(this.env.DB), socket.userId, socket.credential.id)
        : null;
    if (role === null) ws.close(CLOSE_CODES.accessEnded, "access ended");
    else if (role !== "admin") ws.close(CLOSE_CODES.adminAccessEnded, "admin access ended");
  }
}

export { ADMIN_FEED_NAME };
export { publishAdminEvent } from "../app/services/admin-events.server";
