import { describe, expect, it } from "vitest";
import { clipRequestSchema } from "../api";
import {
  ALREADY_IN_TEAM_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  NOT_A_MEMBER_MESSAGE,
  OWNER_CANNOT_LEAVE_MESSAGE,
  SEAT_LIMIT_MESSAGE,
  TEAM_SEATS,
  TEAM_SUSPENDED_JOIN_MESSAGE,
  TEAM_SUSPENDED_MESSAGE,
  WRONG_ACCOUNT_MESSAGE,
} from "../teams";
import { cloneState, LEDGER_OPS, type Facts, type LedgerRefusal, type LedgerState } from "./index";

/** Team operations are decided by the owner's ledger on its state: pure, so tested without workerd. */
const NOW = Date.UTC(2026, 10, 26, 9);
let n = 0;
const ctx = { now: NOW, newId: () => `id-${++n}` };

function owner(members: string[] = [], plan = "Pro", banned = false): LedgerState {
  return {
    user: {
      id: "owner",
      plan: plan as LedgerState["user"]["plan"],
      pendingPlan: null,
      periodStart: NOW - 1000,
      periodEnd: NOW + 1_000_000,
      credits: 100,
      banned,
    },
    holds: new Map(),
    keys: new Map(),
    lastClipAt: 0,
    clipCount: 0,
    members,
    payer: null,
    payerHolds: new Map(),
    ownsTeam: false,
    lines: new Map(),
  };
}

const live = { email: "new@example.com", expiresAt: NOW + 60_000, acceptedAt: null, revokedAt: null };
const joinInput = { invitationId: "inv-1", memberId: "new", email: "New@Example.com" };
const join = (state: LedgerState, facts: Partial<Facts> = {}, memberId = joinInput.memberId) =>
  LEDGER_OPS.teamJoin.decide(
    state,
    { ...joinInput, memberId },
    { hash: "team", invitation: live, joinerTeam: null, ...facts },
    ctx,
  );

/** A refused decision writes nothing, has no effects and leaves the state as it found it. */
function expectRefused(
  state: LedgerState,
  decide: (s: LedgerState) => ReturnType<typeof join>,
  reason: LedgerRefusal,
  message: string,
) {
  const before = cloneState(state);
  const decision = decide(state);
  expect(decision.result).toMatchObject({ ok: false, reason, message });
  expect(decision.writes).toEqual([]);
  expect(decision.effects).toEqual([]);
  expect(state.members).toEqual(before.members);
}

describe("joining a team is decided by the owner's ledger", () => {
  it("accepts a live invitation for this address: the member is in the state, one row, and the member's ledger learns its payer", () => {
    const state = owner(["a"]);
    const decision = join(state);
    expect(decision.result).toEqual({ ok: true, value: { joined: true }, replayed: false });
    expect(state.members).toEqual(["a", "new"]);
    expect(decision.writes).toEqual([{ type: "teamJoin", memberId: "new", invitationId: "inv-1", joinedAt: NOW }]);
    expect(decision.effects).toContainEqual({
      type: "payer",
      memberId: "new",
      payer: { ownerId: "owner", active: true },
    });
  });

  it("a replay of the same accepted invitation by the same person changes nothing", () => {
    const state = owner(["new"]);
    const decision = join(state, { invitation: { ...live, acceptedAt: NOW - 10 } });
    expect(decision.result).toEqual({ ok: true, value: { joined: true }, replayed: true });
    expect(decision.writes).toEqual([]);
    expect(state.members).toEqual(["new"]);
  });

  it("holds the seat limit, the owner included: the fifth person joins, the sixth is refused", () => {
    const four = owner(Array.from({ length: TEAM_SEATS - 2 }, (_, i) => `m${i}`));
    expect(join(four).result.ok).toBe(true);
    expect(four.members).toHaveLength(TEAM_SEATS - 1);
    expectRefused(four, (s) => join(s, {}, "sixth"), "seat_limit", SEAT_LIMIT_MESSAGE);
  });

  it("refuses a used, revoked, expired or unknown invitation", () => {
    for (const invitation of [
      { ...live, acceptedAt: NOW - 1 },
      { ...live, revokedAt: NOW - 1 },
      { ...live, expiresAt: NOW },
      null,
    ])
      expectRefused(owner(), (s) => join(s, { invitation }), "invitation_invalid", INVITATION_INVALID_MESSAGE);
  });

  it("refuses another address, a person in a team already, and a suspended team", () => {
    expectRefused(
      owner(),
      (s) => join(s, { invitation: { ...live, email: "else@example.com" } }),
      "wrong_account",
      WRONG_ACCOUNT_MESSAGE,
    );
    expectRefused(owner(), (s) => join(s, { joinerTeam: "other-owner" }), "already_in_team", ALREADY_IN_TEAM_MESSAGE);
    expectRefused(owner(["new"]), (s) => join(s), "already_in_team", ALREADY_IN_TEAM_MESSAGE);
    expectRefused(owner([], "Advanced"), (s) => join(s), "team_suspended_join", TEAM_SUSPENDED_JOIN_MESSAGE);
    expectRefused(owner([], "Pro", true), (s) => join(s), "team_suspended_join", TEAM_SUSPENDED_JOIN_MESSAGE);
  });
});

describe("leaving a team is decided by the owner's ledger", () => {
  const remove = (state: LedgerState, memberId: string, leaving = false) =>
    LEDGER_OPS.teamRemove.decide(state, { memberId, leaving }, { hash: "team" }, ctx);

  it("removes a member: out of the state, one delete, and the member's ledger learns it pays for itself", () => {
    const state = owner(["a", "b"]);
    const decision = remove(state, "a");
    expect(decision.result.ok).toBe(true);
    expect(state.members).toEqual(["b"]);
    expect(decision.writes).toEqual([{ type: "teamLeave", memberId: "a" }]);
    expect(decision.effects).toContainEqual({ type: "payer", memberId: "a", payer: null });
  });

  it("refuses someone who is not a member, and removing twice", () => {
    const state = owner(["a"]);
    expect(remove(state, "a").result.ok).toBe(true);
    expect(remove(state, "a")).toMatchObject({
      result: { ok: false, status: 404, reason: "not_in_team" },
      writes: [],
      effects: [],
    });
    expect(remove(owner(), "x", true).result).toMatchObject({
      ok: false,
      reason: "not_in_team",
      message: "You are not in a team.",
    });
  });

  it("closes a team only when nobody else is in it", () => {
    const close = (state: LedgerState) => LEDGER_OPS.teamClose.decide(state, {}, { hash: "team" }, ctx);
    expect(close(owner(["a"])).result).toMatchObject({
      ok: false,
      reason: "owner_cannot_leave",
      message: OWNER_CANNOT_LEAVE_MESSAGE,
    });
    expect(close(owner())).toMatchObject({ result: { ok: true }, writes: [{ type: "teamClose" }] });
  });
});

describe("a member's ledger and its payer", () => {
  const told = (state: LedgerState, from: string, payer: LedgerState["payer"]) =>
    LEDGER_OPS.payerChanged.decide(state, { from, payer }, { hash: "payer" }, ctx);

  it("learns its payer, and that it pays for itself again, from its owner only", () => {
    const member = { ...owner(), user: { ...owner().user, id: "m", plan: "Free" as const } };
    expect(told(member, "owner", { ownerId: "owner", active: true }).writes).toEqual([]);
    expect(member.payer).toEqual({ ownerId: "owner", active: true });
    // A late word from someone else's ledger changes nothing.
    expect(told(member, "stranger", null).result).toMatchObject({ ok: true, replayed: true });
    expect(member.payer).toEqual({ ownerId: "owner", active: true });
    told(member, "owner", null);
    expect(member.payer).toBeNull();
  });
});

describe("the owner's ledger pays only for its members while the team works", () => {
  const request = clipRequestSchema.parse({
    name: "Team moment",
    videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    startSeconds: 10,
    endSeconds: 25,
    format: "mp4",
    quality: "720p",
  });
  const charge = (state: LedgerState, creatorId: string) =>
    LEDGER_OPS.charge.decide(state, { key: `k-${++n}`, request, source: "api", creatorId }, { hash: "h" }, ctx);

  it("relays the team balance to the members it holds, and to nobody without members", () => {
    const withMembers = charge(owner(["a", "b"]), "a");
    expect(withMembers.effects).toContainEqual(expect.objectContaining({ type: "teamCredits", memberIds: ["a", "b"] }));
    const alone = LEDGER_OPS.charge.decide(owner(), { key: "own", request, source: "api" }, { hash: "h" }, ctx);
    expect(alone.result.ok).toBe(true);
    expect(alone.effects.filter((e) => e.type === "teamCredits" || e.type === "teamStatus")).toEqual([]);
  });

  it("refuses a clip of someone who is not (or no longer) a member, and any member's clip while suspended", () => {
    // Forwarding decides who pays on these reasons: the member's ledger corrects its payer and pays itself.
    const notMember = { ok: false, status: 403, reason: "not_a_member", message: NOT_A_MEMBER_MESSAGE };
    const suspended = { ok: false, status: 403, reason: "team_suspended", message: TEAM_SUSPENDED_MESSAGE };
    expect(charge(owner(["a"]), "gone").result).toMatchObject(notMember);
    expect(charge(owner(["a"], "Advanced"), "a").result).toMatchObject(suspended);
    expect(charge(owner(["a"], "Pro", true), "a").result).toMatchObject(suspended);
  });

  it("a ban or a plan below Pro tells every member's ledger the team is suspended; an owner without members tells nobody", () => {
    const banned = LEDGER_OPS.setBanned.decide(owner(["a", "b"]), { banned: true }, { hash: "b" }, ctx);
    expect(banned.effects).toContainEqual({ type: "teamStatus", active: false, plan: "Pro", memberIds: ["a", "b"] });
    const alone = LEDGER_OPS.setBanned.decide(owner(), { banned: true }, { hash: "b" }, ctx);
    expect(alone.effects.filter((e) => e.type === "teamStatus")).toEqual([]);
  });
});
