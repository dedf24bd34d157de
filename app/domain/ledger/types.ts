/**
 * The ledger's vocabulary: a user's money-like state, the requests that change it, and what a decision says.
 * Everything here is plain data: decisions are pure (state + request + facts → decision), `app/db/ledger.server.ts`
 * turns their writes into SQL, and the UserLedger object queues, commits and publishes them.
 */
import type { Clip, Credits } from "../api";
import type { PaidLine } from "../billing";
import type { PlanId, StoredPlan } from "../plans";
import type { LedgerRefusal } from "./refusals";

export interface LedgerUser {
  id: string;
  plan: StoredPlan;
  pendingPlan: PlanId | null;
  /** Epoch ms; null on Free. */
  periodStart: number | null;
  periodEnd: number | null;
  credits: number;
  banned: boolean;
  /** The admin who set the plan by hand: the actor of the renewals that follow from it. */
  planSetBy?: string | null;
}

export interface Hold {
  id: string;
  amount: number;
  /** The clip request as stored (JSON), captured into a clip later. */
  request: string;
  name: string;
  key: string;
  hash: string;
  /** The team member who asked for the clip; null when the account itself did. */
  creatorId: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface KeyMemo {
  hash: string;
  clip: Clip | null;
}

export interface LedgerState {
  user: LedgerUser;
  /** Holds still `held`, by id (expired ones too, until the sweep marks them). */
  holds: Map<string, Hold>;
  /** Recent idempotency keys → the request fingerprint and, for clips, the clip: enough to replay an answer. */
  keys: Map<string, KeyMemo>;
  /** Clip timestamps are unique per user, so paging by createdAt never skips two clips of one batch. */
  lastClipAt: number;
  /** How many clips are this user's (counted once at load, then kept): snapshots and the starter reset read it. */
  clipCount: number;
  /** A team owner's people besides the owner (ids, in joining order); empty when there is no team. */
  members: string[];
  /** A member's payer: the team owner, and whether the team works now (owner on Pro, not banned); null when none. */
  payer: Payer | null;
  /** This person owns a team (their owner row exists, with or without members). */
  ownsTeam: boolean;
  /**
   * Holds this person opened on a payer's ledger (hold id → payer id), so a capture or release reaches that ledger
   * without a read. A cache of the payer's commits: no decision reads or writes it.
   */
  payerHolds: Map<string, string>;
  /** The paid invoice lines and packs whose credits this ledger grants and takes back (`app/domain/billing.ts`). */
  lines: Map<string, PaidLine>;
}

export interface Payer {
  ownerId: string;
  active: boolean;
}

export type LedgerErrorCode =
  | "not_found"
  | "forbidden"
  | "plan_limit"
  | "insufficient_credits"
  | "idempotency_conflict"
  | "invalid_input"
  | "hold_not_active"
  | "step_up_required"
  | "balance_changed"
  | "busy"
  | "internal";
/** A refusal: `reason` is what code branches on (one of `LEDGER_REFUSALS`); `message` is only for people. */
export type LedgerFailure = {
  ok: false;
  status: number;
  code: LedgerErrorCode;
  reason: LedgerRefusal;
  message: string;
};
export type LedgerResult<T> = { ok: true; value: T; replayed: boolean } | LedgerFailure;

export type LedgerKind =
  | "signup"
  | "plan_grant"
  | "renewal"
  | "plugin_connect"
  | "adjust"
  | "clip"
  | "refund"
  | "starter_reset"
  | "purchase"
  | "pack"
  | "payment_refund"
  | "account_closed";
export type ClipSource = "api" | "admin" | "extension";
export type HoldEnd = "captured" | "released" | "expired";

/** What a decision writes, as data. Every balance change is a `row` and a `balance` together. */
export type Write =
  | {
      type: "row";
      id: string;
      delta: number;
      balanceAfter: number;
      kind: LedgerKind;
      description: string;
      key: string;
      hash: string;
      clipId: string | null;
      holdId: string | null;
      actorId: string | null;
    }
  | { type: "balance"; delta: number }
  | { type: "user"; patch: UserPatch }
  /** `creatorId`: the clip belongs to a team member while the owner's ledger pays for it. */
  | { type: "clip"; clip: Clip; source: ClipSource; creatorId: string | null }
  | { type: "deleteClip"; clipId: string }
  | { type: "hold"; hold: Hold }
  | { type: "settleHolds"; ids: string[]; status: HoldEnd; clipId: string | null }
  /** A member joins this owner's team with an invitation (the invitation is marked accepted in the same batch). */
  | { type: "teamJoin"; memberId: string; invitationId: string; joinedAt: number }
  /** A member leaves this owner's team (removed or leaving). */
  | { type: "teamLeave"; memberId: string }
  /** The owner closes a team nobody else is in: their own row goes, live invitations are revoked. */
  | { type: "teamClose" }
  /** A paid line as it stands now (inserted or replaced). */
  | { type: "line"; line: PaidLine }
  /**
   * The account is deleted: its own clips go, its settled holds forget what they asked for, and its ledger rows'
   * descriptions lose these words (the person's e-mail and name). Amounts and balances stay as they were.
   */
  | { type: "erase"; words: string[] };

/** Plan and status columns a decision may set (credits move only by `balance`). */
export type UserPatch = Partial<
  Pick<LedgerUser, "plan" | "pendingPlan" | "periodStart" | "periodEnd" | "banned" | "planSetBy">
>;

/** What the user's sockets hear (realtime messages without their envelope). */
export type LedgerEvent =
  | { type: "credits"; data: Credits }
  | { type: "plan"; data: { plan: StoredPlan; pendingPlan: PlanId | null } }
  | { type: "clip"; data: { clip: Clip; paidByTeam?: boolean } }
  | { type: "clipRemoved"; data: { clipId: string } };
export type AdminTopic = "users" | "clips";
/** What a team owner's ledger passes to a member's sockets (through the member's ledger). */
export type RelayedEvent = LedgerEvent | { type: "teamCredits"; data: Credits };

/**
 * What happens after a decision's writes commit, as data: the UserLedger runs them in order through one runner
 * (workers/ledger-effects.ts), so no operation is special-cased in the object.
 */
export type Effect =
  /** To this account's own sockets. */
  | { type: "publish"; event: LedgerEvent }
  /** From the team owner's ledger to this member's sockets, when any are open. */
  | { type: "relay"; event: RelayedEvent }
  /** A team member's clip was added or removed here (the payer's ledger): to that member's own sockets. */
  | { type: "toMember"; memberId: string; event: LedgerEvent }
  /** The team's balance moved: to every member's sockets (an owner's ledger with members only). */
  | { type: "teamCredits"; credits: Credits; memberIds: string[] }
  /** The team became active or suspended (the owner's plan or ban): members are told, their ledgers learn it. */
  | { type: "teamStatus"; active: boolean; plan: StoredPlan; memberIds: string[] }
  /** A member's ledger learns who pays for its clips now (a join, a removal, a leave). */
  | { type: "payer"; memberId: string; payer: Payer | null }
  | { type: "adminTopic"; topic: AdminTopic }
  /** When the object should next wake (a hold's expiry, a period's end). */
  | { type: "wake"; at: number }
  /** Access ended (a ban): close the user's sockets with "do not reconnect". */
  | { type: "endAccess"; reason: string }
  /** Token checks are read again on their next use. */
  | { type: "forgetTokens" };

export interface Decision<T> {
  result: LedgerResult<T>;
  /** Empty when nothing changes (a refusal or a replay). */
  writes: Write[];
  /** Run after the writes commit, in this order; empty for a refusal. */
  effects: Effect[];
}

/**
 * What a decision may need from D1 beyond the state in memory. The object reads these before deciding (only when
 * memory cannot answer), so the decision itself stays pure.
 */
export interface Facts {
  /** SHA-256 of the request's fingerprint (idempotency). */
  hash: string;
  /** A hold that is no longer active: its final status and, if captured, its clip key's memo. */
  storedHold?: { status: HoldEnd | "held"; hash: string } | null;
  /** The clip a refund or delete names, if this ledger paid for it; `creatorId` is whose clip it is. */
  clip?: { cost: number; creatorId: string } | null;
  /** When the acting admin's session last proved its password (step-up), epoch ms; null when never. */
  stepUpAt?: number | null;
  /** The end of the period a running subscription has paid for; null: no subscription (the renewal). */
  subscriptionPaidUntil?: number | null;
  /** The invitation a join names (null: no such invitation of this owner). */
  invitation?: { email: string; expiresAt: number; acceptedAt: number | null; revokedAt: number | null } | null;
  /** The team the joining person is in already (its owner's id), or null. */
  joinerTeam?: string | null;
}

export interface DecideContext {
  now: number;
  newId: () => string;
}
