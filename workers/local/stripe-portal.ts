/**
 * Local only: the Customer Portal in the stand-in — its configurations (`/v1/billing_portal/configurations`, so the
 * merchant's code can create the one it needs; a default one stands for the Dashboard's settings), its sessions, and
 * what the customer does on the stand-in's portal page as the configuration allows: replace the card, cancel (at
 * the period end or at once) or renew, read the invoice history.
 */
import type Stripe from "stripe";
import { savePaymentMethod, testCard } from "./stripe-cards";
import { portalConfigurationObject, portalSessionObject, type PortalFeatures } from "./stripe-objects";
import {
  LOCAL_ORIGIN_PLACEHOLDER,
  newId,
  noSuch,
  objectOf,
  pageOf,
  paramsOf,
  stringRecord,
  stripeError,
  text,
  type Params,
  type StandInStore,
} from "./stripe-store";
import { cancelNow, updateSubscription } from "./stripe-subscriptions";

type Configuration = Stripe.BillingPortal.Configuration;
const CONFIGURATION = "billing_portal.configuration";

/** The configuration a portal session gets when none is named: docs/payments.md's Dashboard settings. */
const DEFAULT_ID = "bpc_local";

function defaultConfiguration(store: StandInStore): Configuration {
  const known = objectOf<Configuration>(store, DEFAULT_ID, CONFIGURATION);
  if (known) return known;
  return store.put(
    portalConfigurationObject({
      id: DEFAULT_ID,
      created: store.now(),
      updated: store.now(),
      isDefault: true,
      active: true,
      features: {
        customerUpdate: { enabled: false, allowedUpdates: [] },
        invoiceHistory: true,
        paymentMethodUpdate: true,
        subscriptionCancel: { enabled: true, mode: "at_period_end", prorationBehavior: "none" },
        subscriptionUpdate: false,
      },
      defaultReturnUrl: null,
      headline: null,
      privacyPolicyUrl: null,
      termsOfServiceUrl: null,
      metadata: {},
      name: null,
    }),
  );
}

const flag = (v: unknown, fallback: boolean) => (v === undefined ? fallback : v === "true");

/** The features of a create or update request, over `base`'s. */
function featuresOf(params: Params, base: PortalFeatures | null): PortalFeatures | Response {
  const f = paramsOf(params.features);
  const cancel = paramsOf(f.subscription_cancel);
  const update = paramsOf(f.customer_update);
  const mode = cancel.mode ?? base?.subscriptionCancel.mode ?? "at_period_end";
  if (mode !== "at_period_end" && mode !== "immediately")
    return stripeError(400, "Invalid features[subscription_cancel][mode]: must be at_period_end or immediately.", {
      param: "features[subscription_cancel][mode]",
    });
  const allowed = Array.isArray(update.allowed_updates) ? update.allowed_updates.map(String) : null;
  return {
    customerUpdate: {
      enabled: flag(update.enabled, base?.customerUpdate.enabled ?? false),
      allowedUpdates: allowed ?? base?.customerUpdate.allowedUpdates ?? [],
    },
    invoiceHistory: flag(paramsOf(f.invoice_history).enabled, base?.invoiceHistory ?? false),
    paymentMethodUpdate: flag(paramsOf(f.payment_method_update).enabled, base?.paymentMethodUpdate ?? false),
    subscriptionCancel: {
      enabled: flag(cancel.enabled, base?.subscriptionCancel.enabled ?? false),
      mode,
      prorationBehavior: text(cancel.proration_behavior) ?? base?.subscriptionCancel.prorationBehavior ?? "none",
    },
    subscriptionUpdate: flag(paramsOf(f.subscription_update).enabled, base?.subscriptionUpdate ?? false),
  };
}

const featuresFrom = (c: Configuration): PortalFeatures => ({
  customerUpdate: {
    enabled: c.features.customer_update.enabled,
    allowedUpdates: c.features.customer_update.allowed_updates,
  },
  invoiceHistory: c.features.invoice_history.enabled,
  paymentMethodUpdate: c.features.payment_method_update.enabled,
  subscriptionCancel: {
    enabled: c.features.subscription_cancel.enabled,
    mode: c.features.subscription_cancel.mode === "immediately" ? "immediately" : "at_period_end",
    prorationBehavior: c.features.subscription_cancel.proration_behavior,
  },
  subscriptionUpdate: c.features.subscription_update.enabled,
});

/** `/v1/billing_portal/configurations[/:id]`: create, list, read and update. */
export function configurationsApi(
  store: StandInStore,
  method: string,
  id: string | undefined,
  params: Params,
  search: URLSearchParams,
): Response {
  defaultConfiguration(store);
  if (method === "GET" && !id) {
    const [active, isDefault] = [search.get("active"), search.get("is_default")];
    const all = store
      .ofType<Configuration>(CONFIGURATION)
      .filter(
        (c) =>
          (active === null || String(c.active) === active) &&
          (isDefault === null || String(c.is_default) === isDefault),
      )
      .reverse();
    const page = pageOf("/v1/billing_portal/configurations", all, search);
    return page instanceof Response ? page : Response.json(page);
  }
  const current = id ? objectOf<Configuration>(store, id, CONFIGURATION) : null;
  if (id && !current) return noSuch("configuration", id);
  if (method === "GET" && current) return Response.json(current);
  if (method !== "POST") return stripeError(404, `Unrecognized request URL (${method}).`);
  if (!current && params.features === undefined)
    return stripeError(400, "Missing required param: features.", { param: "features" });
  const features = featuresOf(params, current ? featuresFrom(current) : null);
  if (features instanceof Response) return features;
  const profile = paramsOf(params.business_profile);
  const t = store.now();
  const saved = store.put(
    portalConfigurationObject({
      id: current?.id ?? newId("bpc"),
      created: current?.created ?? t,
      updated: t,
      isDefault: current?.is_default ?? false,
      active: flag(params.active, current?.active ?? true),
      features,
      defaultReturnUrl: text(params.default_return_url) ?? current?.default_return_url ?? null,
      headline: text(profile.headline) ?? current?.business_profile.headline ?? null,
      privacyPolicyUrl: text(profile.privacy_policy_url) ?? current?.business_profile.privacy_policy_url ?? null,
      termsOfServiceUrl: text(profile.terms_of_service_url) ?? current?.business_profile.terms_of_service_url ?? null,
      metadata: { ...(current?.metadata ?? {}), ...(stringRecord(params.metadata) ?? {}) },
      name: text(params.name) ?? current?.name ?? null,
    }),
  );
  store.recordEvent(current ? "billing_portal.configuration.updated" : "billing_portal.configuration.created", saved);
  return Response.json(saved);
}

/** `POST /v1/billing_portal/sessions`, with the default configuration or the active one it names. */
export function createPortalSession(store: StandInStore, params: Params): Response {
  const customer = text(params.customer);
  if (!customer) return stripeError(400, "Missing required param: customer.", { param: "customer" });
  const named = text(params.configuration);
  const configuration = named ? objectOf<Configuration>(store, named, CONFIGURATION) : defaultConfiguration(store);
  if (!configuration) return noSuch("configuration", String(named));
  if (!configuration.active)
    return stripeError(400, `The configuration ${configuration.id} is inactive.`, { param: "configuration" });
  const id = newId("bps");
  return Response.json(
    store.put(
      portalSessionObject({
        id,
        customer,
        created: store.now(),
        returnUrl: text(params.return_url) ?? configuration.default_return_url,
        url: `${LOCAL_ORIGIN_PLACEHOLDER}/dev/stripe/portal/${id}`,
        configuration: configuration.id,
      }),
    ),
  );
}

// ── The customer on the portal page ─────────────────────────────────────────

export type PortalAction = { intent: "card"; cardNumber: string } | { intent: "cancel" } | { intent: "renew" };

/** What the portal page shows: the configuration's features, the running subscription, the finalized invoices. */
export function portalView(store: StandInStore, portalId: string) {
  const portal = objectOf<Stripe.BillingPortal.Session>(store, portalId, "billing_portal.session");
  if (!portal) return null;
  const configuration =
    objectOf<Configuration>(store, String(portal.configuration), CONFIGURATION) ?? defaultConfiguration(store);
  const subscription = runningSubscription(store, portal.customer);
  const item = subscription?.items.data[0];
  const invoices = store
    .ofType<Stripe.Invoice>("invoice")
    .filter((i) => i.customer === portal.customer && i.status !== "draft")
    .reverse()
    .map((i) => ({ id: i.id, number: i.number, total: i.total, status: i.status, url: i.hosted_invoice_url ?? null }));
  return {
    customer: portal.customer,
    returnUrl: portal.return_url,
    features: featuresFrom(configuration),
    subscription:
      subscription && item
        ? {
            plan: String(item.price.lookup_key),
            status: subscription.status,
            periodEnd: item.current_period_end,
            cancelAtPeriodEnd: subscription.cancel_at_period_end,
          }
        : null,
    invoices,
  };
}

/** The customer's newest subscription that is still running, if any. */
export function runningSubscription(store: StandInStore, customerId: string): Stripe.Subscription | null {
  const running = store
    .ofType<Stripe.Subscription>("subscription")
    .filter((s) => s.customer === customerId && ["active", "trialing", "past_due"].includes(s.status));
  return running.at(-1) ?? null;
}

export function portalAction(
  store: StandInStore,
  portalId: string,
  action: PortalAction,
): { ok: true } | { ok: false; message: string } {
  const view = portalView(store, portalId);
  if (!view) return { ok: false, message: "This portal session no longer exists." };
  if (action.intent === "card") {
    if (!view.features.paymentMethodUpdate) return { ok: false, message: "Updating the card is switched off." };
    const card = testCard(action.cardNumber);
    if ("error" in card) return { ok: false, message: card.error };
    if (card.behaviour === "declines") return { ok: false, message: "Your card was declined." };
    savePaymentMethod(store, view.customer, card);
    return { ok: true };
  }
  const sub = runningSubscription(store, view.customer);
  if (!sub) return { ok: false, message: "There is no subscription to change." };
  if (!view.features.subscriptionCancel.enabled) return { ok: false, message: "Cancelling is switched off." };
  if (action.intent === "cancel" && view.features.subscriptionCancel.mode === "immediately") {
    cancelNow(store, sub);
    return { ok: true };
  }
  const answer = updateSubscription(store, sub, { cancel_at_period_end: String(action.intent === "cancel") }, (o) => o);
  return answer.ok ? { ok: true } : { ok: false, message: "The subscription could not be changed." };
}
