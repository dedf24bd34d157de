/**
 * Local only: payments as the SDK's own types (stripe 23.1.0, API 2026-10-28): payment intents, charges, refunds,
 * disputes and their balance transactions. Re-exported by stripe-objects.ts with the rest.
 */
import type Stripe from "stripe";

/** Where a payment stands: paid, declined, waiting for the customer's bank (3-D Secure), or a debit in flight. */
export type PaymentOutcome = "succeeded" | "requires_payment_method" | "requires_action" | "processing";

export function paymentIntentObject(input: {
  id: string;
  customer: string;
  amount: number;
  created: number;
  description: string;
  outcome: PaymentOutcome;
  charge: string | null;
  paymentMethod: string | null;
  /** "card" unless told (an ACH debit is `us_bank_account`). */
  methodType?: string;
}): Stripe.PaymentIntent {
  const declined = input.outcome === "requires_payment_method";
  const methodType = input.methodType ?? "card";
  return {
    id: input.id,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_received: input.outcome === "succeeded" ? input.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${input.id}_secret_local`,
    confirmation_method: "automatic",
    created: input.created,
    currency: "usd",
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: declined
      ? methodType === "card"
        ? {
            type: "card_error",
            code: "card_declined",
            decline_code: "generic_decline",
            message: "Your card was declined.",
          }
        : {
            type: "invalid_request_error",
            code: "account_closed",
            message: "The customer's bank account has been closed.",
          }
      : null,
    latest_charge: input.charge,
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_action: input.outcome === "requires_action" ? { type: "use_stripe_sdk" } : null,
    on_behalf_of: null,
    payment_method: input.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: [methodType],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: input.outcome,
    transfer_group: null,
  };
}

export function chargeObject(input: {
  id: string;
  customer: string;
  amount: number;
  created: number;
  description: string;
  paymentIntent: string;
  paymentMethod: string | null;
  declined: boolean;
  /** A debit still in flight is `pending` (declined: false); a card charge is settled at once. */
  pending?: boolean;
}): Stripe.Charge {
  const { declined } = input;
  const pending = !declined && input.pending === true;
  return {
    id: input.id,
    object: "charge",
    amount: input.amount,
    amount_captured: declined ? 0 : input.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: "CLIPCUT",
    captured: !declined,
    created: input.created,
    currency: "usd",
    customer: input.customer,
    description: input.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: declined ? "card_declined" : null,
    failure_message: declined ? "Your card was declined." : null,
    fraud_details: {},
    livemode: false,
    metadata: {},
    on_behalf_of: null,
    outcome: null,
    paid: !declined && !pending,
    payment_intent: input.paymentIntent,
    payment_method: input.paymentMethod,
    payment_method_details: null,
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: declined ? "failed" : pending ? "pending" : "succeeded",
    transfer_data: null,
    transfer_group: null,
  };
}

export function refundObject(input: {
  id: string;
  amount: number;
  charge: string;
  customer: string | null;
  paymentIntent: string;
  created: number;
  reason: Stripe.Refund.Reason | null;
  metadata: Stripe.Metadata;
  /** `succeeded` unless told: a refund can be `pending` first, and can fail after it succeeded. */
  status?: "pending" | "succeeded" | "failed";
}): Stripe.Refund {
  const status = input.status ?? "succeeded";
  return {
    id: input.id,
    object: "refund",
    amount: input.amount,
    balance_transaction: null,
    charge: input.charge,
    created: input.created,
    currency: "usd",
    customer: input.customer,
    customer_account: null,
    ...(status === "failed" ? { failure_reason: "expired_or_canceled_card" } : {}),
    metadata: input.metadata,
    payment_intent: input.paymentIntent,
    payment_method: null,
    ...(status === "pending" ? { pending_reason: "processing" as const } : {}),
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status,
    transfer_reversal: null,
  };
}

/** Stripe's dispute fee in the US, withdrawn with the disputed amount and returned if the dispute is won. */
export const DISPUTE_FEE_CENTS = 1500;

/** Money moved on the account's balance by a dispute: withdrawn when it opens, reinstated when it is won. */
export function disputeBalanceTransaction(input: {
  id: string;
  dispute: string;
  amount: number;
  created: number;
  withdrawn: boolean;
}): Stripe.BalanceTransaction {
  const sign = input.withdrawn ? -1 : 1;
  return {
    id: input.id,
    object: "balance_transaction",
    amount: sign * input.amount,
    available_on: input.created,
    balance_type: "payments",
    created: input.created,
    currency: "usd",
    description: input.withdrawn
      ? `Chargeback withdrawal for ${input.dispute}`
      : `Chargeback reversal for ${input.dispute}`,
    exchange_rate: null,
    fee: sign * -DISPUTE_FEE_CENTS,
    fee_details: [
      {
        amount: sign * -DISPUTE_FEE_CENTS,
        application: null,
        currency: "usd",
        description: "Dispute fee",
        type: "stripe_fee",
      },
    ],
    net: sign * (input.amount + DISPUTE_FEE_CENTS),
    reporting_category: input.withdrawn ? "dispute" : "dispute_reversal",
    source: input.dispute,
    status: "available",
    type: "adjustment",
  };
}

const NO_EVIDENCE: Stripe.Dispute.Evidence = {
  access_activity_log: null,
  billing_address: null,
  cancellation_policy: null,
  cancellation_policy_disclosure: null,
  cancellation_rebuttal: null,
  customer_communication: null,
  customer_email_address: null,
  customer_name: null,
  customer_purchase_ip: null,
  customer_signature: null,
  duplicate_charge_documentation: null,
  duplicate_charge_explanation: null,
  duplicate_charge_id: null,
  enhanced_evidence: {},
  product_description: null,
  receipt: null,
  refund_policy: null,
  refund_policy_disclosure: null,
  refund_refusal_explanation: null,
  service_date: null,
  service_documentation: null,
  shipping_address: null,
  shipping_carrier: null,
  shipping_date: null,
  shipping_documentation: null,
  shipping_tracking_number: null,
  uncategorized_file: null,
  uncategorized_text: null,
};

/** The text fields of a dispute's evidence a merchant can send (files are not modelled). */
export const EVIDENCE_TEXT_FIELDS = (Object.keys(NO_EVIDENCE) as (keyof Stripe.Dispute.Evidence)[]).filter(
  (k) => NO_EVIDENCE[k] === null && !/(documentation|policy|receipt|communication|signature|file)$/.test(k),
);

/** A dispute the cardholder's bank opened on a charge: funds withdrawn, evidence due in a week. */
export function disputeObject(input: {
  id: string;
  charge: string;
  paymentIntent: string | null;
  amount: number;
  created: number;
  reason: string;
  withdrawal: Stripe.BalanceTransaction;
}): Stripe.Dispute {
  return {
    id: input.id,
    object: "dispute",
    amount: input.amount,
    balance_transactions: [input.withdrawal],
    charge: input.charge,
    created: input.created,
    currency: "usd",
    enhanced_eligibility_types: [],
    evidence: NO_EVIDENCE,
    evidence_details: {
      due_by: input.created + 7 * 86_400,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: "not_submitted",
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: input.paymentIntent,
    payment_method_details: {
      card: { brand: "visa", case_type: "chargeback", network: "visa", network_reason_code: "10.4" },
      type: "card",
    },
    reason: input.reason,
    status: "needs_response",
  };
}
