/**
 * The one realtime client, for the site's pages, the admin pages and the extension: reconnect with backoff and
 * jitter (5–10 s after an over-budget close, 1008), `hello` with the last seq, resync on a gap, heartbeat, and stop
 * for good on a final close (4001/4003, "ended") or after MAX_RECONNECT_ATTEMPTS tries in a row that never opened
 * ("failed"; `retry()` starts over).
 * The socket comes from a factory (the browser's WebSocket by default), so the protocol logic has no I/O of its
 * own and is tested with a fake socket.
 */
import {
  HEARTBEAT_MS,
  isFinalClose,
  MAX_RECONNECT_ATTEMPTS,
  overBudgetDelayMs,
  POLICY_VIOLATION_CLOSE,
  REALTIME_VERSION,
  reconnectDelayMs,
  type ClientMessage,
} from "./realtime";

/** "ended": access ended (signed out, banned), never retried; "failed": the retries gave up. */
export type RealtimeStatus = "connecting" | "live" | "reconnecting" | "ended" | "failed";

/** The part of a WebSocket the client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number }) => void): void;
}

export interface RealtimeOptions<M> {
  url: string;
  protocols?: string[];
  /** Parses one frame (a zod schema's safeParse); null drops it. */
  parse: (json: unknown) => M | null;
  onMessage: (message: M) => void;
  /** `closeCode` comes with "ended": 4001 (access ended) or 4003 (no longer an admin) decide where the page goes. */
  onStatus?: (status: RealtimeStatus, closeCode?: number) => void;
  /** A seq was missed (a reconnect, a restarted object): the caller refreshes what messages alone cannot. */
  onGap?: () => void;
  /** User sockets speak hello/ping with seqs; the admin feed only listens. */
  sequenced?: boolean;
  heartbeatMs?: number;
  /** Tries in a row that never open before giving up (MAX_RECONNECT_ATTEMPTS). */
  maxAttempts?: number;
  createSocket?: (url: string, protocols?: string[]) => SocketLike;
  schedule?: {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (handle: unknown) => void;
    setInterval: (fn: () => void, ms: number) => unknown;
    clearInterval: (handle: unknown) => void;
  };
  random?: () => number;
}

const OPEN = 1;

export interface RealtimeConnection {
  close: () => void;
  /** After "failed": start over with a fresh set of attempts. */
  retry: () => void;
}

export function connectRealtime<M>(options: RealtimeOptions<M>): RealtimeConnection {
  const timers = options.schedule ?? {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (h: unknown) => clearInterval(h as ReturnType<typeof setInterval>),
  };
  const create =
    options.createSocket ?? ((url: string, protocols?: string[]) => new WebSocket(url, protocols) as SocketLike);
  let socket: SocketLike | null = null;
  let attempt = 0;
  /** Sockets in a row that closed without ever opening. */
  let failures = 0;
  let lastSeq: number | null = null;
  let stopped = false;
  let failed = false;
  let retry: unknown;
  let heartbeat: unknown;

  const send = (message: ClientMessage) => {
    if (socket?.readyState === OPEN) socket.send(JSON.stringify(message));
  };
  const hello = () => send({ v: REALTIME_VERSION, type: "hello", lastSeq });

  const receive = (raw: unknown) => {
    let json: unknown;
    try {
      json = JSON.parse(String(raw));
    } catch {
      return;
    }
    const message = options.parse(json);
    if (message === null) return;
    if (options.sequenced) {
      const framed = message as { type?: string; seq?: number };
      if (typeof framed.seq === "number") {
        if (framed.type === "snapshot") {
          if (lastSeq !== null && framed.seq !== lastSeq) options.onGap?.();
          lastSeq = framed.seq;
        } else if (framed.type === "pong") {
          // A pong tells the newest seq: behind it, something was missed.
          if (lastSeq !== null && framed.seq > lastSeq) hello();
          return options.onMessage(message);
        } else if (lastSeq !== null && framed.seq > lastSeq + 1) {
          // A gap in the stream: ask for a fresh snapshot, which reports the gap.
          hello();
          return;
        } else lastSeq = framed.seq;
      }
    }
    options.onMessage(message);
  };

  const connect = () => {
    options.onStatus?.(attempt === 0 && lastSeq === null ? "connecting" : "reconnecting");
    const current = create(options.url, options.protocols);
    socket = current;
    let opened = false;
    current.addEventListener("open", () => {
      opened = true;
      attempt = failures = 0;
      if (options.sequenced) {
        hello();
        heartbeat = timers.setInterval(
          () => send({ v: REALTIME_VERSION, type: "ping" }),
          options.heartbeatMs ?? HEARTBEAT_MS,
        );
      }
      options.onStatus?.("live");
    });
    current.addEventListener("message", (event) => receive(event.data));
    current.addEventListener("close", (event) => {
      timers.clearInterval(heartbeat);
      if (stopped || socket !== current) return;
      // Signed out, banned or no longer an admin: a reconnect would only be refused.
      if (isFinalClose(event.code)) {
        stopped = true;
        return options.onStatus?.("ended", event.code);
      }
      if (!opened && ++failures >= (options.maxAttempts ?? MAX_RECONNECT_ATTEMPTS)) {
        stopped = failed = true;
        return options.onStatus?.("failed");
      }
      options.onStatus?.("reconnecting");
      // Over a frame budget: reconnecting at once would only spend the next socket's share; it refills in seconds.
      const delay =
        event.code === POLICY_VIOLATION_CLOSE
          ? overBudgetDelayMs(options.random)
          : reconnectDelayMs(attempt++, options.random);
      retry = timers.setTimeout(connect, delay);
    });
  };
  connect();
  return {
    close: () => {
      stopped = true;
      timers.clearTimeout(retry);
      timers.clearInterval(heartbeat);
      socket?.close(1000, "closed");
    },
    retry: () => {
      if (!failed) return;
      stopped = failed = false;
      attempt = failures = 0;
      connect();
    },
  };
}
