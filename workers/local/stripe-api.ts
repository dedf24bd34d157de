/**
 * Local only: the Stripe API as far as ClipCut calls it (and its tests drive it), answered at the SDK's fetch
 * boundary with Stripe's shapes (API version 2026-10-28.endive), over the stand-in's own storage (stand-in-object.ts).
 * This file routes each request, on the test clock of the customer it concerns, to the part that answers it:
 * stripe-checkout.ts, stripe-subscriptions.ts, stripe-invoices.ts, stripe-refunds.ts, stripe-portal.ts,
 * stripe-clock.ts. The events Stripe would send are recorded; the local entry signs them and posts them to
 * /webhooks/stripe. Card data is never stored.
 */
import type Stripe from "stripe";
import { CREDIT_PACKS, PAID_PLAN_IDS, priceLookupKey, type Billing } from "../../app/domain/plans";
import { createSession, expireSessionApi, lineItemsOf, listSessionLineItems, listSessions } from "./stripe-checkout";
import { createClock, onClock, onCustomerClock, testClocksApi } from "./stripe-clock";
import { listInvoices, listLines } from "./stripe-invoices";
import { customerObject, list, priceObject } from "./stripe-objects";
import { configurationsApi, createPortalSession } from "./stripe-portal";
import { acceptDispute, createRefund, listDisputes, listRefunds, updateDispute } from "./stripe-refunds";
import {
  idOf,
  newId,
  noSuch,
  objectOf,
  pageOf,
  paramsOf,
  priceById,
  queryValues,
  stringRecord,
  stripeError,
  text,
  type Obj,
  type Params,
  type StandInStore,
  type StripeObject,
} from "./stripe-store";
import { createSchedule, releaseSchedule, scheduleOf, updateSchedule } from "./stripe-schedules";
import { cancelNow, expirePendingUpdate, subscriptionOf, updateSubscription } from "./stripe-subscriptions";

export {
  API_VERSION,
  LOCAL_ORIGIN_PLACEHOLDER,
  newId,
  parseStripeForm,
  STAND_IN_MARKER,
  stripeError,
  type Obj,
  type Params,
  type StandInStore,
  type StripeObject,
} from "./stripe-store";

// ── Prices: built from app/domain/plans.ts, as a deploy creates them (docs/payments.md) ────────

const ALL_LOOKUP_KEYS = [
  ...PAID_PLAN_IDS.flatMap((p) => (["monthly", "yearly"] as Billing[]).map((b) => priceLookupKey(p, b))),
  ...CREDIT_PACKS.map((p) => p.id),
];

// ── Reading objects ────────────────────────────────────────────────────────

/** The object type behind each resource a GET by id may read. */
const TYPES: Record<string, string> = {
  customers: "customer",
  "checkout/sessions": "checkout.session",
  refunds: "refund",
  disputes: "dispute",
  invoices: "invoice",
  subscriptions: "subscription",
  subscription_schedules: "subscription_schedule",
  payment_intents: "payment_intent",
  charges: "charge",
  payment_methods: "payment_method",
};

/** The object with the asked-for paths (`a`, `a.b`) replaced by the objects they name, as Stripe's `expand` does. */
function expandPath(store: StandInStore, value: unknown, path: string[]): unknown {
  if (!value || typeof value !== "object") return value;
  const [head, ...tail] = path;
  if (!head) return value;
  const obj = { ...(value as Obj) };
  let next: unknown = obj[head];
  if (head === "line_items" && obj.object === "checkout.session")
    next = list(`/v1/checkout/sessions/${obj.id}/line_items`, lineItemsOf(store, obj.id));
  else if (typeof next === "string") next = (next.startsWith("price_") ? priceById(next) : store.get(next)) ?? next;
  if (tail.length > 0)
    next = Array.isArray(next)
      ? next.map((x) => expandPath(store, x, tail))
      : next && typeof next === "object" && (next as Obj).object === "list"
        ? { ...(next as Obj), data: ((next as { data: unknown[] }).data ?? []).map((x) => expandPath(store, x, tail)) }
        : expandPath(store, next, tail);
  obj[head] = next;
  return obj;
}

export const expander = (store: StandInStore, paths: unknown) => (obj: StripeObject) =>
  (Array.isArray(paths) ? paths : []).reduce<unknown>(
    (o, p) => expandPath(store, o, String(p).split(".")),
    obj,
  ) as StripeObject;

const json = (page: Stripe.ApiList<unknown> | Response) => (page instanceof Response ? page : Response.json(page));

// ── Customers ────────────────────────────────────────────────────────────────

/** A customer on its own new test clock (or the one named), so that its time can be advanced. */
function createCustomer(store: StandInStore, params: Params): Response {
  const named = text(params.test_clock);
  if (named && !objectOf(store, named, "test_helpers.test_clock")) return noSuch("test_clock", named);
  const clock = named ?? createClock(store, store.now(), null).id;
  const s = onClock(store, clock);
  const customer = s.put(
    customerObject({
      id: newId("cus"),
      created: s.now(),
      email: text(params.email),
      name: text(params.name),
      metadata: stringRecord(params.metadata) ?? {},
      testClock: clock,
    }),
  );
  s.recordEvent("customer.created", customer);
  return Response.json(customer);
}

function updateCustomer(store: StandInStore, customer: Stripe.Customer, params: Params): Response {
  const address = paramsOf(params.address);
  const updated = store.put({
    ...customer,
    email: text(params.email) ?? customer.email,
    name: text(params.name) ?? customer.name,
    metadata: { ...customer.metadata, ...(stringRecord(params.metadata) ?? {}) },
    ...(params.address === undefined
      ? {}
      : {
          address: {
            city: text(address.city),
            country: text(address.country),
            line1: text(address.line1),
            line2: text(address.line2),
            postal_code: text(address.postal_code),
            state: text(address.state),
          },
        }),
  } satisfies Stripe.Customer);
  store.recordEvent("customer.updated", updated);
  return Response.json(updated);
}

// ── The router ─────────────────────────────────────────────────────────────

/** Answers one SDK request the way Stripe would; unknown calls get Stripe's 404 shape. */
export function answer(store: StandInStore, method: string, url: URL, params: Params): Response {
  const path = url.pathname.replace(/\/+$/, "");
  const parts = path.split("/").slice(2);
  // Two-part resources (checkout/sessions, billing_portal/…, test_helpers/test_clocks) read as one name.
  const twoPart = ["checkout", "billing_portal", "test_helpers"].includes(parts[0] ?? "");
  const resource = twoPart ? `${parts[0]}/${parts[1]}` : (parts[0] ?? "");
  const [id, action] = twoPart ? parts.slice(2) : parts.slice(1);
  const search = url.searchParams;
  const expandParam = method === "GET" ? queryValues(search, "expand") : params.expand;
  const expand = expander(store, expandParam);
  const POST = method === "POST";
  const GET = method === "GET";

  if (resource === "test_helpers/test_clocks") return testClocksApi(store, method, id, action, params, search);
  if (resource === "customers" && POST && !id) return createCustomer(store, params);
  if (resource === "customers" && POST && id && !action) {
    const customer = objectOf<Stripe.Customer>(store, id, "customer");
    return customer ? updateCustomer(onCustomerClock(store, id), customer, params) : noSuch("customer", id);
  }
  if (resource === "prices" && GET && !id) {
    const keys = queryValues(search, "lookup_keys").filter((k) => ALL_LOOKUP_KEYS.includes(k));
    return Response.json(list("/v1/prices", keys.map(priceObject)));
  }
  if (resource === "prices" && GET && id) {
    const price = priceById(id);
    return price ? Response.json(price) : noSuch("price", id);
  }
  if (resource === "checkout/sessions") {
    if (POST && !id) return createSession(onCustomerClock(store, text(params.customer)), params);
    if (GET && !id) return listSessions(store, search);
    if (GET && id && action === "line_items") return listSessionLineItems(store, id, search);
    if (POST && id && action === "expire") {
      const session = objectOf<Stripe.Checkout.Session>(store, id, "checkout.session");
      return expireSessionApi(onCustomerClock(store, idOf(session?.customer)), id);
    }
  }
  if (resource === "billing_portal/sessions" && POST && !id)
    return createPortalSession(onCustomerClock(store, text(params.customer)), params);
  if (resource === "billing_portal/configurations" && !action)
    return configurationsApi(store, method, id, params, search);
  if (resource === "refunds" && POST && !id) {
    const pi = objectOf<Stripe.PaymentIntent>(store, text(params.payment_intent), "payment_intent");
    const charge = objectOf<Stripe.Charge>(store, idOf(pi?.latest_charge) ?? text(params.charge), "charge");
    return createRefund(onCustomerClock(store, idOf(charge?.customer)), params);
  }
  if (resource === "refunds" && GET && !id) return listRefunds(store, search);
  if (resource === "disputes") {
    if (GET && !id) return listDisputes(store, search);
    const dispute = objectOf<Stripe.Dispute>(store, id ?? null, "dispute");
    const charge = objectOf<Stripe.Charge>(store, idOf(dispute?.charge), "charge");
    const s = onCustomerClock(store, idOf(charge?.customer));
    if (POST && id && !action) return updateDispute(s, id, params);
    if (POST && id && action === "close") return acceptDispute(s, id);
  }
  if (resource === "invoices" && GET && !id) return listInvoices(store, search);
  if (resource === "invoices" && GET && id && action === "lines") return listLines(store, id, search);
  if (resource === "subscriptions" && GET && !id) {
    const [customer, status] = [search.get("customer"), search.get("status")];
    const subs = store
      .ofType<Stripe.Subscription>("subscription")
      .filter((s) => (!customer || s.customer === customer) && (!status || status === "all" || s.status === status))
      .reverse();
    return json(pageOf("/v1/subscriptions", subs, search));
  }
  if (resource === "subscriptions" && id && !action && (POST || method === "DELETE")) {
    const sub = subscriptionOf(store, id);
    if (!sub) return noSuch("subscription", id);
    const s = onCustomerClock(store, idOf(sub.customer));
    return POST ? updateSubscription(s, sub, params, expand) : Response.json(expand(cancelNow(s, sub)));
  }
  if (resource === "subscription_schedules" && POST) return schedulesApi(store, id, action, params, expand);
  if (resource === "events" && GET) {
    const types = [...queryValues(search, "types"), ...queryValues(search, "type")];
    const events = store.events(types.length > 0 ? types : null);
    if (!id) return json(pageOf("/v1/events", events, search));
    const event = events.find((e) => e.id === id);
    return event ? Response.json(event) : noSuch("event", id);
  }
  const type = TYPES[resource];
  if (type && GET && id && !action) {
    const found = objectOf<Obj>(store, id, type);
    if (!found) return noSuch(type, id);
    // A pending update past its expiry is gone when next read (its clock may have passed it without an advance).
    const sub = type === "subscription" ? subscriptionOf(store, id) : null;
    const obj = sub ? expirePendingUpdate(onCustomerClock(store, idOf(sub.customer)), sub) : found;
    return Response.json(expand(obj));
  }
  return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
}

/** Subscription schedules, on the clock of the customer whose subscription they manage (stripe-schedules.ts). */
function schedulesApi(
  store: StandInStore,
  id: string | undefined,
  action: string | undefined,
  params: Params,
  expand: (obj: StripeObject) => StripeObject,
): Response {
  if (!id) {
    const sub = subscriptionOf(store, text(params.from_subscription));
    return createSchedule(onCustomerClock(store, idOf(sub?.customer)), sub, params);
  }
  const schedule = scheduleOf(store, id);
  if (!schedule) return noSuch("subscription_schedule", id);
  const s = onCustomerClock(store, idOf(schedule.customer));
  if (!action) return updateSchedule(s, schedule, params);
  if (action === "release") {
    const released = releaseSchedule(s, schedule);
    return released instanceof Response ? released : Response.json(expand(released));
  }
  if (action === "cancel") {
    if (schedule.status !== "active")
      return stripeError(
        400,
        `You cannot cancel a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    // Cancelling a schedule cancels its subscription at once, which cancels the schedule (stripe-schedules.ts).
    const sub = subscriptionOf(s, idOf(schedule.subscription));
    if (sub) cancelNow(s, sub);
    return Response.json(expand(scheduleOf(s, id) ?? schedule));
  }
  return stripeError(404, `Unrecognized request URL (POST: /v1/subscription_schedules/${id}/${action}).`);
}
