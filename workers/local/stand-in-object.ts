/**
 * Local only: the stand-ins' storage, a Durable Object that only wrangler.local.toml binds (STAND_IN). It answers the
 * Stripe SDK's requests (fetch) one at a time, honouring Idempotency-Key as Stripe does, keeps the events Stripe
 * would send until the local entry has delivered them, and keeps the e-mail outbox.
 */
import { DurableObject } from "cloudflare:workers";
import type { EmailMessage } from "../../app/services/email.server";
import {
  answer,
  API_VERSION,
  checkoutPrice,
  checkoutSession,
  completeCheckout,
  failRenewal,
  LOCAL_ORIGIN_PLACEHOLDER,
  newId,
  parseStripeForm,
  payInvoice,
  STAND_IN_MARKER,
  stripeError,
  updateCard,
  type Obj,
  type PageOutcome,
  type StandInStore,
  type StripeObject,
} from "./stripe-api";
import { eventObject } from "./stripe-objects";

/** Stripe keeps an idempotency key for 24 hours. */
const IDEMPOTENCY_SECONDS = 24 * 3600;
/** A claimed event not settled within this time (its delivery died) is delivered again. */
const CLAIM_SECONDS = 60;

export interface PendingEvent {
  id: string;
  payload: string;
}

export interface OutboxMessage extends EmailMessage {
  sentAt: string;
}

const json = (obj: StripeObject | null) => (obj ? JSON.stringify(obj) : null);

export class LocalStandIn extends DurableObject {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS objects (id TEXT PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS objects_type ON objects (type);
      CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, payload TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending', claimed_at INTEGER);
      CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
        body TEXT NOT NULL, created INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS mail (seq INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL, sent_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS clock (id INTEGER PRIMARY KEY CHECK (id = 1), offset_seconds INTEGER NOT NULL);
    `);
  }

  private readonly store: StandInStore = {
    now: () => Math.floor(Date.now() / 1000) + this.clockOffset(),
    get: <T extends StripeObject = Obj>(id: string) => {
      const row = this.sql.exec<{ data: string }>("SELECT data FROM objects WHERE id = ?", id).toArray()[0];
      return row ? (JSON.parse(row.data) as T) : null;
    },
    put: <T extends StripeObject>(obj: T) => {
      this.sql.exec(
        "INSERT INTO objects (id, type, data) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data",
        obj.id,
        obj.object,
        JSON.stringify(obj),
      );
      return obj;
    },
    ofType: <T extends StripeObject = Obj>(type: string) =>
      this.sql
        .exec<{ data: string }>("SELECT data FROM objects WHERE type = ? ORDER BY rowid", type)
        .toArray()
        .map((r) => JSON.parse(r.data) as T),
    recordEvent: (type, object) => {
      const event = eventObject({ id: newId("evt"), type, created: this.store.now(), object, apiVersion: API_VERSION });
      this.sql.exec("INSERT INTO events (id, payload) VALUES (?, ?)", event.id, JSON.stringify(event));
    },
  };

  private clockOffset(): number {
    return this.sql.exec<{ o: number }>("SELECT offset_seconds o FROM clock WHERE id = 1").toArray()[0]?.o ?? 0;
  }

  /** The Stripe API, as the SDK's fetch. `X-Stand-In-Origin` names the site, for the hosted pages' addresses. */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const body = request.method === "GET" ? "" : await request.text();
    const key = request.method === "POST" ? request.headers.get("Idempotency-Key") : null;
    const fingerprint = `${request.method} ${url.pathname}${url.search} ${body}`;
    const origin = request.headers.get("X-Stand-In-Origin") ?? "http://localhost:8787";
    const finish = (status: number, text: string, replayed: boolean) =>
      new Response(text.replaceAll(LOCAL_ORIGIN_PLACEHOLDER, origin), {
        status,
        headers: {
          "Content-Type": "application/json",
          "Request-Id": newId("req"),
          "Stripe-Version": API_VERSION,
          "X-Stand-In": STAND_IN_MARKER,
          ...(key ? { "Idempotency-Key": key } : {}),
          ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
        },
      });
    if (key) {
      const now = this.store.now();
      this.sql.exec("DELETE FROM idempotency WHERE created < ?", now - IDEMPOTENCY_SECONDS);
      const seen = this.sql
        .exec<{ fingerprint: string; status: number; body: string }>(
          "SELECT fingerprint, status, body FROM idempotency WHERE key = ?",
          key,
        )
        .toArray()[0];
      if (seen && seen.fingerprint !== fingerprint) {
        const refused = stripeError(
          400,
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          { type: "idempotency_error" },
        );
        return finish(400, await refused.text(), false);
      }
      if (seen) return finish(seen.status, seen.body, true);
    }
    const response = answer(this.store, request.method, url, parseStripeForm(body));
    const text = await response.text();
    // Stripe saves the result of every request that ran, errors included, except its own 500s.
    if (key && response.status < 500)
      this.sql.exec(
        "INSERT INTO idempotency (key, fingerprint, status, body, created) VALUES (?, ?, ?, ?, ?)",
        key,
        fingerprint,
        response.status,
        text,
        this.store.now(),
      );
    return finish(response.status, text, false);
  }

  // ── Events for /webhooks/stripe ────────────────────────────────────────

  /** The events not yet delivered, in order; claimed so that a nested delivery does not send them twice. */
  claimEvents(): PendingEvent[] {
    const now = this.store.now();
    const rows = this.sql
      .exec<{ id: string; payload: string }>(
        "SELECT id, payload FROM events WHERE state = 'pending' OR (state = 'claimed' AND claimed_at < ?) ORDER BY seq",
        now - CLAIM_SECONDS,
      )
      .toArray();
    for (const row of rows)
      this.sql.exec("UPDATE events SET state = 'claimed', claimed_at = ? WHERE id = ?", now, row.id);
    return rows;
  }

  /** A delivery answered: 2xx settles the event, anything else puts it back for the next delivery. */
  settleEvent(id: string, delivered: boolean): void {
    this.sql.exec("UPDATE events SET state = ? WHERE id = ?", delivered ? "delivered" : "pending", id);
  }

  // ── What a customer does on Stripe's hosted pages ─────────────────────────

  // Objects cross the RPC boundary as JSON text (their fields are Stripe's, not typed for RPC).
  checkoutSession(id: string): string | null {
    return json(checkoutSession(this.store, id));
  }
  /** The price a Checkout Session sells (Stripe shows its line items on the checkout page). */
  checkoutPrice(id: string): string | null {
    return json(checkoutPrice(this.store, id));
  }
  completeCheckout(id: string, cardNumber: string): PageOutcome {
    return completeCheckout(this.store, id, cardNumber);
  }
  portalSession(id: string): string | null {
    const portal = this.store.get(id);
    return json(portal?.object === "billing_portal.session" ? portal : null);
  }
  updateCard(customerId: string, cardNumber: string): PageOutcome {
    return updateCard(this.store, customerId, cardNumber);
  }
  /** The customer's newest subscription that is still running, if any. */
  runningSubscriptionOf(customerId: string): string | null {
    const running = this.store
      .ofType("subscription")
      .filter((s) => s.customer === customerId && ["active", "trialing", "past_due"].includes(String(s.status)));
    return running.at(-1)?.id ?? null;
  }
  failRenewal(subscriptionId: string): boolean {
    return failRenewal(this.store, subscriptionId);
  }
  invoice(id: string): string | null {
    const invoice = this.store.get(id);
    return json(invoice?.object === "invoice" ? invoice : null);
  }
  payInvoice(id: string): PageOutcome {
    return payInvoice(this.store, id);
  }

  // ── Test helpers (what Stripe's dashboard and test clocks offer) ─────────────

  /** Puts objects (JSON) into Stripe's books as they are (tests seed fixtures this way). */
  put(objects: string): void {
    for (const obj of JSON.parse(objects) as Obj[]) this.store.put(obj);
  }
  get(id: string): string | null {
    return json(this.store.get(id));
  }
  /** Moves the stand-in's clock, like a Stripe test clock. */
  advanceClock(seconds: number): void {
    this.sql.exec(
      "INSERT INTO clock (id, offset_seconds) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET offset_seconds = offset_seconds + ?",
      seconds,
      seconds,
    );
  }

  // ── E-mail outbox ──────────────────────────────────────────────────────

  sendMail(message: EmailMessage): void {
    this.sql.exec("INSERT INTO mail (data, sent_at) VALUES (?, ?)", JSON.stringify(message), Date.now());
  }
  /** The newest 200 messages, newest first. */
  outbox(): OutboxMessage[] {
    return this.sql
      .exec<{ data: string; sent_at: number }>("SELECT data, sent_at FROM mail ORDER BY seq DESC LIMIT 200")
      .toArray()
      .map((r) => ({ ...(JSON.parse(r.data) as EmailMessage), sentAt: new Date(r.sent_at).toISOString() }));
  }
}
