import { useRevalidator } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { Credits } from "~/domain/api";
import {
  HEARTBEAT_MS,
  REALTIME_VERSION,
  reconnectDelayMs,
  serverMessageSchema,
  type ClientMessage,
} from "~/domain/realtime";
import { sendToExtension } from "~/utils/extension-bridge";

export interface LiveState {
  credits: Credits;
  plan: string;
  pendingPlan: string | null;
  connection: "connecting" | "live" | "reconnecting";
  /** The extension id in use: the stored one, replaced live when an admin changes it. */
  extensionId?: string;
}

const LiveContext = createContext<LiveState | null>(null);

/** The user's live credits and plan, kept current over /realtime. */
export function useLive(): LiveState {
  const state = useContext(LiveContext);
  if (!state) throw new Error("useLive outside RealtimeProvider");
  return state;
}

/**
 * Holds one WebSocket to the user's ledger for the signed-in area: applies credit and plan messages at once,
 * revalidates loaders when clips change or a reconnect may have missed something, pings every 60 s (presence and
 * last seen), and reconnects with backoff — sockets close on every deploy, so that is normal, not an error.
 */
export function RealtimeProvider({
  initial,
  extensionId,
  children,
}: {
  initial: Omit<LiveState, "connection">;
  extensionId: string;
  children: ReactNode;
}) {
  const [state, setState] = useState<LiveState>({ ...initial, connection: "connecting" });
  // The admin may change the extension id while the page is open: a "settings" message switches to the new one.
  const [liveExtensionId, setLiveExtensionId] = useState(extensionId);
  const extensionIdRef = useRef(liveExtensionId);
  extensionIdRef.current = liveExtensionId;
  useEffect(() => setLiveExtensionId(extensionId), [extensionId]);
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  // Fresh loader data (after a navigation or revalidation) is the newest truth too.
  useEffect(() => {
    setState((s) => ({ ...s, credits: initial.credits, plan: initial.plan, pendingPlan: initial.pendingPlan }));
  }, [initial.credits, initial.plan, initial.pendingPlan]);

  useEffect(() => {
    let socket: WebSocket | null = null;
    let attempt = 0;
    let lastSeq: number | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const send = (message: ClientMessage) =>
      socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));

    const connect = () => {
      const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/realtime`;
      socket = new WebSocket(url);
      socket.addEventListener("open", () => {
        attempt = 0;
        send({ v: REALTIME_VERSION, type: "hello", lastSeq });
        heartbeat = setInterval(() => send({ v: REALTIME_VERSION, type: "ping" }), HEARTBEAT_MS);
      });
      socket.addEventListener("message", (event) => {
        let json: unknown;
        try {
          json = JSON.parse(String(event.data));
        } catch {
          return;
        }
        const parsed = serverMessageSchema.safeParse(json);
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.type === "error") return;
        if (message.type === "snapshot") {
          const missed = lastSeq !== null && message.seq !== lastSeq;
          lastSeq = message.seq;
          setState({
            credits: message.data.credits,
            plan: message.data.plan.plan,
            pendingPlan: message.data.plan.pendingPlan,
            connection: "live",
          });
          if (missed) revalidate.current();
          return;
        }
        lastSeq = message.seq;
        if (message.type === "credits") setState((s) => ({ ...s, credits: message.data }));
        if (message.type === "plan") {
          setState((s) => ({ ...s, plan: message.data.plan, pendingPlan: message.data.pendingPlan }));
          void sendToExtension(extensionIdRef.current, { action: "userPlanUpdated", plan: message.data.plan });
          revalidate.current();
        }
        if (message.type === "clip") revalidate.current();
        if (message.type === "settings") {
          setLiveExtensionId(message.data.extensionId);
          // Loaders that read the id (the extension hand-off) pick up the new one too.
          revalidate.current();
        }
      });
      socket.addEventListener("close", () => {
        clearInterval(heartbeat);
        if (stopped) return;
        setState((s) => ({ ...s, connection: "reconnecting" }));
        retry = setTimeout(connect, reconnectDelayMs(attempt++));
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      socket?.close(1000, "page closed");
    };
  }, []);

  return <LiveContext.Provider value={{ ...state, extensionId: liveExtensionId }}>{children}</LiveContext.Provider>;
}

/** A small status dot: live updates on, or reconnecting. */
export function ConnectionBadge() {
  const { connection } = useLive();
  const live = connection === "live";
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-slate-600"
      role="status"
      data-connection={connection}
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${live ? "bg-emerald-500" : "bg-amber-500"}`} />
      {live ? "Live" : connection === "connecting" ? "Connecting…" : "Reconnecting…"}
    </span>
  );
}
