/**
 * Every way the ledger says no, by its machine reason. Code branches on the reason (forwarding decides who pays on
 * it, routes and the extension choose what to show); the message beside it is for people and may be reworded. Each
 * reason answers with one HTTP status and one coarse API code (`error.code`; the reason is `error.reason`).
 */
import type { LedgerErrorCode } from "./types";

export const LEDGER_REFUSALS = {
  // The account, the object and the request as a whole.
  user_not_found: { status: 404, code: "not_found" },
  banned: { status: 403, code: "forbidden" },
  unknown_operation: { status: 400, code: "invalid_input" },
  idempotency_conflict: { status: 409, code: "idempotency_conflict" },
  busy: { status: 503, code: "busy" },
  save_failed: { status: 500, code: "internal" },
  // Clips, holds and refunds.
  plan_limit: { status: 403, code: "plan_limit" },
  batch_limit: { status: 403, code: "plan_limit" },
  zero_duration: { status: 422, code: "invalid_input" },
  insufficient_credits: { status: 402, code: "insufficient_credits" },
  clip_gone: { status: 404, code: "not_found" },
  clip_not_found: { status: 404, code: "not_found" },
  hold_not_found: { status: 404, code: "not_found" },
  hold_not_active: { status: 409, code: "hold_not_active" },
  hold_unreadable: { status: 500, code: "internal" },
  refund_amount: { status: 422, code: "invalid_input" },
  // A team member's clip on the owner's ledger.
  team_suspended: { status: 403, code: "forbidden" },
  not_a_member: { status: 403, code: "forbidden" },
  // Balance changes, admin edits and plans.
  negative_balance: { status: 422, code: "invalid_input" },
  invalid_balance: { status: 422, code: "invalid_input" },
  balance_changed: { status: 409, code: "balance_changed" },
  reason_required: { status: 400, code: "invalid_input" },
  step_up_required: { status: 401, code: "step_up_required" },
  upgrade_needs_payment: { status: 403, code: "forbidden" },
  // Teams, on the owner's ledger.
  invitation_invalid: { status: 410, code: "not_found" },
  wrong_account: { status: 403, code: "forbidden" },
  already_in_team: { status: 409, code: "forbidden" },
  team_suspended_join: { status: 409, code: "forbidden" },
  seat_limit: { status: 409, code: "forbidden" },
  not_in_team: { status: 404, code: "not_found" },
  owner_cannot_leave: { status: 409, code: "forbidden" },
  // Closing an account that is still in a team (the team ops go first).
  team_open: { status: 409, code: "forbidden" },
} as const satisfies Record<string, { status: number; code: LedgerErrorCode }>;

export type LedgerRefusal = keyof typeof LEDGER_REFUSALS;
