import { DurableObject } from "cloudflare:workers";
import type { AppEnv } from "../app/load-context";
import {
  ACCOUNT_FRAME_BUDGETS,
  FRAME_BUDGETS,
  FrameBuckets,
  MAX_SOCKETS_PER_USER,
  POLICY_VIOLATION,
  type FrameKind,
} from "./socket-budget";

/** Accounts whose budgets one object remembers (the admin feed: admins are few; a user's ledger: one). */
const MAX_ACCOUNTS = 1_000;

/** Tags that name what a socket was opened with, so ending that session or token closes exactly its sockets. */
export const sessionTag = (sessionId: string) => `s:${sessionId}`;
export const tokenTag = (tokenHash: string) => `t:${tokenHash}`;

/**
 * The socket lifecycle both Durable Objects share: accept a hibernatable WebSocket with its attachment, send to one
 * or to all, and answer a close. Subclasses say what a socket is for and what closing means to them.
 */
export abstract class SocketHub<Attachment> extends DurableObject<AppEnv> {
  /**
   * Frame budgets in memory: per socket, and per account across all its sockets, so a new socket starts with the
   * account's budget as its siblings left it. They live as long as the object stays in memory: a loop or a flood
   * keeps it awake; an object that hibernated (no frame for about 10 s) starts full, and that wait is a throttle too.
   */
  private socketFrames = new WeakMap<WebSocket, FrameBuckets>();
  private accountFrames = new Map<string, FrameBuckets>();

  /**
   * Null when `tag` (a user) may open one more socket; otherwise the 429 the upgrade gets. Refusing the newest
   * rather than closing the oldest: eleven tabs must not evict each other in a reconnect loop.
   */
  protected socketCapReached(tag?: string): Response | null {
    if (this.ctx.getWebSockets(tag).length < MAX_SOCKETS_PER_USER) return null;
    return Response.json(
      { error: { code: "rate_limited", message: `At most ${MAX_SOCKETS_PER_USER} live connections per account.` } },
      { status: 429, headers: { "Retry-After": "30", "Cache-Control": "no-store" } },
    );
  }

  /**
   * Spends one frame of the socket's budget, then of its account's (a user, an admin); beyond either the socket is
   * closed (1008: the client retries after 5–10 s) and false is returned. The socket's own budget is checked first,
   * so one runaway socket is closed before it spends what its siblings need.
   */
  protected spendFrame(ws: WebSocket, account: string, kind: FrameKind): boolean {
    if (this.socketBudget(ws).take(kind) && this.accountBudget(account).take(kind)) return true;
    try {
      ws.close(POLICY_VIOLATION, "too many messages");
    } catch {
      // already closed
    }
    return false;
  }

  private socketBudget(ws: WebSocket): FrameBuckets {
    let budget = this.socketFrames.get(ws);
    if (!budget) this.socketFrames.set(ws, (budget = new FrameBuckets(FRAME_BUDGETS)));
    return budget;
  }

  private accountBudget(account: string): FrameBuckets {
    let budget = this.accountFrames.get(account);
    if (!budget) {
      // Bounded: forgetting every account (a fresh budget each) is the worst this allows, and needs 1,000 accounts.
      if (this.accountFrames.size >= MAX_ACCOUNTS) this.accountFrames.clear();
      this.accountFrames.set(account, (budget = new FrameBuckets(ACCOUNT_FRAME_BUDGETS)));
    }
    return budget;
  }

  /** Accepts the server end and answers the upgrade with the client end (and the chosen subprotocol, if any). */
  protected acceptSocket(attachment: Attachment, tags: string[] = [], protocol: string | null = null): Response {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], tags);
    pair[1].serializeAttachment(attachment);
    return new Response(null, {
      status: 101,
      webSocket: pair[0],
      headers: protocol ? { "Sec-WebSocket-Protocol": protocol } : {},
    });
  }

  protected attachment(ws: WebSocket): Attachment {
    return ws.deserializeAttachment() as Attachment;
  }

  /** The socket may have closed while we awaited: a send then is moot, not an error. */
  protected send(ws: WebSocket, message: unknown): void {
    try {
      ws.send(JSON.stringify(message));
    } catch {
      // closing socket: its close handler cleans up
    }
  }

  /** One serialisation, every open socket (optionally those with a tag). */
  protected sendAll(message: unknown, tag?: string): void {
    const text = JSON.stringify(message);
    for (const ws of this.ctx.getWebSockets(tag)) {
      try {
        ws.send(text);
      } catch {
        // closing socket
      }
    }
  }

  /** Closes every socket (optionally those with a tag) with a code the client understands; returns how many. */
  protected closeAll(code: number, reason: string, tag?: string): number {
    const sockets = this.ctx.getWebSockets(tag);
    for (const ws of sockets) {
      try {
        ws.close(code, reason);
      } catch {
        // already closed
      }
    }
    return sockets.length;
  }

  /** Closes the sockets carrying any of these tags (a session or token that ended); returns how many. */
  protected closeTagged(tags: Iterable<string>, code: number, reason: string): number {
    let closed = 0;
    for (const tag of new Set(tags)) closed += this.closeAll(code, reason, tag);
    return closed;
  }

  /** Called after a socket closed, with the sockets still open. */
  protected async onSocketClosed(_ws: WebSocket, _remaining: WebSocket[]): Promise<void> {}

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      // 1005/1006 are reserved (no status / abnormal) and cannot be sent back.
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
    await this.onSocketClosed(
      ws,
      this.ctx.getWebSockets().filter((s) => s !== ws),
    );
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    await this.webSocketClose(ws, 1011);
  }
}
