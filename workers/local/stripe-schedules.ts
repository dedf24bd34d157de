/**
 * Local only: subscription schedules in the stand-in, as far as ClipCut uses them — a schedule made from a running
 * subscription (its current period as the first phase), updated with the phase that follows it, released or
 * cancelled. When the first phase ends (at the subscription's period end) the subscription moves to the next phase's
 * price: an interval change starts a new billing cycle there; the period's invoice is drafted like a renewal's
 * (finalized and charged an hour later). At the end of the last phase the schedule releases the subscription.
 * Stripe's behaviour: docs.stripe.com/billing/subscriptions/subscription-schedules.
 */
import type Stripe from "stripe";
import { createInvoice } from "./stripe-invoices";
import {
  addIntervals,
  billingOfPrice,
  nextPeriodEnd,
  periodEnd,
  schedulePhaseObject,
  subscriptionItemObject,
  subscriptionScheduleObject,
} from "./stripe-objects";
import { wholePeriod } from "./stripe-prorations";
import {
  idOf,
  newId,
  noSuch,
  objectOf,
  paramsOf,
  priceById,
  stripeError,
  text,
  type Params,
  type StandInStore,
  type StripeObject,
} from "./stripe-store";

type Schedule = Stripe.SubscriptionSchedule;
type Phase = Stripe.SubscriptionSchedule.Phase;
const SCHEDULE = "subscription_schedule";
const RUNNING = ["active", "trialing", "past_due"];
const PRORATIONS = ["always_invoice", "create_prorations", "none"];

export const scheduleOf = (store: StandInStore, id: string | null) => objectOf<Schedule>(store, id, SCHEDULE);

/** The schedule managing a subscription now, if any (an ended or released one manages nothing). */
export function activeScheduleOf(store: StandInStore, sub: Stripe.Subscription): Schedule | null {
  const schedule = scheduleOf(store, idOf(sub.schedule));
  return schedule && schedule.status === "active" ? schedule : null;
}

const phasePrice = (phase: Phase) => priceById(String(idOf(phase.items[0]?.price ?? null)));

// ── The API ────────────────────────────────────────────────────────────────

/** `POST /v1/subscription_schedules` with `from_subscription`: the subscription's current period is the first phase. */
export function createSchedule(store: StandInStore, sub: Stripe.Subscription | null, params: Params): Response {
  const from = text(params.from_subscription);
  if (!from)
    return stripeError(400, "The local stand-in only makes schedules from a subscription: pass from_subscription.", {
      param: "from_subscription",
    });
  if (!sub) return noSuch("subscription", from);
  if (!RUNNING.includes(sub.status))
    return stripeError(400, `This subscription is ${sub.status}: a schedule cannot be made from it.`);
  if (activeScheduleOf(store, sub))
    return stripeError(
      400,
      `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
      {
        param: "from_subscription",
      },
    );
  const item = sub.items.data[0]!;
  const schedule = store.put(
    subscriptionScheduleObject({
      id: newId("sub_sched"),
      created: store.now(),
      subscription: sub,
      phase: schedulePhaseObject({
        price: item.price,
        quantity: item.quantity ?? 1,
        start: item.current_period_start,
        end: item.current_period_end,
        proration: "create_prorations",
      }),
    }),
  );
  const managed = store.put({ ...sub, schedule: schedule.id } satisfies Stripe.Subscription);
  store.recordEvent("subscription_schedule.created", schedule);
  store.recordEvent("customer.subscription.updated", managed);
  return Response.json(schedule);
}

/** A phase as sent (`items[0][price]`, `start_date`, `end_date`, `proration_behavior`), read after `previous`. */
function phaseOf(raw: unknown, i: number, previous: Phase | null): Phase | Response {
  const p = paramsOf(raw);
  const items = Array.isArray(p.items) ? p.items.map(paramsOf) : [];
  if (items.length !== 1)
    return stripeError(400, "The local stand-in keeps phases of exactly one item.", { param: `phases[${i}][items]` });
  const priceId = text(items[0]!.price);
  const price = priceId ? priceById(priceId) : null;
  if (!price?.recurring)
    return stripeError(400, `No such price: '${priceId}'`, { param: `phases[${i}][items][0][price]` });
  const quantity = items[0]!.quantity === undefined ? 1 : Number(items[0]!.quantity);
  if (!Number.isInteger(quantity) || quantity < 1)
    return stripeError(400, "Invalid positive integer", { param: `phases[${i}][items][0][quantity]` });
  const proration = text(p.proration_behavior) ?? "create_prorations";
  if (!PRORATIONS.includes(proration))
    return stripeError(400, `Invalid proration_behavior: ${proration}`, { param: `phases[${i}][proration_behavior]` });
  const start = p.start_date === undefined ? (previous?.end_date ?? NaN) : Number(p.start_date);
  if (!Number.isInteger(start))
    return stripeError(400, "The first phase needs a start_date.", { param: `phases[${i}][start_date]` });
  if (previous && start !== previous.end_date)
    return stripeError(400, `Phase ${i}'s start_date must be the end_date of the phase before it.`, {
      param: `phases[${i}][start_date]`,
    });
  // A phase ends at its end_date, or after its duration (months or years); else one interval of its price.
  const duration = p.duration === undefined ? null : paramsOf(p.duration);
  const count = Number(duration?.interval_count ?? 1);
  if (duration && (!["month", "year"].includes(String(duration.interval)) || !Number.isInteger(count) || count < 1))
    return stripeError(400, "The local stand-in keeps durations of whole months or years.", {
      param: `phases[${i}][duration]`,
    });
  const end =
    p.end_date !== undefined
      ? Number(p.end_date)
      : duration
        ? addIntervals(start, duration.interval === "year" ? "yearly" : "monthly", count)
        : periodEnd(start, billingOfPrice(price));
  if (!Number.isInteger(end) || end <= start)
    return stripeError(400, "A phase's end_date must be after its start_date.", { param: `phases[${i}][end_date]` });
  return schedulePhaseObject({
    price,
    quantity,
    start,
    end,
    proration: proration as Stripe.SubscriptionSchedule.Phase.ProrationBehavior,
  });
}

/** `POST /v1/subscription_schedules/:id`: the phases from the current one on, and what happens after the last. */
export function updateSchedule(store: StandInStore, schedule: Schedule, params: Params): Response {
  if (schedule.status !== "active")
    return stripeError(
      400,
      `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`,
    );
  const endBehavior = text(params.end_behavior) ?? schedule.end_behavior;
  if (endBehavior !== "release")
    return stripeError(400, "The local stand-in only ends schedules by releasing them (end_behavior release).", {
      param: "end_behavior",
    });
  let phases = schedule.phases;
  if (params.phases !== undefined) {
    const raw = Array.isArray(params.phases) ? params.phases : [];
    if (raw.length < 1 || raw.length > 2)
      return stripeError(400, "The local stand-in keeps one or two phases: the current one and the next.", {
        param: "phases",
      });
    phases = [];
    for (const [i, r] of raw.entries()) {
      const phase = phaseOf(r, i, phases[i - 1] ?? null);
      if (phase instanceof Response) return phase;
      phases.push(phase);
    }
    const [first] = phases;
    const current = schedule.current_phase;
    if (current && first!.start_date !== current.start_date)
      return stripeError(400, "You can not modify the start date of the current phase.", {
        param: "phases[0][start_date]",
      });
    const sub = objectOf<Stripe.Subscription>(store, idOf(schedule.subscription), "subscription");
    const item = sub?.items.data[0];
    if (!item || phasePrice(first!)?.id !== item.price.id || first!.end_date !== item.current_period_end)
      return stripeError(
        400,
        "The local stand-in keeps the current phase as the subscription has it: its price, until its period end.",
        { param: "phases[0]" },
      );
  }
  const updated = store.put({
    ...schedule,
    phases,
    end_behavior: endBehavior,
    current_phase: { start_date: phases[0]!.start_date, end_date: phases[0]!.end_date },
  } satisfies Schedule);
  store.recordEvent("subscription_schedule.updated", updated);
  return Response.json(updated);
}

/**
 * `POST /v1/subscription_schedules/:id/release`: the schedule stops managing the subscription, which stays as it
 * is now (its phases to come are dropped).
 */
export function releaseSchedule(store: StandInStore, schedule: Schedule): Schedule | Response {
  if (schedule.status !== "active" && schedule.status !== "not_started")
    return stripeError(
      400,
      `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`,
    );
  const subId = idOf(schedule.subscription);
  const released = store.put({
    ...schedule,
    status: "released",
    released_at: store.now(),
    released_subscription: subId,
    subscription: null,
    current_phase: null,
  } satisfies Schedule);
  store.recordEvent("subscription_schedule.released", released);
  const sub = objectOf<Stripe.Subscription>(store, subId, "subscription");
  if (sub) store.recordEvent("customer.subscription.updated", store.put({ ...sub, schedule: null }));
  return released;
}

/** The subscription a schedule managed ended (cancelled now, or by the schedule's cancel): so does the schedule. */
export function subscriptionEnded(store: StandInStore, sub: Stripe.Subscription): void {
  const schedule = activeScheduleOf(store, sub);
  if (!schedule) return;
  const canceled = store.put({
    ...schedule,
    status: "canceled",
    canceled_at: store.now(),
    current_phase: null,
  } satisfies Schedule);
  store.recordEvent("subscription_schedule.canceled", canceled);
}

// ── Time ───────────────────────────────────────────────────────────────────

/**
 * The current phase ended: the subscription moves to the next phase's price from here (a new billing cycle when the
 * interval changes) and its invoice for the new period is drafted as a renewal's is; without a next phase the
 * schedule releases the subscription.
 */
export function phaseEnded(store: StandInStore, scheduleId: string): void {
  const schedule = scheduleOf(store, scheduleId);
  const sub = schedule ? objectOf<Stripe.Subscription>(store, idOf(schedule.subscription), "subscription") : null;
  if (!schedule || schedule.status !== "active" || !schedule.current_phase) return;
  const at = schedule.current_phase.end_date;
  const nextIndex = schedule.phases.findIndex((p) => p.start_date === at);
  const next = nextIndex >= 0 ? schedule.phases[nextIndex]! : null;
  const price = next ? phasePrice(next) : null;
  const item = sub?.items.data[0];
  if (!sub || !next || !price || !item || !RUNNING.includes(sub.status)) {
    const released = releaseSchedule(store, schedule);
    if (!(released instanceof Response) && sub) store.put({ ...sub, schedule: null });
    return;
  }
  const billing = billingOfPrice(price);
  const intervalChanged = billing !== billingOfPrice(item.price);
  const anchor = intervalChanged ? at : sub.billing_cycle_anchor;
  const newItem = subscriptionItemObject({
    id: item.id,
    subscription: sub.id,
    price,
    created: item.created,
    periodStart: at,
    periodEnd: intervalChanged ? periodEnd(at, billing) : nextPeriodEnd(anchor, billing, at),
  });
  const moved: Stripe.Subscription = { ...sub, billing_cycle_anchor: anchor, items: { ...sub.items, data: [newItem] } };
  const draft = createInvoice(store, moved, "subscription_cycle", [wholePeriod(item.id, price, at, newItem)], true);
  const updated = store.put({ ...moved, latest_invoice: draft.id } satisfies Stripe.Subscription);
  const advanced = store.put({
    ...schedule,
    current_phase: { start_date: next.start_date, end_date: next.end_date },
  } satisfies Schedule);
  store.recordEvent("subscription_schedule.updated", advanced);
  store.recordEvent("customer.subscription.updated", updated);
}

/** What falls due for the active schedules among `subs`: the end of each one's current phase. */
export function schedulesDue(store: StandInStore, subs: Stripe.Subscription[]) {
  return subs.flatMap((sub) => {
    const schedule = activeScheduleOf(store, sub);
    const end = schedule?.current_phase?.end_date;
    return schedule && end !== undefined ? [{ at: end, run: (s: StandInStore) => phaseEnded(s, schedule.id) }] : [];
  });
}

export type { StripeObject };
