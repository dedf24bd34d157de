import { REALTIME_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from "../app/domain/realtime";
import type { AppEnv } from "../app/load-context";
import { apiCallerOrError } from "../app/services/api-auth.server";
import { bearerToken } from "../app/services/api-tokens.server";
import { getOptionalUser } from "../app/services/auth.server";
import { ledger } from "../app/services/ledger.server";
import { ADMIN_FEED_NAME } from "./admin-feed";
import { CREDENTIAL_HEADERS } from "./socket-credential";
import { countRefusedUpgrade, upgradeBlockedForIp, upgradeRefusedForUser } from "./socket-upgrade-limit";

const json = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store" } });

function offeredProtocols(request: Request): string[] {
  return (request.headers.get("Sec-WebSocket-Protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * WebSocket upgrades: /realtime (pages, session cookie, same origin), /api/v1/realtime (extension, Bearer token in
 * the Authorization header or as a "bearer.<token>" subprotocol, since browsers cannot set headers on a WebSocket)
 * and /admin/realtime (admin pages). Returns null for any other path.
 */
export async function routeRealtime(request: Request, env: AppEnv, ctx: ExecutionContext): Promise<Response | null> {
  const url = new URL(request.url);
  if (!["/realtime", "/api/v1/realtime", "/admin/realtime"].includes(url.pathname)) return null;
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return json(426, "bad_request", "This endpoint speaks WebSocket only.");
  }
  const ipBlocked = upgradeBlockedForIp(request);
  if (ipBlocked) return ipBlocked;
  const context = { cloudflare: { env, ctx }, nonce: "" };
  if (url.pathname === "/api/v1/realtime") {
    const offered = offeredProtocols(request);
    const token =
      bearerToken(request) ??
      offered.find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX))?.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
    const caller = await apiCallerOrError(request, env, token ?? null);
    if (caller instanceof Response) return countRefusedUpgrade(env, request, caller);
    const userRefused = await upgradeRefusedForUser(env, caller.id);
    if (userRefused) return userRefused;
    return forward(request, env, caller.id, "extension", {
      protocol: offered.includes(REALTIME_SUBPROTOCOL) ? REALTIME_SUBPROTOCOL : null,
      tokenHash: caller.tokenHash,
    });
  }
  // Cookie-authenticated sockets: refuse other sites (cross-site WebSocket hijacking).
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== url.origin) return json(403, "forbidden", "Cross-site WebSocket refused.");
  const user = await getOptionalUser(request, context);
  if (!user) return countRefusedUpgrade(env, request, json(401, "unauthorized", "Sign in to receive live updates."));
  const userRefused = await upgradeRefusedForUser(env, user.id);
  if (userRefused) return userRefused;
  if (url.pathname === "/admin/realtime") {
    if (user.role !== "admin") return json(403, "forbidden", "Admins only.");
    const headers = new Headers(request.headers);
    headers.set("X-ClipCut-User", user.id);
    headers.set(CREDENTIAL_HEADERS.session, user.sessionId);
    return env.ADMIN_FEED.get(env.ADMIN_FEED.idFromName(ADMIN_FEED_NAME)).fetch(new Request(request.url, { headers }));
  }
  return forward(request, env, user.id, "page", { protocol: null, sessionId: user.sessionId });
}

/** The request's own X-ClipCut-* headers were stripped at the Worker's entry (workers/internal-headers.ts). */
function forward(
  request: Request,
  env: AppEnv,
  userId: string,
  kind: "page" | "extension",
  opts: { protocol: string | null; sessionId?: string; tokenHash?: string },
) {
  const headers = new Headers(request.headers);
  headers.set("X-ClipCut-User", userId);
  headers.set("X-ClipCut-Socket", kind);
  if (opts.protocol) headers.set("X-ClipCut-Protocol", opts.protocol);
  if (opts.sessionId) headers.set(CREDENTIAL_HEADERS.session, opts.sessionId);
  if (opts.tokenHash) headers.set(CREDENTIAL_HEADERS.token, opts.tokenHash);
  return ledger(env, userId).fetch(new Request(request.url, { headers }));
}
