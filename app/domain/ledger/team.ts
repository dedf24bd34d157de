/**
 * Team operations, decided by the owner's ledger: it already serialises everything of that account, so the seat
 * count is a check on its state, not a conditional statement. Invitations stay rows (read as a fact); who is in the
 * team is the owner's state (`members`), and each member's ledger learns its payer after the commit.
 */
import {
  ALREADY_IN_TEAM_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  OWNER_CANNOT_LEAVE_MESSAGE,
  SEAT_LIMIT_MESSAGE,
  TEAM_SEATS,
  TEAM_SUSPENDED_JOIN_MESSAGE,
  WRONG_ACCOUNT_MESSAGE,
} from "../teams";
import { decide, fail, success, teamWorksFor, type Draft } from "./core";
import type { DecideContext, Decision, Facts, LedgerState, Payer, RelayedEvent } from "./types";

export interface TeamJoinInput {
  invitationId: string;
  memberId: string;
  /** The joining account's address: the invitation must name it. */
  email: string;
}

/**
 * A person joins with an invitation of this owner: the invitation is live and names them, the team works, they are
 * in no team, and a seat is free (the owner counts as one). Joining again with the same accepted invitation is a
 * replay.
 */
export function teamJoin(
  state: LedgerState,
  input: TeamJoinInput,
  facts: Facts,
  ctx: DecideContext,
): Decision<{ joined: true }> {
  return decide(state, ctx, (): Draft<{ joined: true }> => {
    const invitation = facts.invitation;
    if (!invitation) return { result: fail("invitation_invalid", INVITATION_INVALID_MESSAGE) };
    if (invitation.email.toLowerCase() !== input.email.toLowerCase())
      return { result: fail("wrong_account", WRONG_ACCOUNT_MESSAGE) };
    if (state.members.includes(input.memberId))
      return invitation.acceptedAt !== null
        ? { result: success({ joined: true }, true) }
        : { result: fail("already_in_team", ALREADY_IN_TEAM_MESSAGE) };
    if (invitation.acceptedAt !== null || invitation.revokedAt !== null || invitation.expiresAt <= ctx.now)
      return { result: fail("invitation_invalid", INVITATION_INVALID_MESSAGE) };
    if (!teamWorksFor(state.user)) return { result: fail("team_suspended_join", TEAM_SUSPENDED_JOIN_MESSAGE) };
    if (input.memberId === state.user.id || facts.joinerTeam)
      return { result: fail("already_in_team", ALREADY_IN_TEAM_MESSAGE) };
    if (1 + state.members.length >= TEAM_SEATS) return { result: fail("seat_limit", SEAT_LIMIT_MESSAGE) };
    state.members = [...state.members, input.memberId];
    state.ownsTeam = true;
    return {
      result: success({ joined: true }),
      writes: [{ type: "teamJoin", memberId: input.memberId, invitationId: input.invitationId, joinedAt: ctx.now }],
      payers: [{ memberId: input.memberId, payer: { ownerId: state.user.id, active: true } }],
    };
  });
}

/**
 * A member goes: removed by the owner, or leaving. From the next operation on, their clips are their own; a hold
 * they opened on the team stays here and settles here.
 */
export function teamRemove(
  state: LedgerState,
  input: { memberId: string; leaving?: boolean },
  ctx: DecideContext,
): Decision<{ removed: true }> {
  return decide(state, ctx, (): Draft<{ removed: true }> => {
    if (!state.members.includes(input.memberId))
      return {
        result: fail(
          "not_in_team",
          input.leaving ? "You are not in a team." : "That person is not a member of your team.",
        ),
      };
    state.members = state.members.filter((id) => id !== input.memberId);
    return {
      result: success({ removed: true }),
      writes: [{ type: "teamLeave", memberId: input.memberId }],
      payers: [{ memberId: input.memberId, payer: null }],
    };
  });
}

/** The owner closes a team nobody else is in (their own row goes, live invitations are revoked). */
export function teamClose(state: LedgerState, ctx: DecideContext): Decision<{ closed: true }> {
  return decide(state, ctx, (): Draft<{ closed: true }> => {
    if (state.members.length > 0) return { result: fail("owner_cannot_leave", OWNER_CANNOT_LEAVE_MESSAGE) };
    state.ownsTeam = false;
    return { result: success({ closed: true }), writes: [{ type: "teamClose" }] };
  });
}

/**
 * A member's own ledger hears who pays for its clips now (told by the owner's ledger after its commit). Only memory
 * changes: the owner's batch already wrote the membership. A later word from a previous payer is ignored.
 */
export function payerChanged(
  state: LedgerState,
  input: { from: string; payer: Payer | null },
  ctx: DecideContext,
): Decision<{ payer: Payer | null }> {
  return decide(state, ctx, (): Draft<{ payer: Payer | null }> => {
    const current = state.payer;
    if (current && current.ownerId !== input.from) return { result: success({ payer: current }, true) };
    state.payer = input.payer;
    return { result: success({ payer: input.payer }) };
  });
}

/**
 * The team owner's ledger passes on an event for this member's sockets: the shared balance, or a clip of theirs added
 * or removed there. The clip count follows; nothing is written (the owner's batch wrote the clip), and the sockets
 * hear it only when someone listens.
 */
export function relay(state: LedgerState, event: RelayedEvent): Decision<{ relayed: true }> {
  if (event.type === "clip") state.clipCount += 1;
  if (event.type === "clipRemoved") state.clipCount = Math.max(0, state.clipCount - 1);
  return { result: success({ relayed: true }), writes: [], effects: [{ type: "relay", event }] };
}
