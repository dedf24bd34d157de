import type { Credits } from "../../../app/domain/api";
import {
  REALTIME_SUBPROTOCOL,
  TOKEN_SUBPROTOCOL_PREFIX,
  serverMessageSchema,
  type ServerMessage,
} from "../../../app/domain/realtime";
import { connectRealtime } from "../../../app/domain/realtime-client";
import { SITE_ORIGIN } from "./config";

/** The part of the account the realtime socket moves: the balance and the plan. */
export interface LiveAccount {
  credits: Credits;
  plan: string;
}

/** The realtime messages the extension follows (the rest are the site's pages' concern). */
export type AccountMessage = Extract<ServerMessage, { type: "snapshot" | "credits" | "teamCredits" | "plan" }>;

export const isAccountMessage = (message: ServerMessage): message is AccountMessage =>
  message.type === "snapshot" ||
  message.type === "credits" ||
  message.type === "teamCredits" ||
  message.type === "plan";

/**
 * One realtime message applied to the balance and plan shown. A team member clips on the team's plan and balance:
 * only the team's balance (teamCredits) moves what they see.
 */
export function applyAccountMessage(prev: LiveAccount | null, message: AccountMessage, member: boolean) {
  if (member) return message.type === "teamCredits" && prev ? { ...prev, credits: message.data } : prev;
  if (message.type === "snapshot") return { credits: message.data.credits, plan: message.data.plan.plan };
  if (!prev) return prev;
  if (message.type === "credits") return { ...prev, credits: message.data };
  if (message.type === "plan") return { ...prev, plan: message.data.plan };
  return prev;
}

/**
 * The account's realtime socket, through the site's one realtime client (reconnects, resyncs with a snapshot), for
 * the popup and for the background's account feed. Returns the way to close it.
 */
export function connectAccountSocket(apiKey: string, onMessage: (message: AccountMessage) => void): () => void {
  const connection = connectRealtime<ServerMessage>({
    url: `${SITE_ORIGIN.replace(/^http/, "ws")}/api/v1/realtime`,
    // The token rides as a second subprotocol: browsers cannot set headers on a WebSocket.
    protocols: [REALTIME_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${apiKey}`],
    sequenced: true,
    parse: (json) => {
      const parsed = serverMessageSchema.safeParse(json);
      return parsed.success ? parsed.data : null;
    },
    onMessage: (message) => isAccountMessage(message) && onMessage(message),
  });
  return () => connection.close();
}
