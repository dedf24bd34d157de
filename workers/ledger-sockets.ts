import type { Credits } from "../app/domain/api";
import type { RelayedEvent } from "../app/domain/ledger";
import type { StoredPlan, PlanId } from "../app/domain/plans";
import {
  clientMessageSchema,
  CLOSE_CODES,
  REALTIME_VERSION,
  type ServerMessage,
  type SettingsData,
} from "../app/domain/realtime";
import { getDb, type Db } from "../app/db/client.server";
import { publishAdminEvent } from "./admin-feed";
import { LastSeen, setPresence } from "./presence";
import { credentialStillValid, socketCredential, type SocketCredential } from "./socket-credential";
import { sessionTag, SocketHub, tokenTag } from "./socket-hub";
import { TokenChecks } from "./token-checks";

type SocketKind = "page" | "extension";
export interface SocketAttachment {
  kind: SocketKind;
  /** The session (pages) or token (extension) the socket was opened with; re-checked on every hello. */
  credential?: SocketCredential;
}

/** Seq numbers reserved per storage write (decision 004). */
const SEQ_BLOCK = 1000;

/** What a snapshot says, read from the ledger's memory. */
export interface SnapshotData {
  credits: Credits;
  plan: { plan: StoredPlan; pendingPlan: PlanId | null };
  clipCount: number;
}

/**
 * A user's ledger, seen from its sockets (beside `TokenChecks`): which user the object is, the upgrade, hello and
 * ping, the snapshot, presence, the per-user sequence, and closing the sockets of access that ended. The ledger
 * (`workers/user-ledger.ts`) is the queue, the commit and the effect runner; it says what a snapshot holds.
 */
export abstract class LedgerSockets extends SocketHub<SocketAttachment> {
  private seq = 0;
  /** Every seq up to this bound may have been used; storage holds it. */
  private seqReserved = 0;
  protected userId: string | null = null;
  protected readonly tokens = new TokenChecks(() => this.db);
  private readonly lastSeen = new LastSeen();

  /** The snapshot's figures, from the ledger's state (loading it if needed). */
  protected abstract snapshotData(userId: string): Promise<SnapshotData>;

  protected get db(): Db {
    return getDb(this.env.DB);
  }

  /** Which user this object is and the seq bound, from storage (run inside the constructor's blockConcurrencyWhile). */
  protected async restore(): Promise<void> {
    // Continue after the stored bound: no seq used before a restart is ever used again (clients see a gap: resync).
    this.seq = (await this.ctx.storage.get<number>("seq")) ?? 0;
    this.seqReserved = this.seq;
    this.userId = (await this.ctx.storage.get<string>("userId")) ?? null;
  }

  protected async bind(userId: string): Promise<void> {
    if (this.userId === userId) return;
    if (this.userId !== null) throw new Error("UserLedger called for another user");
    this.userId = userId;
    await this.ctx.storage.put("userId", userId);
  }

  /** Every change message goes out here: the next seq, one serialisation, every socket. */
  protected publish(event: RelayedEvent | { type: "settings"; data: SettingsData }): void {
    this.seq += 1;
    if (this.seq > this.seqReserved) {
      // Storage holds a bound, not each seq: a write per message made every answer wait for it (the output gate).
      this.seqReserved = this.seq + SEQ_BLOCK;
      void this.ctx.storage.put("seq", this.seqReserved);
    }
    this.sendAll({ v: REALTIME_VERSION, seq: this.seq, ...event } satisfies ServerMessage);
  }

  /** Published only when someone listens (no seq spent on an empty room); returns how many sockets got it. */
  protected publishIfWatched(event: RelayedEvent | { type: "settings"; data: SettingsData }): number {
    const sockets = this.ctx.getWebSockets().length;
    if (sockets > 0) this.publish(event);
    return sockets;
  }

  /** An admin changed a setting every page uses: pass it to this user's open pages. Returns how many got it. */
  pushSettings(data: SettingsData): number {
    return this.publishIfWatched({ type: "settings", data });
  }

  /** WebSocket upgrade, forwarded by the Worker after it authenticated the user (X-ClipCut-User). */
  async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get("X-ClipCut-User");
    const kind: SocketKind = request.headers.get("X-ClipCut-Socket") === "extension" ? "extension" : "page";
    if (!userId || request.headers.get("Upgrade") !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    await this.bind(userId);
    const full = this.socketCapReached();
    if (full) return full;
    const credential = socketCredential(request.headers);
    const tags = [
      kind,
      ...(credential ? [credential.type === "session" ? sessionTag(credential.id) : tokenTag(credential.id)] : []),
    ];
    const response = this.acceptSocket({ kind, credential }, tags, request.headers.get("X-ClipCut-Protocol"));
    await this.presence(userId, true);
    return response;
  }

  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    const userId = this.userId;
    let json: unknown = null;
    try {
      json = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      // handled below as invalid
    }
    const parsed = clientMessageSchema.safeParse(json);
    // One budget for all of this user's sockets (this object is the user's): reconnecting does not refill it.
    if (!this.spendFrame(ws, userId ?? "", parsed.success ? parsed.data.type : "other")) return;
    if (!parsed.success || !userId) {
      this.send(ws, { v: REALTIME_VERSION, type: "error", message: "Unrecognised message." } satisfies ServerMessage);
      return;
    }
    if (parsed.data.type === "ping") {
      await this.lastSeen.touch(this.db, userId);
      this.send(ws, { v: REALTIME_VERSION, type: "pong", seq: this.seq } satisfies ServerMessage);
      return;
    }
    // hello: the session or token the socket was opened with must still be valid (it may have ended meanwhile).
    const { credential } = this.attachment(ws);
    if (!credential || !(await credentialStillValid(this.db, userId, credential))) {
      ws.close(CLOSE_CODES.accessEnded, "access ended");
      return;
    }
    // Always answer with a snapshot; it is cheap (from memory) and makes any missed sequence moot.
    const data = await this.snapshotData(userId);
    this.send(ws, { v: REALTIME_VERSION, type: "snapshot", seq: this.seq, data } satisfies ServerMessage);
  }

  protected async onSocketClosed(_ws: WebSocket, remaining: WebSocket[]): Promise<void> {
    if (this.userId && remaining.length === 0) await this.presence(this.userId, false);
  }

  private async presence(userId: string, online: boolean): Promise<void> {
    if (await setPresence(this.db, userId, online)) this.ctx.waitUntil(publishAdminEvent(this.env, "users"));
  }

  /**
   * Some sessions or tokens of this user ended (sign-out, a session ended on /account, a password change): their
   * sockets close with "do not reconnect", and every token is read again on its next use. Returns how many closed.
   */
  closeRevoked(input: { sessionIds: string[]; tokenHashes: string[]; reason: string }): number {
    this.tokens.forget();
    return this.closeTagged(
      [...input.sessionIds.map(sessionTag), ...input.tokenHashes.map(tokenTag)],
      CLOSE_CODES.accessEnded,
      input.reason,
    );
  }

  /** Access ended (a ban, a sign-out everywhere): every socket closes with "do not reconnect"; tokens are re-read. */
  protected endAccess(reason: string): void {
    this.closeAll(CLOSE_CODES.accessEnded, reason);
    this.tokens.forget();
  }

  /**
   * Access ended outside the ledger (sign-out everywhere, a revoked session): close every socket and forget the
   * token checks. A ban goes through `setBanned`, which does this after its commit.
   */
  async disconnect(reason = "signed out"): Promise<number> {
    const closed = this.ctx.getWebSockets().length;
    this.endAccess(reason);
    if (this.userId) await this.presence(this.userId, false);
    return closed;
  }

  /** Tokens were revoked in D1: every token is read again on its next use. */
  forgetTokens(): void {
    this.tokens.forget();
  }
}
