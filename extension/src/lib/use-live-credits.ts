import { useEffect, useState } from "react";
import type { Credits } from "../../../app/domain/api";
import {
  REALTIME_SUBPROTOCOL,
  TOKEN_SUBPROTOCOL_PREFIX,
  reconnectDelayMs,
  serverMessageSchema,
} from "../../../app/domain/realtime";
import { SITE_ORIGIN } from "./config";

/** Credits and plan pushed over /api/v1/realtime (the token rides as a subprotocol), reconnecting with backoff. */
export function useLiveAccount(apiKey: string | null, initial: { credits: Credits; plan: string } | null) {
  const [live, setLive] = useState(initial);
  useEffect(() => setLive(initial), [initial]);

  useEffect(() => {
    if (!apiKey) return;
    const url = `${SITE_ORIGIN.replace(/^http/, "ws")}/api/v1/realtime`;
    let socket: WebSocket | null = null;
    let attempt = 0;
    let lastSeq: number | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;

    function connect() {
      socket = new WebSocket(url, [REALTIME_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${apiKey}`]);
      socket.onopen = () => {
        attempt = 0;
        socket?.send(JSON.stringify({ v: 1, type: "hello", lastSeq }));
      };
      socket.onmessage = (event) => {
        let data: unknown;
        try {
          data = JSON.parse(String(event.data));
        } catch {
          return;
        }
        const parsed = serverMessageSchema.safeParse(data);
        if (!parsed.success) return;
        const message = parsed.data;
        if ("seq" in message) lastSeq = message.seq;
        if (message.type === "snapshot") setLive({ credits: message.data.credits, plan: message.data.plan.plan });
        else if (message.type === "credits") setLive((prev) => (prev ? { ...prev, credits: message.data } : prev));
        else if (message.type === "plan") setLive((prev) => (prev ? { ...prev, plan: message.data.plan } : prev));
      };
      socket.onclose = () => {
        if (closed) return;
        timer = setTimeout(connect, reconnectDelayMs(attempt++));
      };
    }
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, [apiKey]);

  return live;
}
