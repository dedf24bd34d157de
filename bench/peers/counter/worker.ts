/**
 * The charge peer: POST /charge (X-User: the user's id; a JSON body with the clip's name) asks the user's counter
 * object for one credit. The object decides in memory and answers once the charge is in D1: charges that arrive while
 * a batch is in flight wait and go together in the next batch (one D1 batch per group), as ClipCut's ledger does.
 */
import { DurableObject } from "cloudflare:workers";

interface Env {
  DB: D1Database;
  COUNTER: DurableObjectNamespace<Counter>;
}

type ChargeResult = { ok: true; balance: number } | { ok: false; reason: "insufficient_credits" | "save_failed" };

interface Pending {
  name: string;
  balanceAfter: number;
  answer: (result: ChargeResult) => void;
}

const COST = 1;
const MAX_GROUP = 64;

export class Counter extends DurableObject<Env> {
  private balance: number | null = null;
  private queue: Pending[] = [];
  private committing = false;

  async charge(userId: string, name: string): Promise<ChargeResult> {
    if (this.balance === null) {
      const row = await this.env.DB.prepare("SELECT credits FROM users WHERE id = ?")
        .bind(userId)
        .first<number>("credits");
      this.balance ??= row ?? 0;
    }
    if (this.balance < COST) return { ok: false, reason: "insufficient_credits" };
    this.balance -= COST;
    const answered = new Promise<ChargeResult>((answer) =>
      this.queue.push({ name, balanceAfter: this.balance as number, answer }),
    );
    if (!this.committing) void this.commit(userId);
    return answered;
  }

  private async commit(userId: string): Promise<void> {
    this.committing = true;
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, MAX_GROUP);
      const now = Date.now();
      const last = group[group.length - 1] as Pending;
      const insert = this.env.DB.prepare(
        "INSERT INTO charges (id, user_id, name, cost, balance_after, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      );
      try {
        await this.env.DB.batch([
          ...group.map((p) => insert.bind(crypto.randomUUID(), userId, p.name, COST, p.balanceAfter, now)),
          this.env.DB.prepare("UPDATE users SET credits = ? WHERE id = ?").bind(last.balanceAfter, userId),
        ]);
        for (const p of group) p.answer({ ok: true, balance: p.balanceAfter });
      } catch {
        // The batch is a transaction: nothing of it was written. Reload the balance on the next charge.
        this.balance = null;
        this.queue.splice(0).forEach((p) => p.answer({ ok: false, reason: "save_failed" }));
        for (const p of group) p.answer({ ok: false, reason: "save_failed" });
      }
    }
    this.committing = false;
  }
}

export default {
  async fetch(request, env) {
    const user = request.headers.get("X-User");
    if (request.method !== "POST" || new URL(request.url).pathname !== "/charge" || !user)
      return new Response("Not found", { status: 404 });
    const body = (await request.json().catch(() => null)) as { name?: unknown } | null;
    if (typeof body?.name !== "string") return new Response("A clip name is required.", { status: 400 });
    const result = await env.COUNTER.get(env.COUNTER.idFromName(user)).charge(user, body.name);
    return Response.json(result, { status: result.ok ? 201 : result.reason === "save_failed" ? 503 : 402 });
  },
} satisfies ExportedHandler<Env>;
