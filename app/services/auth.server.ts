import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import type { users } from "~/db/schema";
import { findLiveSession, touchSession } from "~/db/user-access.server";
import type { Standing } from "~/domain/ledger";
import type { PlanId, StoredPlan } from "~/domain/plans";
import { sha256Hex } from "~/utils/crypto";
import { audit } from "./audit.server";
import { busyHeaders, ledger } from "./ledger.server";
import { clientIp, hitRateLimit } from "./rate-limit.server";
import { readSessionToken } from "./session-cookie.server";
import { SESSION_IDLE_MS, SESSION_TOUCH_MS } from "./session.server";

export type User = typeof users.$inferSelect;
/**
 * The signed-in person: their profile as read with the session, and the rest of "who am I" as their ledger answered
 * it in one call (`standing`: plan, balance, the plan that applies, team). `plan`, `pendingPlan` and `credits` are
 * the ledger's; `heldCredits` are credits reserved for clips in progress, as of this request.
 */
export type SessionUser = Omit<User, "plan" | "pendingPlan" | "credits"> & {
  plan: StoredPlan;
  pendingPlan: PlanId | null;
  credits: number;
  sessionId: string;
  showMaintenanceNotification: boolean;
  heldCredits: number;
  /** The person's role in a team, if any. */
  teamRole: "owner" | "member" | null;
  standing: Standing;
};

// One lookup per request: root, layout and page loaders of one request share the same load context.
const lookups = new WeakMap<AppLoadContext, Promise<SessionUser | null>>();

/**
 * The signed-in user for this request, or null (no cookie, unknown, expired or idle session, banned user).
 * Looked up once per request however many loaders ask (an action and the loaders after it are separate requests
 * with single fetch). "Last used" is refreshed at most once an hour per session, after the response.
 */
export function getOptionalUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  let lookup = lookups.get(context);
  if (!lookup) {
    lookup = lookupSessionUser(request, context);
    lookups.set(context, lookup);
  }
  return lookup;
}

/** After an action changed the user, the loaders of the same request (a form posted without JS) read it afresh. */
export function forgetUser(context: AppLoadContext): void {
  lookups.delete(context);
}

/**
 * The session is checked in D1 as before (live, not idle, its user not banned); everything else comes from the
 * user's ledger in one call. An unreachable ledger answers 503 busy: the page cannot say who is signed in.
 */
async function lookupSessionUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  const token = readSessionToken(request);
  if (!token) return null;
  const env = context.cloudflare.env;
  const db = getDb(env.DB);
  const sessionId = await sha256Hex(token);
  const now = Date.now();
  const row = await findLiveSession(db, sessionId, now, SESSION_IDLE_MS);
  if (!row || row.user.status === "Banned") return null;
  const standing = await ledger(env, row.user.id).authenticate();
  if (standing !== null && "ok" in standing) {
    throw new Response(standing.message, { status: standing.status, headers: busyHeaders(standing) });
  }
  if (!standing) return null;
  const lastUsed = (row.lastActiveAt ?? row.createdAt).getTime();
  if (now - lastUsed > SESSION_TOUCH_MS) {
    context.cloudflare.ctx.waitUntil(touchSession(db, sessionId, now, SESSION_TOUCH_MS).then(() => undefined));
  }
  return {
    ...row.user,
    plan: standing.plan,
    pendingPlan: standing.pendingPlan,
    credits: standing.credits.balance,
    sessionId,
    showMaintenanceNotification: row.flag,
    heldCredits: standing.credits.held,
    teamRole: standing.team?.role ?? null,
    standing,
  };
}

/** Guard for signed-in pages: anonymous visitors go to /signin and come back here afterwards. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getOptionalUser(request, context);
  if (user) return user;
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(`/signin?${new URLSearchParams({ redirectTo: back })}`);
}

// One request runs several loaders (layout and page); log a refused admin visit once.
const loggedDenials = new WeakSet<object>();
/** A refused admin visit is audited at most once per user per hour: a loop of visits must not flood the log. */
export const DENIAL_AUDIT_RULE = { name: "admin-denied-audit", limit: 1, windowMs: 60 * 60 * 1000 };
/** Users audited in this isolate, until when: most repeats then cost no D1 write at all. */
const auditedDenials = new Map<string, number>();

/** Guard for /admin: role admin, checked against the database on every request. Others go to /dashboard. */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (user.role === "admin") return user;
  if (loggedDenials.has(context)) throw redirect("/dashboard");
  loggedDenials.add(context);
  console.warn(
    JSON.stringify({ level: "warn", msg: "admin access denied", userId: user.id, path: new URL(request.url).pathname }),
  );
  const now = Date.now();
  if ((auditedDenials.get(user.id) ?? 0) > now) throw redirect("/dashboard");
  if (auditedDenials.size >= 10_000) auditedDenials.clear();
  auditedDenials.set(user.id, now + DENIAL_AUDIT_RULE.windowMs);
  // The D1 counter makes it once per hour across isolates too.
  const first = await hitRateLimit(context.cloudflare.env.DB, DENIAL_AUDIT_RULE, user.id);
  if (first.ok) {
    await audit(getDb(context.cloudflare.env.DB), {
      action: "admin.access_denied",
      actorId: user.id,
      ip: clientIp(request),
      details: { path: new URL(request.url).pathname },
    });
  }
  throw redirect("/dashboard");
}
