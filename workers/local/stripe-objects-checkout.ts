/**
 * Local only: Checkout Sessions, their line items, and the Customer Portal's sessions and configurations as the SDK's
 * own types (stripe 23.1.0, API 2026-10-28). Re-exported by stripe-objects.ts with the rest.
 */
import type Stripe from "stripe";

/** A Checkout Session lasts 24 hours unless told otherwise. */
export const CHECKOUT_SESSION_SECONDS = 24 * 3600;

/** A Checkout Session as Stripe answers it (line items only when expanded, so the stand-in keeps them apart). */
export function checkoutSessionObject(input: {
  id: string;
  mode: Stripe.Checkout.Session.Mode;
  customer: string | null;
  amount: number;
  created: number;
  clientReferenceId: string | null;
  metadata: Stripe.Metadata;
  successUrl: string | null;
  cancelUrl: string | null;
  url: string | null;
  /** Tax computed by Stripe Tax (the stand-in charges none: the amount of tax is 0). */
  automaticTax?: boolean;
  billingAddressCollection?: Stripe.Checkout.Session.BillingAddressCollection | null;
  expiresAt?: number;
}): Stripe.Checkout.Session {
  const tax = input.automaticTax === true;
  return {
    id: input.id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: input.amount,
    amount_total: input.amount,
    automatic_tax: tax
      ? { enabled: true, liability: { type: "self" }, provider: "stripe", status: "requires_location_inputs" }
      : { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: input.billingAddressCollection ?? null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: "usd",
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: input.customer,
    customer_account: null,
    customer_creation: null,
    customer_details: null,
    customer_email: null,
    discounts: [],
    expires_at: input.expiresAt ?? input.created + CHECKOUT_SESSION_SECONDS,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: input.metadata,
    mode: input.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: input.mode === "subscription" ? "always" : null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: input.mode === "payment" ? ["card", "us_bank_account"] : ["card"],
    payment_status: "unpaid",
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted_page",
    url: input.url,
    wallet_options: null,
  };
}

/** Who paid, as Checkout collected it (the address only when it asked for one). */
export function checkoutCustomerDetails(input: {
  email: string | null;
  name: string | null;
  address: Stripe.Address | null;
}): Stripe.Checkout.Session.CustomerDetails {
  return {
    address: input.address,
    business_name: null,
    email: input.email,
    individual_name: null,
    name: input.name,
    phone: null,
    tax_exempt: "none",
    tax_ids: [],
  };
}

export function checkoutLineItem(id: string, price: Stripe.Price): Stripe.LineItem {
  const amount = price.unit_amount ?? 0;
  return {
    id,
    object: "item",
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: "usd",
    description: price.lookup_key,
    metadata: {},
    price,
    quantity: 1,
  };
}

export function portalSessionObject(input: {
  id: string;
  customer: string;
  created: number;
  returnUrl: string | null;
  url: string;
  configuration?: string;
}): Stripe.BillingPortal.Session {
  return {
    id: input.id,
    object: "billing_portal.session",
    configuration: input.configuration ?? "bpc_local",
    created: input.created,
    customer: input.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: input.returnUrl,
    url: input.url,
  };
}

/** What a portal configuration switches on (the rest of Stripe's settings stay at their defaults). */
export interface PortalFeatures {
  customerUpdate: {
    enabled: boolean;
    allowedUpdates: Stripe.BillingPortal.Configuration.Features.CustomerUpdate.AllowedUpdate[];
  };
  invoiceHistory: boolean;
  paymentMethodUpdate: boolean;
  subscriptionCancel: { enabled: boolean; mode: "at_period_end" | "immediately"; prorationBehavior: string };
  subscriptionUpdate: boolean;
}

export function portalConfigurationObject(input: {
  id: string;
  created: number;
  updated: number;
  isDefault: boolean;
  active: boolean;
  features: PortalFeatures;
  defaultReturnUrl: string | null;
  headline: string | null;
  privacyPolicyUrl: string | null;
  termsOfServiceUrl: string | null;
  metadata: Stripe.Metadata;
  name: string | null;
}): Stripe.BillingPortal.Configuration {
  const f = input.features;
  return {
    id: input.id,
    object: "billing_portal.configuration",
    active: input.active,
    application: null,
    business_profile: {
      headline: input.headline,
      privacy_policy_url: input.privacyPolicyUrl,
      terms_of_service_url: input.termsOfServiceUrl,
    },
    created: input.created,
    default_return_url: input.defaultReturnUrl,
    features: {
      customer_update: { allowed_updates: f.customerUpdate.allowedUpdates, enabled: f.customerUpdate.enabled },
      invoice_history: { enabled: f.invoiceHistory },
      payment_method_update: { enabled: f.paymentMethodUpdate, payment_method_configuration: null },
      subscription_cancel: {
        cancellation_reason: { enabled: false, feedback_options: null, options: [] },
        enabled: f.subscriptionCancel.enabled,
        mode: f.subscriptionCancel.mode,
        proration_behavior: f.subscriptionCancel.prorationBehavior,
      },
      subscription_pause: { duration: { interval_options: [], type: "indefinite" }, enabled: false },
      subscription_update: {
        billing_cycle_anchor: null,
        default_allowed_updates: [],
        enabled: f.subscriptionUpdate,
        products: [],
        proration_behavior: "none",
        schedule_at_period_end: { conditions: [] },
        trial_update_behavior: "end_trial",
      },
    },
    is_default: input.isDefault,
    livemode: false,
    login_page: { enabled: false, url: null },
    metadata: input.metadata,
    name: input.name,
    updated: input.updated,
  };
}
