import { DurableObject } from "cloudflare:workers";
import type { AppEnv } from "../app/load-context";
import { FrameBudget, MAX_SOCKETS_PER_USER, POLICY_VIOLATION, type FrameKind } from "./socket-budget";

/** Tags that name what a socket was opened with, so ending that session or token closes exactly its sockets. */
export const sessionTag = (sessionId: string) => `s:${sessionId}`;
export const tokenTag = (tokenHash: string) => `t:${tokenHash}`;

/**
 * The socket lifecycle both Durable Objects share: accept a hibernatable WebSocket with its attachment, send to one
 * or to all, and answer a close. Subclasses say what a socket is for and what closing means to them.
 */
export abstract class SocketHub<Attachment> extends DurableObject<AppEnv> {
  private frames = new FrameBudget();

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

  /** Spends one frame of the socket's budget; beyond it the socket is closed (1008) and false is returned. */
  protected spendFrame(ws: WebSocket, kind: FrameKind): boolean {
    if (this.frames.take(ws, kind)) return true;
    try {
      ws.close(POLICY_VIOLATION, "too many messages");
    } catch {
      // already closed
    }
    return false;
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
