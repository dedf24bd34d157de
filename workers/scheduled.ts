import { getDb } from "../app/db/client.server";
import { pruneExpired } from "../app/db/user-access.server";
import type { AppEnv } from "../app/load-context";
import { ledger } from "../app/services/ledger.server";
import { usersDueForSweep } from "../app/db/credits.server";
import { closeRevokedSockets } from "../app/services/realtime-control.server";
import { SESSION_IDLE_MS } from "../app/services/session.server";

/**
 * Safety net behind the Durable Object alarms (cron, every 15 minutes): users whose paid period ended or who
 * hold expired reservations get their ledger swept. Each sweep is idempotent (derived keys), so overlap is harmless.
 */
export async function runScheduled(env: AppEnv, now = Date.now()): Promise<number> {
  const db = getDb(env.DB);
  const due = await usersDueForSweep(db, now);
  await Promise.all(due.map((row) => ledger(env, row.id).sweep()));
  await pruneAuthState(env, now);
  return due.length;
}

/**
 * Housekeeping: sessions, tokens and rate-limit rows that can never be used again are deleted; the tokens of a
 * pruned session are revoked and the sockets of both close.
 */
export async function pruneAuthState(env: AppEnv, now = Date.now()) {
  const pruned = await pruneExpired(getDb(env.DB), now, SESSION_IDLE_MS);
  await closeRevokedSockets(env, pruned.revoked, "session expired");
  console.log(JSON.stringify({ level: "info", msg: "pruned expired auth state", ...pruned.counts }));
  return pruned.counts;
}
