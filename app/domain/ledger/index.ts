/**
 * The ledger's one door: every change of a user's plan, pending plan, period, credits, holds and banned status is
 * one of these operations, decided here (pure) and committed by the user's UserLedger object. Adding an operation
 * is one entry in `LEDGER_OPS` (its fingerprint, what it needs from D1, its decision) and a test.
 */
import type { ClipRequest, Credits, HoldRequest } from "../api";
import type { PlanId } from "../plans";
import {
  adminEdit,
  adjust,
  CLOSE_KEY,
  closeAccount,
  pluginConnect,
  setBanned,
  starterReset,
  welcome,
  type AdminEditInput,
  type AdminEditOutcome,
  type CloseAccountInput,
} from "./account";
import {
  capture,
  captureKey,
  charge,
  deleteClip,
  expire,
  refund,
  refundKey,
  release,
  reserve,
  type ChargeOutcome,
  type HoldOutcome,
} from "./clips";
import { applySubscription, followMoney, type FollowMoneyInput, type MoneyOutcome, type PlanView } from "./billing";
import { changePlan, renew, type PlanChange } from "./plans";
import { payerChanged, relay, teamClose, teamJoin, teamRemove, type TeamJoinInput } from "./team";
import type { SubscriptionFacts } from "../billing";
import type { DecideContext, Decision, Facts, Hold, LedgerState, Payer, RelayedEvent } from "./types";

export * from "./types";
export * from "./core";
export * from "./refusals";
export * from "./identity";
export type {
  AdminEditInput,
  AdminEditOutcome,
  ChargeOutcome,
  CloseAccountInput,
  FollowMoneyInput,
  HoldOutcome,
  MoneyOutcome,
  PlanChange,
  TeamJoinInput,
};
export { adminEditChanges, starterResetDue, stepUpFresh } from "./account";

/** What a decision needs read from D1 when memory cannot answer (see `Facts`). */
export interface Needs {
  /** An idempotency key to look up: always, or only after a failed batch (`thorough`). */
  key?: { key: string; always: boolean };
  /** A hold by id (when it is not active in memory). */
  holdId?: string;
  /** A hold by its idempotency key (a reserve replayed after the hold settled). */
  holdKey?: string;
  /** The user's clip by id. */
  clipId?: string;
  /** The acting admin's step-up time on their session (admin edits of money). */
  stepUp?: { sessionId: string; adminId: string };
  /** The running subscription's paid period end (the renewal). */
  subscription?: boolean;
  /** An invitation of this owner, by id (a join). */
  invitationId?: string;
  /** The team this person is in already, if any (a join). */
  joiner?: string;
}

interface OpSpec<I, O> {
  /** What the idempotency hash covers; a string is used as the hash itself. */
  fingerprint: (input: I) => unknown;
  needs: (input: I) => Needs;
  decide: (state: LedgerState, input: I, facts: Facts & { holdByKey?: Hold | null }, ctx: DecideContext) => Decision<O>;
  /** Phantom: the outcome type, for the typed client. */
  readonly outcome?: O;
}
const op = <I, O>(spec: OpSpec<I, O>) => spec;

type ChargeInput = {
  key: string;
  request: ClipRequest;
  source: "api" | "admin";
  actorId?: string | null;
  creatorId?: string | null;
};
type RefundInput = { clipId: string; reason: string; actorId?: string | null; amount?: number; deleteClip?: boolean };
type AdjustInput = { key: string; newBalance: number; actorId: string; reason: string };

export const LEDGER_OPS = {
  charge: op<ChargeInput, ChargeOutcome>({
    fingerprint: (i) => ["charge", i.request],
    needs: (i) => ({ key: { key: i.key, always: false } }),
    decide: charge,
  }),
  reserve: op<{ key: string; request: HoldRequest; creatorId?: string | null }, HoldOutcome>({
    fingerprint: (i) => ["reserve", i.request],
    needs: (i) => ({ holdKey: i.key }),
    decide: reserve,
  }),
  capture: op<{ holdId: string }, ChargeOutcome>({
    fingerprint: (i) => ["capture", i.holdId],
    needs: (i) => ({ holdId: i.holdId, key: { key: captureKey(i.holdId), always: false } }),
    decide: capture,
  }),
  release: op<{ holdId: string }, { credits: Credits }>({
    fingerprint: (i) => ["release", i.holdId],
    needs: (i) => ({ holdId: i.holdId }),
    decide: release,
  }),
  expire: op<Record<string, never>, { expired: number }>({
    fingerprint: () => "expire",
    needs: () => ({}),
    decide: (state, _i, _f, ctx) => expire(state, ctx),
  }),
  refund: op<RefundInput, { credits: Credits }>({
    fingerprint: (i) => ["refund", { clipId: i.clipId }],
    needs: (i) => ({ key: { key: refundKey(i.clipId), always: true }, clipId: i.clipId }),
    decide: refund,
  }),
  deleteClip: op<{ clipId: string }, { deleted: boolean }>({
    fingerprint: (i) => ["delete", i.clipId],
    needs: (i) => ({ clipId: i.clipId }),
    decide: deleteClip,
  }),
  welcome: op<Record<string, never>, { credits: Credits }>({
    // Rows written before this door existed carry the literal "signup".
    fingerprint: () => "signup",
    needs: () => ({ key: { key: "signup", always: true } }),
    decide: (state, _i, facts, ctx) => welcome(state, facts, ctx),
  }),
  pluginConnect: op<Record<string, never>, { credits: Credits; alreadyConnected: boolean }>({
    fingerprint: () => ["plugin_connect", { delta: 1, description: "Plugin connection bonus" }],
    needs: () => ({ key: { key: "plugin-connect", always: true } }),
    decide: (state, _i, facts, ctx) => pluginConnect(state, facts, ctx),
  }),
  starterReset: op<Record<string, never>, { credits: Credits }>({
    fingerprint: () => ["starter_reset", { delta: 100, description: "Starter credits restored" }],
    needs: () => ({ key: { key: "starter-reset", always: true } }),
    decide: (state, _i, facts, ctx) => starterReset(state, facts, ctx),
  }),
  adjust: op<AdjustInput, { credits: Credits }>({
    fingerprint: (i) => ["adjust", { newBalance: i.newBalance, reason: i.reason }],
    needs: (i) => ({ key: { key: i.key, always: true } }),
    decide: adjust,
  }),
  adminEdit: op<AdminEditInput, AdminEditOutcome>({
    fingerprint: (i) => [
      "admin_edit",
      { expectedBalance: i.expectedBalance, newBalance: i.newBalance, reason: i.reason, plan: i.plan },
    ],
    needs: (i) => ({
      key: { key: i.key, always: true },
      stepUp: { sessionId: i.stepUp.sessionId, adminId: i.actorId },
    }),
    decide: adminEdit,
  }),
  // Time comes from the decision context only (a local test clock sets it there: workers/local/user-ledger.ts).
  changePlan: op<{ plan: PlanId }, PlanChange>({
    fingerprint: (i) => ["plan", i.plan],
    needs: () => ({}),
    decide: changePlan,
  }),
  renew: op<Record<string, never>, { periodEnd: number | null }>({
    fingerprint: () => "renewal",
    needs: () => ({ subscription: true }),
    decide: (state, _i, facts, ctx) => renew(state, facts, ctx),
  }),
  // Payments (Stripe webhooks): each keyed by the Stripe object, so a redelivered event changes nothing.
  applySubscription: op<{ facts: SubscriptionFacts }, PlanView>({
    fingerprint: () => "subscription",
    needs: () => ({}),
    decide: (state, input, _f, ctx) => applySubscription(state, input, ctx),
  }),
  // Every credit a payment grants or takes back: idempotent by the lines' own state, so no key is kept.
  followMoney: op<FollowMoneyInput, MoneyOutcome>({
    fingerprint: () => "money",
    needs: () => ({}),
    decide: followMoney,
  }),
  setBanned: op<{ banned: boolean }, { changed: boolean }>({
    fingerprint: (i) => ["banned", i.banned],
    needs: () => ({}),
    decide: (state, input, _f, ctx) => setBanned(state, input, ctx),
  }),
  // The account is deleted: one closing row per account (any second request is its replay, whoever sends it).
  closeAccount: op<CloseAccountInput, { creditsCancelled: number }>({
    fingerprint: () => "account_closed",
    needs: () => ({ key: { key: CLOSE_KEY, always: true } }),
    decide: closeAccount,
  }),
  // Teams (on the owner's ledger): idempotent by the state itself, so no key is kept.
  teamJoin: op<TeamJoinInput, { joined: true }>({
    fingerprint: () => "team",
    needs: (i) => ({ invitationId: i.invitationId, joiner: i.memberId }),
    decide: teamJoin,
  }),
  teamRemove: op<{ memberId: string; leaving?: boolean }, { removed: true }>({
    fingerprint: () => "team",
    needs: () => ({}),
    decide: (state, input, _f, ctx) => teamRemove(state, input, ctx),
  }),
  teamClose: op<Record<string, never>, { closed: true }>({
    fingerprint: () => "team",
    needs: () => ({}),
    decide: (state, _i, _f, ctx) => teamClose(state, ctx),
  }),
  // A member's ledger learns its payer from the owner's, after the owner's commit (nothing to write: D1 has it).
  payerChanged: op<{ from: string; payer: Payer | null }, { payer: Payer | null }>({
    fingerprint: () => "payer",
    needs: () => ({}),
    decide: (state, input, _f, ctx) => payerChanged(state, input, ctx),
  }),
  // On a member's ledger: an event of the team's for the member's sockets (nothing to write: the owner's batch did).
  relay: op<RelayedEvent, { relayed: true }>({
    fingerprint: () => "relay",
    needs: () => ({}),
    decide: (state, input) => relay(state, input),
  }),
};

export type LedgerOps = typeof LEDGER_OPS;
export type LedgerOpName = keyof LedgerOps;
export type LedgerInput<K extends LedgerOpName> = Parameters<LedgerOps[K]["fingerprint"]>[0];
export type LedgerOutcome<K extends LedgerOpName> = NonNullable<LedgerOps[K]["outcome"]>;
