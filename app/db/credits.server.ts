/** Credit reads for pages and API (the ledger itself answers from memory): balance with holds, and the history. */
import { desc, eq, sql, type Placeholder } from "drizzle-orm";
import type { Credits } from "~/domain/api";
import type { Db } from "./client.server";
import { creditLedger, users } from "./schema";

// Written out: drizzle leaves columns unqualified, and inside the subquery "id" would mean the hold's id.
export const heldSql = (now: number | Placeholder) =>
  sql<number>`coalesce((select sum(h.amount) from credit_holds h
    where h.user_id = "users"."id" and h.status = 'held' and h.expires_at > ${now}), 0)`;

/** A user's credits as D1 has them (pages and API reads; the ledger itself answers from memory). */
export async function readCredits(db: Db, userId: string, now = Date.now()): Promise<Credits | null> {
  const row = await db
    .select({ balance: users.credits, held: heldSql(now) })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!row) return null;
  return { balance: row.balance, held: row.held, available: row.balance - row.held };
}

/** One page of the user's ledger, newest first, and how many rows there are in all (the credits history). */
export async function ledgerPage(db: Db, userId: string, page: { page: number; size: number }) {
  const [rows, total] = await Promise.all([
    db
      .select({
        id: creditLedger.id,
        delta: creditLedger.delta,
        balanceAfter: creditLedger.balanceAfter,
        description: creditLedger.description,
        createdAt: creditLedger.createdAt,
      })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db
      .select({ n: sql<number>`count(*)` })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .get(),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Users whose ledger has due work (a paid period ended, a hold expired): the scheduled safety net sweeps them. */
export function usersDueForSweep(db: Db, now: number) {
  return db.all<{ id: string }>(sql`
    select id from users where plan_period_end is not null and plan_period_end <= ${now}
    union
    select distinct user_id as id from credit_holds where status = 'held' and expires_at <= ${now}
    limit 500`);
}
