import { ipLimitKey } from "../app/domain/ip-prefix";
import type { AppEnv } from "../app/load-context";
import { overLimit, rateLimitedResponse } from "../app/services/rate-limit-api.server";
import { clientIp } from "../app/services/rate-limit.server";

/**
 * Socket upgrades are counted here, in the Worker, before the user's ledger object (or the admin feed) is reached:
 * a client reconnecting in a loop gets 429 with Retry-After instead of a session check and a snapshot each time.
 * Signed-in upgrades count per user; upgrades refused for their credentials (none, expired, forged) count per IP
 * (IPv6: per /64), and an IP over that budget is refused from isolate memory before its next session or token is
 * looked up. Counting only refused upgrades per IP keeps one office or carrier NAT of honest users unlimited.
 * Limits: SOCKET_USER_LIMITER and SOCKET_IP_LIMITER in wrangler.toml.
 */
const blockedIps = new Map<string, number>();
const MAX_BLOCKED = 10_000;

/** 429 when this IP already spent its budget of refused upgrades, before any lookup; else null. */
export function upgradeBlockedForIp(request: Request, now = Date.now()): Response | null {
  const key = ipLimitKey(clientIp(request));
  const until = blockedIps.get(key);
  if (until === undefined) return null;
  if (until <= now) {
    blockedIps.delete(key);
    return null;
  }
  return rateLimitedResponse(Math.max(1, Math.ceil((until - now) / 1000)));
}

/** Counts an upgrade refused for its credentials: the 429 once the IP is over budget, else the refusal itself. */
export async function countRefusedUpgrade(env: AppEnv, request: Request, refusal: Response): Promise<Response> {
  const key = ipLimitKey(clientIp(request));
  const wait = await overLimit(env, "SOCKET_IP_LIMITER", key);
  if (wait === null) return refusal;
  if (blockedIps.size >= MAX_BLOCKED) blockedIps.clear();
  blockedIps.set(key, Date.now() + wait * 1000);
  return rateLimitedResponse(wait);
}

export async function upgradeRefusedForUser(env: AppEnv, userId: string): Promise<Response | null> {
  const wait = await overLimit(env, "SOCKET_USER_LIMITER", userId);
  return wait === null ? null : rateLimitedResponse(wait);
}
