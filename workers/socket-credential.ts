import { tokenAccepted, tokenStanding } from "../app/db/api-tokens.server";
import type { Db } from "../app/db/client.server";
import { findLiveSession } from "../app/db/user-access.server";
import { SESSION_IDLE_MS } from "../app/services/session.server";

/** What a socket was opened with: a browser session (pages, admin feed) or an extension token, by its hash. */
export interface SocketCredential {
  type: "session" | "token";
  id: string;
}

/** Set only by the Worker after it authenticated the upgrade (client-sent X-ClipCut-* headers are stripped). */
export const CREDENTIAL_HEADERS = { session: "X-ClipCut-Session", token: "X-ClipCut-Token" } as const;

const HASH = /^[0-9a-f]{64}$/;

export function socketCredential(headers: Headers): SocketCredential | undefined {
  const session = headers.get(CREDENTIAL_HEADERS.session);
  if (session && HASH.test(session)) return { type: "session", id: session };
  const token = headers.get(CREDENTIAL_HEADERS.token);
  if (token && HASH.test(token)) return { type: "token", id: token };
  return undefined;
}

/** Read from D1 each time (a hello is rare and budgeted): the session is live, the token accepted, the user not banned. */
export async function credentialStillValid(db: Db, userId: string, credential: SocketCredential): Promise<boolean> {
  const now = Date.now();
  if (credential.type === "token") return tokenAccepted(await tokenStanding(db, credential.id), userId, now);
  return (await liveSessionRole(db, userId, credential.id)) !== null;
}

/** The user's role if this session of theirs is still live and they are not banned; null otherwise. */
export async function liveSessionRole(db: Db, userId: string, sessionId: string) {
  const row = await findLiveSession(db, sessionId, Date.now(), SESSION_IDLE_MS);
  return row && row.user.id === userId && row.user.status !== "Banned" ? row.user.role : null;
}
