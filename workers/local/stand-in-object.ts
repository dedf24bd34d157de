/**
 * Local only: the stand-ins' storage, a Durable Object that only wrangler.local.toml binds (STAND_IN). It answers the
 * Stripe SDK's requests (fetch) one at a time, honouring Idempotency-Key as Stripe does, keeps the events Stripe
 * would send until the local entry has delivered them, serves what the customer does on the hosted pages and the
 * test clocks' advance, and keeps the e-mail outbox.
 */
import { DurableObject } from "cloudflare:workers";
import type Stripe from "stripe";
import type { EmailMessage } from "../../app/services/email.server";
import {
  answer,
  API_VERSION,
  LOCAL_ORIGIN_PLACEHOLDER,
  newId,
  parseStripeForm,
  STAND_IN_MARKER,
  stripeError,
} from "./stripe-api";
import {
  checkoutPrice,
  checkoutSession,
  completeCheckout,
  needsAddress,
  type CheckoutEntry,
  type PageOutcome,
} from "./stripe-checkout";
import { advanceClock, clockIdOfCustomer, onClock, runDueNow } from "./stripe-clock";
import { allLines, invoiceOf, payInvoice, putInvoice } from "./stripe-invoices";
import { eventObject } from "./stripe-objects";
import { portalAction, portalView, type PortalAction } from "./stripe-portal";
import type { Obj, StandInStore, StripeObject } from "./stripe-store";

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

/** An event the stand-in recorded, as the dev routes report it. */
export interface RecordedEvent {
  seq: number;
  id: string;
  type: string;
  object: string;
  delivered: boolean;
}

const isInvoice = (obj: StripeObject): obj is Stripe.Invoice => obj.object === "invoice";

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
    `);
  }

  /** Stripe's books. `now()` is real time; a customer's requests see their test clock's (stripe-clock.ts). */
  private readonly store: StandInStore = {
    now: () => Math.floor(Date.now() / 1000),
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
    remove: (id: string) => {
      this.sql.exec("DELETE FROM objects WHERE id = ?", id);
    },
    recordEvent: (type, object, created) => {
      const event = eventObject({
        id: newId("evt"),
        type,
        created: created ?? this.store.now(),
        object,
        apiVersion: API_VERSION,
      });
      this.sql.exec("INSERT INTO events (id, payload) VALUES (?, ?)", event.id, JSON.stringify(event));
    },
    events: (types) =>
      this.sql
        .exec<{ payload: string }>("SELECT payload FROM events ORDER BY seq DESC")
        .toArray()
        .map((r) => JSON.parse(r.payload) as Stripe.Event)
        .filter((e) => !types || types.includes(e.type)),
  };

  /** Runs a change to Stripe's books, then what Stripe does on its own at once after it (a dispute, say). */
  private act<T>(change: () => T): T {
    const result = change();
    runDueNow(this.store);
    return result;
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
    const response = this.act(() => answer(this.store, request.method, url, parseStripeForm(body)));
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

  /** The sequence number of the newest event (0 when none). */
  lastEventSeq(): number {
    return this.sql.exec<{ s: number | null }>("SELECT max(seq) s FROM events").toArray()[0]?.s ?? 0;
  }

  /** The events recorded after `seq`, oldest first, and whether each was delivered. */
  eventsAfter(seq: number): RecordedEvent[] {
    return this.sql
      .exec<{ seq: number; payload: string; state: string }>(
        "SELECT seq, payload, state FROM events WHERE seq > ? ORDER BY seq",
        seq,
      )
      .toArray()
      .map((r) => {
        const event = JSON.parse(r.payload) as Stripe.Event;
        const object = (event.data.object as { id?: string }).id ?? "";
        return { seq: r.seq, id: event.id, type: event.type, object, delivered: r.state === "delivered" };
      });
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
  /** Does the checkout page ask for a billing address? */
  checkoutNeedsAddress(id: string): boolean {
    const session = checkoutSession(this.store, id);
    return session ? needsAddress(session) : false;
  }
  /** The customer pays: a test card number, or what the page collected (a card or a test bank account, an address). */
  completeCheckout(id: string, entry: string | CheckoutEntry): PageOutcome {
    const session = checkoutSession(this.store, id);
    const s = onClock(this.store, clockIdOfCustomer(this.store, session ? String(session.customer) : null));
    return this.act(() => completeCheckout(s, id, typeof entry === "string" ? { cardNumber: entry } : entry));
  }
  /** The portal page's view of a session (JSON), or null. */
  portalView(id: string): string | null {
    const view = portalView(this.store, id);
    return view ? JSON.stringify(view) : null;
  }
  portalAction(id: string, action: PortalAction): PageOutcome {
    const view = portalView(this.store, id);
    const s = onClock(this.store, clockIdOfCustomer(this.store, view?.customer ?? null));
    return this.act(() => portalAction(s, id, action));
  }
  invoice(id: string): string | null {
    return json(invoiceOf(this.store, id));
  }
  /** Every line of an invoice (JSON), for its page and PDF. */
  invoiceLines(id: string): string | null {
    const invoice = invoiceOf(this.store, id);
    return invoice ? JSON.stringify(allLines(this.store, invoice)) : null;
  }
  payInvoice(id: string): PageOutcome {
    const invoice = invoiceOf(this.store, id);
    const s = onClock(this.store, clockIdOfCustomer(this.store, invoice ? String(invoice.customer) : null));
    return this.act(() => payInvoice(s, id));
  }

  // ── Test helpers (what Stripe's dashboard and test clocks offer) ─────────────

  /** Puts objects (JSON) into Stripe's books as they are (tests seed fixtures this way); invoices keep ten lines. */
  put(objects: string): void {
    for (const obj of JSON.parse(objects) as (Obj | Stripe.Invoice)[])
      if (isInvoice(obj)) putInvoice(this.store, obj);
      else this.store.put(obj);
  }
  get(id: string): string | null {
    return json(this.store.get(id));
  }
  /** The test clock a customer lives on, and its frozen time. */
  clockOf(customerId: string): { id: string; frozenTime: number } | null {
    const id = clockIdOfCustomer(this.store, customerId);
    return id ? { id, frozenTime: onClock(this.store, id).now() } : null;
  }
  /**
   * Moves a test clock towards `target` up to the next moment something falls due there and runs it (the first step
   * says the clock is advancing), so the caller can deliver each moment's events before the next. True once there.
   */
  advanceClockStep(clockId: string, target: number, first: boolean): boolean {
    return this.act(() => {
      const s = onClock(this.store, clockId);
      const clock = this.store.get<Stripe.TestHelpers.TestClock>(clockId);
      if (!clock || clock.object !== "test_helpers.test_clock") return true;
      const advancing: Stripe.TestHelpers.TestClock = {
        ...clock,
        status: "advancing",
        status_details: { advancing: { target_frozen_time: target } },
      };
      if (first) s.recordEvent("test_helpers.test_clock.advancing", advancing);
      return advanceClock(this.store, clockId, target, true);
    });
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
