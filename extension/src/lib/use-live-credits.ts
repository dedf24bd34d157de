import { useEffect, useState } from "react";
import type { Credits } from "../../../app/domain/api";
import {
  REALTIME_SUBPROTOCOL,
  TOKEN_SUBPROTOCOL_PREFIX,
  serverMessageSchema,
  type ServerMessage,
} from "../../../app/domain/realtime";
import { connectRealtime } from "../../../app/domain/realtime-client";
import { SITE_ORIGIN } from "./config";

/**
 * Credits and plan pushed over /api/v1/realtime, through the site's one realtime client (`connectRealtime`). A team
 * member clips on the team's plan and balance: only the team's balance (teamCredits) moves what they see.
 */
export function useLiveAccount(
  apiKey: string | null,
  initial: { credits: Credits; plan: string } | null,
  member = false,
) {
  const [live, setLive] = useState(initial);
  useEffect(() => setLive(initial), [initial]);

  useEffect(() => {
    if (!apiKey) return;
    const connection = connectRealtime<ServerMessage>({
      url: `${SITE_ORIGIN.replace(/^http/, "ws")}/api/v1/realtime`,
      // The token rides as a second subprotocol: browsers cannot set headers on a WebSocket.
      protocols: [REALTIME_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${apiKey}`],
      sequenced: true,
      parse: (json) => {
        const parsed = serverMessageSchema.safeParse(json);
        return parsed.success ? parsed.data : null;
      },
      onMessage: (message) => {
        if (member) {
          if (message.type === "teamCredits") setLive((prev) => (prev ? { ...prev, credits: message.data } : prev));
          return;
        }
        if (message.type === "snapshot") setLive({ credits: message.data.credits, plan: message.data.plan.plan });
        else if (message.type === "credits") setLive((prev) => (prev ? { ...prev, credits: message.data } : prev));
        else if (message.type === "plan") setLive((prev) => (prev ? { ...prev, plan: message.data.plan } : prev));
      },
    });
    return () => connection.close();
  }, [apiKey, member]);

  return live;
}
