import { useEffect, useState } from "react";
import { applyAccountMessage, connectAccountSocket, type LiveAccount } from "./live-account";

/**
 * Credits and plan pushed over /api/v1/realtime. A team member clips on the team's plan and balance: only the team's
 * balance (teamCredits) moves what they see.
 */
export function useLiveAccount(apiKey: string | null, initial: LiveAccount | null, member = false) {
  const [live, setLive] = useState(initial);
  useEffect(() => setLive(initial), [initial]);

  useEffect(() => {
    if (!apiKey) return;
    return connectAccountSocket(apiKey, (message) => setLive((prev) => applyAccountMessage(prev, message, member)));
  }, [apiKey, member]);

  return live;
}
