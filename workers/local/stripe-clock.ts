/**
 * Local only: Stripe's test clocks in the stand-in. Every customer the stand-in creates lives on its own clock, whose
 * frozen time stamps everything done for that customer; advancing a clock runs what falls due on it in time order,
 * as Stripe does: renewals and their invoices, period ends, payment retries, pending updates and Checkout Sessions
 * that expire, and the stand-in's scheduled steps (refunds and delayed payments that settle, disputes).
 */
import type Stripe from "stripe";
import { addIntervals, billingOfPrice, testClockObject } from "./stripe-objects";
import { expireSession, settleAsyncPayment } from "./stripe-checkout";
import { finalizeDraft, retryInvoice } from "./stripe-invoices";
import { closeDispute, openDispute, settleRefund } from "./stripe-refunds";
import {
  newId,
  noSuch,
  objectOf,
  pageOf,
  stripeError,
  text,
  type Params,
  type StandInStore,
  type StripeObject,
} from "./stripe-store";
import { schedulesDue } from "./stripe-schedules";
import { endDunning, expirePendingUpdate, periodEndReached } from "./stripe-subscriptions";

type Clock = Stripe.TestHelpers.TestClock;
const CLOCK = "test_helpers.test_clock";

// ── Whose time ─────────────────────────────────────────────────────────────

/** The store as seen from a test clock: `now()` is its frozen time and events are stamped with it. */
export function onClock(store: StandInStore, clockId: string | null | undefined): StandInStore {
  if (!clockId || !objectOf<Clock>(store, clockId, CLOCK)) return store;
  const now = () => objectOf<Clock>(store, clockId, CLOCK)?.frozen_time ?? store.now();
  return { ...store, now, recordEvent: (type, object, created) => store.recordEvent(type, object, created ?? now()) };
}

export function clockIdOfCustomer(store: StandInStore, customerId: string | null): string | null {
  const customer = objectOf<Stripe.Customer>(store, customerId, "customer");
  const clock = customer?.test_clock;
  return typeof clock === "string" ? clock : (clock?.id ?? null);
}

/** The store on the clock of the customer being served (real time for a customer on none, as Stripe's are). */
export const onCustomerClock = (store: StandInStore, customerId: string | null) =>
  onClock(store, clockIdOfCustomer(store, customerId));

/** A new clock frozen at `frozenTime` (created now, in real time). */
export function createClock(store: StandInStore, frozenTime: number, name: string | null): Clock {
  const clock = store.put(testClockObject({ id: newId("clock"), created: store.now(), frozenTime, name }));
  store.recordEvent("test_helpers.test_clock.created", clock, clock.created);
  return clock;
}

// ── Scheduled steps ────────────────────────────────────────────────────────

/** Something Stripe does on its own a little later: on the object's clock when advanced (real time without one). */
export type ScheduledAction =
  | { kind: "settle_refund"; refund: string }
  | { kind: "open_dispute"; charge: string }
  | { kind: "close_dispute"; dispute: string; won: boolean }
  | { kind: "settle_async_payment"; session: string };

interface Scheduled extends StripeObject {
  object: "stand_in.scheduled";
  at: number;
  clock: string | null;
  action: ScheduledAction;
}

/** Schedules `action` at `at` on the clock of `store` (which the caller scoped to the customer concerned). */
export function schedule(store: StandInStore, clockId: string | null, at: number, action: ScheduledAction): void {
  store.put<Scheduled>({ id: newId("sched"), object: "stand_in.scheduled", at, clock: clockId, action });
}

function runScheduled(store: StandInStore, item: Scheduled): void {
  store.remove(item.id);
  const s = onClock(store, item.clock);
  const { action } = item;
  if (action.kind === "settle_refund") settleRefund(s, action.refund);
  else if (action.kind === "open_dispute") openDispute(s, action.charge);
  else if (action.kind === "close_dispute") closeDispute(s, action.dispute, action.won);
  else settleAsyncPayment(s, action.session);
}

/**
 * Runs the scheduled steps already due on their own clocks (a dispute opened after a payment, closed after its
 * evidence): the stand-in object calls this after every request, as Stripe acts on its own a moment later.
 */
export function runDueNow(store: StandInStore): void {
  for (let pass = 0; pass < MAX_STEPS; pass++) {
    const due = store
      .ofType<Scheduled>("stand_in.scheduled")
      .filter((s) => s.at <= onClock(store, s.clock).now())
      .sort((a, b) => a.at - b.at)[0];
    if (!due) return;
    runScheduled(store, due);
  }
}

/** A guard against a loop: an advance or a request never runs more steps than this. */
const MAX_STEPS = 2000;

// ── What falls due on a clock ──────────────────────────────────────────────

interface Due {
  at: number;
  run: (s: StandInStore) => void;
}

function dueOn(store: StandInStore, clockId: string): Due[] {
  const customers = new Set(
    store
      .ofType<Stripe.Customer>("customer")
      .filter((c) => c.test_clock === clockId)
      .map((c) => c.id),
  );
  const mine = (o: { customer: string | { id: string } | null }) =>
    customers.has(typeof o.customer === "string" ? o.customer : (o.customer?.id ?? ""));
  const due: Due[] = [];
  for (const item of store.ofType<Scheduled>("stand_in.scheduled"))
    if (item.clock === clockId) due.push({ at: item.at, run: () => runScheduled(store, item) });
  // A schedule's phase ends before the period end at the same moment: it decides what the next period is.
  due.push(...schedulesDue(store, store.ofType<Stripe.Subscription>("subscription").filter(mine)));
  for (const sub of store.ofType<Stripe.Subscription>("subscription").filter(mine)) {
    if (!["active", "past_due", "trialing"].includes(sub.status)) continue;
    const item = sub.items.data[0];
    if (sub.pending_update) due.push({ at: sub.pending_update.expires_at, run: (s) => expirePendingUpdate(s, sub) });
    if (item) due.push({ at: item.current_period_end, run: (s) => periodEndReached(s, sub.id) });
  }
  for (const invoice of store.ofType<Stripe.Invoice>("invoice").filter(mine)) {
    if (invoice.status === "draft" && invoice.automatically_finalizes_at)
      due.push({ at: invoice.automatically_finalizes_at, run: (s) => finalizeDraft(s, invoice.id) });
    if (invoice.status === "open" && invoice.next_payment_attempt)
      due.push({ at: invoice.next_payment_attempt, run: (s) => retryInvoice(s, invoice.id) });
  }
  for (const sub of store.ofType<Stripe.Subscription>("subscription").filter(mine))
    if (sub.status === "past_due") {
      const end = dunningEnd(store, sub);
      if (end !== null) due.push({ at: end, run: (s) => endDunning(s, sub.id) });
    }
  for (const session of store.ofType<Stripe.Checkout.Session>("checkout.session").filter(mine))
    if (session.status === "open") due.push({ at: session.expires_at, run: (s) => expireSession(s, session.id) });
  return due;
}

/** When a past-due subscription whose retries are spent is cancelled (Stripe's default after the last retry). */
function dunningEnd(store: StandInStore, sub: Stripe.Subscription): number | null {
  const invoice =
    typeof sub.latest_invoice === "string" ? objectOf<Stripe.Invoice>(store, sub.latest_invoice, "invoice") : null;
  if (!invoice || invoice.status !== "open" || invoice.next_payment_attempt) return null;
  const last = invoice.status_transitions.finalized_at ?? invoice.created;
  return last + DUNNING_SECONDS;
}

/** A failed renewal is retried for two weeks (retryInvoice's schedule), then the subscription is cancelled. */
export const DUNNING_SECONDS = 14 * 86_400;

/**
 * Moves a clock towards `target`, running what falls due in time order. With `oneStep`, it stops after the first
 * moment anything fell due (so the caller can deliver that moment's events first) and says whether it reached the
 * target.
 */
export function advanceClock(store: StandInStore, clockId: string, target: number, oneStep = false): boolean {
  const s = onClock(store, clockId);
  for (let step = 0; step < MAX_STEPS; step++) {
    const clock = objectOf<Clock>(store, clockId, CLOCK);
    if (!clock) return true;
    const next = dueOn(store, clockId)
      .filter((d) => d.at <= target)
      .sort((a, b) => a.at - b.at)[0];
    if (!next) break;
    store.put({ ...clock, frozen_time: Math.max(clock.frozen_time, next.at) } satisfies Clock);
    next.run(s);
    if (oneStep && dueOn(store, clockId).every((d) => d.at > Math.max(clock.frozen_time, next.at))) return false;
  }
  const clock = objectOf<Clock>(store, clockId, CLOCK);
  if (clock) {
    const ready = store.put({ ...clock, frozen_time: target, status: "ready", status_details: {} } satisfies Clock);
    s.recordEvent("test_helpers.test_clock.ready", ready);
  }
  return true;
}

// ── The test clock API ─────────────────────────────────────────────────────

/** The furthest a clock may move at once: two intervals of its shortest subscription, else two years (Stripe's rule). */
function advanceLimit(store: StandInStore, clock: Clock): number {
  const subs = store
    .ofType<Stripe.Subscription>("subscription")
    .filter((sub) => ["active", "past_due", "trialing"].includes(sub.status))
    .filter((sub) => objectOf<Stripe.Customer>(store, String(sub.customer), "customer")?.test_clock === clock.id);
  const monthly = subs.some((sub) => sub.items.data[0] && billingOfPrice(sub.items.data[0].price) === "monthly");
  return addIntervals(clock.frozen_time, monthly ? "monthly" : "yearly", 2);
}

export function testClocksApi(
  store: StandInStore,
  method: string,
  id: string | undefined,
  action: string | undefined,
  params: Params,
  search: URLSearchParams,
): Response {
  if (method === "POST" && !id) {
    const frozen = Number(params.frozen_time);
    if (!Number.isInteger(frozen) || frozen <= 0)
      return stripeError(400, "Missing required param: frozen_time.", { param: "frozen_time" });
    return Response.json(createClock(store, frozen, text(params.name)));
  }
  if (method === "GET" && !id) {
    const clocks = store.ofType<Clock>(CLOCK).reverse();
    const page = pageOf("/v1/test_helpers/test_clocks", clocks, search);
    return page instanceof Response ? page : Response.json(page);
  }
  const clock = id ? objectOf<Clock>(store, id, CLOCK) : null;
  if (!id || !clock) return noSuch("test_clock", String(id));
  if (method === "GET" && !action) return Response.json(clock);
  if (method === "POST" && action === "advance") {
    const target = Number(params.frozen_time);
    if (!Number.isInteger(target) || target <= clock.frozen_time)
      return stripeError(400, "The frozen_time must be after the test clock's current frozen time.", {
        param: "frozen_time",
      });
    if (target > advanceLimit(store, clock))
      return stripeError(
        400,
        "Cannot advance the test clock more than two intervals past the shortest subscription interval on it (two years when it has no subscription).",
        { param: "frozen_time" },
      );
    const advancing: Clock = {
      ...clock,
      status: "advancing",
      status_details: { advancing: { target_frozen_time: target } },
    };
    onClock(store, clock.id).recordEvent("test_helpers.test_clock.advancing", advancing);
    advanceClock(store, clock.id, target);
    // Stripe answers at once with the clock advancing; its `ready` event (and a later read) says when it is done.
    return Response.json(advancing);
  }
  return stripeError(404, `Unrecognized request URL (${method}: /v1/test_helpers/test_clocks/${id}/${action ?? ""}).`);
}
