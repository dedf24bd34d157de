import { ipLimitKey } from "../app/domain/ip-prefix";
import type { AppEnv } from "../app/load-context";
import { overLimit, rateLimitedResponse } from "../app/services/rate-limit-api.server";
import { clientIp } from "../app/services/rate-limit.server";

/**
 * Socket upgrades are counted here, in the Worker, before anything costs: per IP (IPv6: per /64) before the session
 * or token is even looked up, per user before the user's ledger object (or the admin feed) is reached. A client
 * reconnecting in a loop gets 429 with Retry-After instead of a session check and a snapshot each time.
 * Limits: SOCKET_IP_LIMITER and SOCKET_USER_LIMITER in wrangler.toml.
 */
export async function upgradeRefusedForIp(env: AppEnv, request: Request): Promise<Response | null> {
  const wait = await overLimit(env, "SOCKET_IP_LIMITER", ipLimitKey(clientIp(request)));
  return wait === null ? null : rateLimitedResponse(wait);
}

export async function upgradeRefusedForUser(env: AppEnv, userId: string): Promise<Response | null> {
  const wait = await overLimit(env, "SOCKET_USER_LIMITER", userId);
  return wait === null ? null : rateLimitedResponse(wait);
}
