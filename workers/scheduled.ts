import { sql } from "drizzle-orm";
import { getDb } from "../app/db/client.server";
import type { AppEnv } from "../app/load-context";
import { ledgerFor } from "../app/services/ledger.server";

/**
 * Safety net behind the Durable Object alarms (cron, every 15 minutes): users whose paid period ended or who
 * hold expired reservations get their ledger swept. Each sweep is idempotent (derived keys), so overlap is harmless.
 */
export async function runScheduled(env: AppEnv, now = Date.now()): Promise<number> {
  const db = getDb(env.DB);
  const due = await db.all<{ id: string }>(sql`
    select id from users where plan_period_end is not null and plan_period_end <= ${now}
    union
    select distinct user_id as id from credit_holds where status = 'held' and expires_at <= ${now}
    limit 500`);
  await Promise.all(due.map((row) => ledgerFor(env, row.id).sweep({ userId: row.id })));
  return due.length;
}
