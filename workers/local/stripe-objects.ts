/**
 * Local only: every object the stand-in answers with, built as the SDK's own type (stripe 23.1.0, API 2026-10-28),
 * so that the compiler rejects an object that lacks a field Stripe always sends or carries one Stripe's object does
 * not have. The stand-in and the test fixtures (tests/fixtures/stripe) build their objects here, and only here; the
 * builders live in one file per concern.
 */
export * from "./stripe-objects-core";
export * from "./stripe-objects-payments";
export * from "./stripe-objects-billing";
export * from "./stripe-objects-invoices";
export * from "./stripe-objects-checkout";
