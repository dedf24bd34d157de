/**
 * Every ledger operation, as a table: what it accepts, each reason it refuses, what a repeated request does, and —
 * for clip operations — who pays and whose clip it is. Decisions are pure, so each row builds a state, calls
 * `LEDGER_OPS[name].decide` directly, and checks the answer, the writes, the effects and the state it leaves.
 * An operation added to `LEDGER_OPS` without rows here fails the first test below.
 */
import { describe, expect, it } from "vitest";
import { ADMIN_RIGHTS_MESSAGES, STEP_UP_MS } from "../admin-rights";
import { HOLD_TTL_MS, type ClipRequest } from "../api";
import { newPaidLine, type SubscriptionFacts } from "../billing";
import {
  INSUFFICIENT_CREDITS_MESSAGE,
  NEW_USER_CREDITS,
  PLUGIN_CONNECT_CREDITS,
  ZERO_DURATION_MESSAGE,
} from "../credits";
import { BATCH_LIMIT_MESSAGE, BATCH_MAX_HOLDS, batchFullMessage, monthlyCredits, PLAN_PERIOD_MS } from "../plans";
import {
  ALREADY_IN_TEAM_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  OWNER_CANNOT_LEAVE_MESSAGE,
  SEAT_LIMIT_MESSAGE,
  TEAM_OPEN_MESSAGE,
  TEAM_SEATS,
  TEAM_SUSPENDED_JOIN_MESSAGE,
  TEAM_SUSPENDED_MESSAGE,
  WRONG_ACCOUNT_MESSAGE,
} from "../teams";
import {
  BANNED_MESSAGE,
  CONFLICT_MESSAGE,
  decide,
  fail,
  LEDGER_OPS,
  success,
  type Decision,
  type Effect,
  type Facts,
  type Hold,
  type LedgerErrorCode,
  type LedgerInput,
  type LedgerOpName,
  type LedgerOutcome,
  type LedgerRefusal,
  type LedgerState,
  type LedgerUser,
  type UserPatch,
  type Write,
} from "./index";
import { UPGRADE_NEEDS_PAYMENT } from "./plans";

// ── Building states and deciding ─────────────────────────────────────────────

const NOW = Date.UTC(2026, 10, 26, 9, 0);
const DAY = 24 * 60 * 60 * 1000;
const OWNER = "owner-1";
const MEMBER = "member-1";
const ADMIN = "admin-1";

/** An account as its ledger holds it: Free with 100 credits unless the row says otherwise. */
function account(user: Partial<LedgerUser> = {}, rest: Partial<Omit<LedgerState, "user">> = {}): LedgerState {
  return {
    user: {
      id: OWNER,
      plan: "Free",
      pendingPlan: null,
      periodStart: null,
      periodEnd: null,
      credits: 100,
      banned: false,
      planSetBy: null,
      ...user,
    },
    holds: new Map(),
    keys: new Map(),
    lastClipAt: 0,
    clipCount: 0,
    members: [],
    payer: null,
    payerHolds: new Map(),
    ownsTeam: false,
    lines: new Map(),
    ...rest,
  };
}

/** A Pro account in the middle of its period: a team's owner (MEMBER is in it), whose balance pays for its clips. */
const proOwner = (user: Partial<LedgerUser> = {}, rest: Partial<Omit<LedgerState, "user">> = {}) =>
  account(
    { plan: "Pro", periodStart: NOW - 10 * DAY, periodEnd: NOW + 20 * DAY, credits: 1000, ...user },
    { members: [MEMBER], ...rest },
  );

const request = (over: Partial<ClipRequest> = {}): ClipRequest => ({
  name: "Goal",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 0,
  endSeconds: 30,
  format: "mp4",
  quality: "720p",
  ...over,
}); // 3 credits: 30 s of 720p video

type ExtraFacts = Omit<Partial<Facts>, "hash"> & { holdByKey?: Hold | null };
type AnyOp = {
  fingerprint: (input: unknown) => unknown;
  decide: (
    state: LedgerState,
    input: unknown,
    facts: Facts & { holdByKey?: Hold | null },
    ctx: Ctx,
  ) => Decision<unknown>;
};
type Ctx = { now: number; newId: () => string };

/** The request's hash as the object computes it: a string fingerprint is the hash; anything else its JSON. */
function hashOf<K extends LedgerOpName>(name: K, input: LedgerInput<K>): string {
  const fingerprint = (LEDGER_OPS[name] as unknown as AnyOp).fingerprint(input);
  return typeof fingerprint === "string" ? fingerprint : JSON.stringify(fingerprint);
}

let lastId = 0;
const ctxAt = (now = NOW): Ctx => ({ now, newId: () => `id-${++lastId}` });

function run<K extends LedgerOpName>(
  name: K,
  state: LedgerState,
  input: LedgerInput<K>,
  facts: ExtraFacts = {},
  now = NOW,
): Decision<LedgerOutcome<K>> {
  const op = LEDGER_OPS[name] as unknown as AnyOp;
  return op.decide(state, input, { hash: hashOf(name, input), ...facts }, ctxAt(now)) as Decision<LedgerOutcome<K>>;
}

/** A hold as `reserve` leaves it, for operations that settle one. */
function hold(over: Partial<Hold> = {}, req: ClipRequest = request()): Hold {
  const key = over.key ?? "reserve-key-0001";
  return {
    id: "hold-1",
    amount: 3,
    request: JSON.stringify(req),
    name: req.name,
    key,
    hash: hashOf("reserve", { key, request: req }),
    creatorId: null,
    createdAt: NOW - 60_000,
    expiresAt: NOW + HOLD_TTL_MS - 60_000,
    ...over,
  };
}
const withHolds = (...holds: Hold[]) => new Map(holds.map((h) => [h.id, h]));

const writeTypes = (d: Decision<unknown>) => d.writes.map((w) => w.type);
const rowsOf = (d: Decision<unknown>) => d.writes.filter((w): w is Extract<Write, { type: "row" }> => w.type === "row");
const credits = (balance: number, held = 0) => ({ balance, held, available: balance - held });
const publishes = (d: Decision<unknown>) =>
  d.effects.flatMap((e) =>
    e.type === "publish" ? [e.event.type] : e.type === "toMember" ? [`toMember:${e.event.type}`] : [],
  );

/** The result's value, for an accepted decision. */
function valueOf<T>(d: Decision<T>): T {
  if (!d.result.ok) throw new Error(`refused: ${d.result.code} ${d.result.message}`);
  return d.result.value;
}

// ── The table ────────────────────────────────────────────────────────────────

type Expect<K extends LedgerOpName> =
  /** Accepted: changes something (or, with `replayed`, answers a replay that still tidies a field). */
  | {
      accept: (d: Decision<LedgerOutcome<K>>, state: LedgerState, earlier: Decision<LedgerOutcome<K>>[]) => void;
      replayed?: boolean;
    }
  /** Asked again: answered, nothing written, the state as the earlier request left it. */
  | {
      again: (d: Decision<LedgerOutcome<K>>, state: LedgerState, earlier: Decision<LedgerOutcome<K>>[]) => void;
      replayed?: boolean;
    }
  /** Refused: this code, reason and status, nothing written, no effect, the state as it was. */
  | { refuse: LedgerErrorCode; reason: LedgerRefusal; status: number; message?: string | RegExp };

interface Row<K extends LedgerOpName> {
  /** The behaviour, as a sentence. */
  says: string;
  state: () => LedgerState;
  /** Requests decided first on the same state (each must be accepted): the earlier use of a key. */
  before?: { input: LedgerInput<K>; facts?: ExtraFacts }[];
  input: LedgerInput<K>;
  facts?: ExtraFacts;
  now?: number;
  expect: Expect<K>;
}

interface OpRows<K extends LedgerOpName> {
  rows: Row<K>[];
  /** Why the operation has no refusal row: its decision cannot refuse. */
  neverRefuses?: string;
}

const edit = (over: Partial<LedgerInput<"adminEdit">> = {}): LedgerInput<"adminEdit"> => ({
  key: "admin-edit:0001",
  plan: "Free",
  expectedBalance: 100,
  newBalance: 100,
  actorId: ADMIN,
  reason: "",
  stepUp: { sessionId: "session-1" },
  ...over,
});
const freshStepUp = { stepUpAt: NOW - 60_000 };

const subscription = (over: Partial<SubscriptionFacts> = {}): SubscriptionFacts => ({
  status: "active",
  plan: "Pro",
  billing: "monthly",
  periodStart: NOW - DAY,
  periodEnd: NOW - DAY + PLAN_PERIOD_MS,
  cancelAtPeriodEnd: false,
  paidPlan: null,
  paidUntil: null,
  ...over,
});
/** A paid Pro line of invoice `in_1`, starting now. */
const paidPro = (billing: "monthly" | "yearly" = "monthly"): LedgerInput<"followMoney"> => ({
  paid: [
    {
      id: "il_1",
      paymentId: "in_1",
      subscriptionId: "sub_1",
      chargedCents: billing === "monthly" ? 6900 : 55200,
      start: NOW,
      end: billing === "monthly" ? NOW + PLAN_PERIOD_MS : NOW + 365 * DAY,
      item: { plan: "Pro", billing },
    },
  ],
});
/** A yearly Basic line paid a month ago: eleven of its credit months begin later. */
const yearlyLine = () =>
  newPaidLine({
    id: "il_y",
    paymentId: "in_y",
    subscriptionId: "sub_y",
    chargedCents: 14400,
    start: NOW - 30 * DAY,
    end: NOW + 335 * DAY,
    item: { plan: "Basic", billing: "yearly" },
  });
/** A Basic account whose period ended yesterday: the renewal is due. */
const renewalDue = (user: Partial<LedgerUser> = {}, rest: Partial<Omit<LedgerState, "user">> = {}) =>
  account({ plan: "Basic", periodStart: NOW - 31 * DAY, periodEnd: NOW - DAY, credits: 10, ...user }, rest);

const NEWCOMER = "member-new";
const liveInvitation = { email: "new@example.com", expiresAt: NOW + DAY, acceptedAt: null, revokedAt: null };
const joinOf = (over: Partial<LedgerInput<"teamJoin">> = {}): LedgerInput<"teamJoin"> => ({
  invitationId: "inv-1",
  memberId: NEWCOMER,
  email: "New@Example.com",
  ...over,
});

const TABLE: { [K in LedgerOpName]: OpRows<K> } = {
  charge: {
    rows: [
      {
        says: "charges the clip's cost and adds the account's own clip, live",
        state: () => account(),
        input: { key: "api:charge-0001", request: request(), source: "api" },
        expect: {
          accept: (d, s) => {
            expect(writeTypes(d)).toEqual(["clip", "row", "balance"]);
            expect(valueOf(d).credits).toEqual(credits(97));
            expect(s.clipCount).toBe(1);
            expect(d.writes[0]).toMatchObject({ type: "clip", creatorId: null, source: "api" });
            expect(d.effects).toEqual([
              { type: "publish", event: { type: "credits", data: credits(97) } },
              { type: "publish", event: { type: "clip", data: { clip: valueOf(d).clip } } },
              { type: "adminTopic", topic: "clips" },
            ]);
          },
        },
      },
      {
        says: "a team member's clip is paid by this (the owner's) balance and is the member's clip, sent to the member",
        state: () => proOwner(),
        input: { key: "api:member-0001", request: request(), source: "api", creatorId: MEMBER },
        expect: {
          accept: (d, s) => {
            expect(s.user.credits).toBe(997);
            expect(d.writes[0]).toMatchObject({ type: "clip", creatorId: MEMBER });
            expect(rowsOf(d)[0]!.description).toBe('Team clip: "Goal"');
            // Not one of the owner's clips: the owner's count and clip list stay as they were.
            expect(s.clipCount).toBe(0);
            expect(publishes(d)).toEqual(["credits", "toMember:clip"]);
            expect(d.effects).toContainEqual({ type: "teamCredits", credits: credits(997), memberIds: [MEMBER] });
            expect(d.effects).toContainEqual({
              type: "toMember",
              memberId: MEMBER,
              event: { type: "clip", data: { clip: valueOf(d).clip, paidByTeam: true } },
            });
          },
        },
      },
      {
        says: "an expired hold no longer holds credits back",
        state: () => account({ credits: 5 }, { holds: withHolds(hold({ expiresAt: NOW - 1 })) }),
        input: { key: "api:charge-0003", request: request(), source: "api" },
        expect: { accept: (d) => expect(valueOf(d).credits).toEqual(credits(2)) },
      },
      {
        says: "the same key and request answers with the first clip and charges nothing again",
        state: () => account(),
        before: [{ input: { key: "api:charge-0004", request: request(), source: "api" } }],
        input: { key: "api:charge-0004", request: request(), source: "api" },
        expect: {
          again: (d, s, [first]) => {
            expect(valueOf(d).clip).toEqual(valueOf(first!).clip);
            expect(s.user.credits).toBe(97);
          },
        },
      },
      {
        says: "the same key with another request is refused",
        state: () => account(),
        before: [{ input: { key: "api:charge-0005", request: request(), source: "api" } }],
        input: { key: "api:charge-0005", request: request({ endSeconds: 40 }), source: "api" },
        expect: {
          refuse: "idempotency_conflict",
          reason: "idempotency_conflict",
          status: 409,
          message: CONFLICT_MESSAGE,
        },
      },
      {
        says: "a key whose clip was deleted since answers that the clip no longer exists",
        state: () =>
          account(
            {},
            {
              keys: new Map([
                [
                  "api:charge-0006",
                  { hash: hashOf("charge", { key: "api:charge-0006", request: request(), source: "api" }), clip: null },
                ],
              ]),
            },
          ),
        input: { key: "api:charge-0006", request: request(), source: "api" },
        expect: { refuse: "not_found", reason: "clip_gone", status: 404 },
      },
      {
        says: "a banned account is refused",
        state: () => account({ banned: true }),
        input: { key: "api:charge-0007", request: request(), source: "api" },
        expect: { refuse: "forbidden", reason: "banned", status: 403, message: BANNED_MESSAGE },
      },
      {
        says: "a member's clip is refused while the owner is below Pro (the team is suspended)",
        state: () => proOwner({ plan: "Advanced" }),
        input: { key: "api:member-0002", request: request(), source: "api", creatorId: MEMBER },
        expect: { refuse: "forbidden", reason: "team_suspended", status: 403, message: TEAM_SUSPENDED_MESSAGE },
      },
      {
        says: "a quality above the plan's is refused",
        state: () => account(),
        input: { key: "api:charge-0008", request: request({ quality: "1080p" }), source: "api" },
        expect: { refuse: "plan_limit", reason: "plan_limit", status: 403 },
      },
      {
        says: "a clip longer than the plan allows is refused",
        state: () => account(),
        input: { key: "api:charge-0009", request: request({ endSeconds: 61 }), source: "api" },
        expect: { refuse: "plan_limit", reason: "plan_limit", status: 403 },
      },
      {
        says: "a clip of no length is refused",
        state: () => account(),
        input: { key: "api:charge-0010", request: request({ startSeconds: 10, endSeconds: 10 }), source: "api" },
        expect: { refuse: "invalid_input", reason: "zero_duration", status: 422, message: ZERO_DURATION_MESSAGE },
      },
      {
        says: "a balance below the cost is refused",
        state: () => account({ credits: 2 }),
        input: { key: "api:charge-0011", request: request(), source: "api" },
        expect: {
          refuse: "insufficient_credits",
          reason: "insufficient_credits",
          status: 402,
          message: INSUFFICIENT_CREDITS_MESSAGE,
        },
      },
      {
        says: "credits held for a clip in progress cannot pay for another",
        state: () => account({ credits: 5 }, { holds: withHolds(hold()) }),
        input: { key: "api:charge-0012", request: request(), source: "api" },
        expect: { refuse: "insufficient_credits", reason: "insufficient_credits", status: 402 },
      },
    ],
  },

  reserve: {
    rows: [
      {
        says: "holds the clip's cost: available drops, the balance does not, and the object wakes at the expiry",
        state: () => account(),
        input: { key: "hold:reserve-0001", request: request() },
        expect: {
          accept: (d, s) => {
            const { hold: held } = valueOf(d);
            expect(writeTypes(d)).toEqual(["hold"]);
            expect(valueOf(d).credits).toEqual(credits(100, 3));
            expect(s.holds.get(held.id)).toMatchObject({ amount: 3, creatorId: null });
            expect(d.effects).toEqual([
              { type: "publish", event: { type: "credits", data: credits(100, 3) } },
              { type: "wake", at: NOW + HOLD_TTL_MS },
            ]);
          },
        },
      },
      {
        says: "a team member's hold is on the owner's balance and names the member",
        state: () => proOwner(),
        input: { key: "hold:member-0001", request: request(), creatorId: MEMBER },
        expect: {
          accept: (d, s) => {
            expect(s.holds.get(valueOf(d).hold.id)!.creatorId).toBe(MEMBER);
            expect(d.effects).toContainEqual({ type: "teamCredits", credits: credits(1000, 3), memberIds: [MEMBER] });
          },
        },
      },
      {
        says: "an expired hold does not count against one clip at a time",
        state: () => account({}, { holds: withHolds(hold({ expiresAt: NOW })) }),
        input: { key: "hold:reserve-0002", request: request() },
        expect: { accept: (d) => expect(valueOf(d).credits).toEqual(credits(100, 3)) },
      },
      {
        says: "the same key and request answers with the same hold and holds nothing more",
        state: () => account(),
        before: [{ input: { key: "hold:reserve-0003", request: request() } }],
        input: { key: "hold:reserve-0003", request: request() },
        expect: {
          again: (d, s, [first]) => {
            expect(valueOf(d).hold).toEqual(valueOf(first!).hold);
            expect(s.holds.size).toBe(1);
          },
        },
      },
      {
        says: "a key whose hold settled since (read from D1) answers with that hold",
        state: () => account(),
        input: { key: "reserve-key-0001", request: request() },
        facts: { holdByKey: hold({ id: "hold-settled" }) },
        expect: { again: (d) => expect(valueOf(d).hold.id).toBe("hold-settled") },
      },
      {
        says: "the same key with another request is refused",
        state: () => account({ plan: "Pro" }),
        before: [{ input: { key: "hold:reserve-0004", request: request() } }],
        input: { key: "hold:reserve-0004", request: request({ name: "Other" }) },
        expect: {
          refuse: "idempotency_conflict",
          reason: "idempotency_conflict",
          status: 409,
          message: CONFLICT_MESSAGE,
        },
      },
      {
        says: "a settled hold's key with another request (read from D1) is refused",
        state: () => account(),
        input: { key: "reserve-key-0001", request: request({ name: "Other" }) },
        facts: { holdByKey: hold() },
        expect: { refuse: "idempotency_conflict", reason: "idempotency_conflict", status: 409 },
      },
      {
        says: "a banned account is refused",
        state: () => account({ banned: true }),
        input: { key: "hold:reserve-0005", request: request() },
        expect: { refuse: "forbidden", reason: "banned", status: 403, message: BANNED_MESSAGE },
      },
      {
        says: "a member's hold is refused while the owner is below Pro",
        state: () => proOwner({ plan: "Basic" }),
        input: { key: "hold:member-0002", request: request(), creatorId: MEMBER },
        expect: { refuse: "forbidden", reason: "team_suspended", status: 403, message: TEAM_SUSPENDED_MESSAGE },
      },
      {
        says: "a format or quality above the plan's is refused",
        state: () => account(),
        input: { key: "hold:reserve-0006", request: request({ quality: "2160p" }) },
        expect: { refuse: "plan_limit", reason: "plan_limit", status: 403 },
      },
      {
        says: "a clip of no length is refused",
        state: () => account(),
        input: { key: "hold:reserve-0007", request: request({ endSeconds: 0 }) },
        expect: { refuse: "invalid_input", reason: "zero_duration", status: 422 },
      },
      {
        says: "a balance below the cost is refused",
        state: () => account({ credits: 1 }),
        input: { key: "hold:reserve-0008", request: request() },
        expect: { refuse: "insufficient_credits", reason: "insufficient_credits", status: 402 },
      },
      {
        says: "a plan without batch processing holds one clip at a time",
        state: () => account({}, { holds: withHolds(hold()) }),
        input: { key: "hold:reserve-0009", request: request() },
        expect: { refuse: "plan_limit", reason: "batch_limit", status: 403, message: BATCH_LIMIT_MESSAGE },
      },
      {
        says: `a batch plan holds at most ${BATCH_MAX_HOLDS} clips at once`,
        state: () =>
          proOwner(
            {},
            {
              holds: withHolds(
                ...Array.from({ length: BATCH_MAX_HOLDS }, (_, i) =>
                  hold({ id: `hold-${i}`, key: `reserve-key-${i}000` }),
                ),
              ),
            },
          ),
        input: { key: "hold:reserve-0010", request: request() },
        expect: {
          refuse: "plan_limit",
          reason: "batch_limit",
          status: 403,
          message: batchFullMessage(BATCH_MAX_HOLDS),
        },
      },
    ],
  },

  capture: {
    rows: [
      {
        says: "turns the hold into the clip and its charge, and settles the hold as captured",
        state: () => account({}, { holds: withHolds(hold()) }),
        input: { holdId: "hold-1" },
        expect: {
          accept: (d, s) => {
            const { clip } = valueOf(d);
            expect(writeTypes(d)).toEqual(["clip", "row", "balance", "settleHolds"]);
            expect(d.writes[0]).toMatchObject({ source: "extension", creatorId: null });
            expect(rowsOf(d)[0]).toMatchObject({ delta: -3, holdId: "hold-1", key: "hold:hold-1" });
            expect(d.writes[3]).toEqual({ type: "settleHolds", ids: ["hold-1"], status: "captured", clipId: clip.id });
            expect(valueOf(d).credits).toEqual(credits(97));
            expect(s.holds.size).toBe(0);
            expect(s.clipCount).toBe(1);
            expect(publishes(d)).toEqual(["credits", "clip"]);
          },
        },
      },
      {
        says: "a member's hold becomes the member's clip, paid by the owner, sent to the member",
        state: () => proOwner({}, { holds: withHolds(hold({ creatorId: MEMBER })) }),
        input: { holdId: "hold-1" },
        expect: {
          accept: (d, s) => {
            expect(d.writes[0]).toMatchObject({ type: "clip", creatorId: MEMBER });
            expect(s.user.credits).toBe(997);
            expect(s.clipCount).toBe(0);
            expect(publishes(d)).toEqual(["credits", "toMember:clip"]);
            expect(d.effects).toContainEqual({ type: "teamCredits", credits: credits(997), memberIds: [MEMBER] });
          },
        },
      },
      {
        says: "capturing again answers with the same clip and charges nothing again",
        state: () => account({}, { holds: withHolds(hold()) }),
        before: [{ input: { holdId: "hold-1" } }],
        input: { holdId: "hold-1" },
        facts: { storedHold: { status: "captured", hash: hold().hash } },
        expect: {
          again: (d, s, [first]) => {
            expect(valueOf(d).clip).toEqual(valueOf(first!).clip);
            expect(s.user.credits).toBe(97);
          },
        },
      },
      {
        says: "an unknown hold is not found",
        state: () => account(),
        input: { holdId: "hold-unknown" },
        facts: { storedHold: null },
        expect: { refuse: "not_found", reason: "hold_not_found", status: 404 },
      },
      {
        says: "a released hold can no longer be captured",
        state: () => account(),
        input: { holdId: "hold-1" },
        facts: { storedHold: { status: "released", hash: hold().hash } },
        expect: { refuse: "hold_not_active", reason: "hold_not_active", status: 409, message: /was released/ },
      },
      {
        says: "a hold past its expiry can no longer be captured, though the sweep has not marked it yet",
        state: () => account({}, { holds: withHolds(hold({ expiresAt: NOW })) }),
        input: { holdId: "hold-1" },
        expect: { refuse: "hold_not_active", reason: "hold_not_active", status: 409, message: /was expired/ },
      },
      {
        says: "a hold whose stored request cannot be read is an internal error, not a charge",
        state: () => account({}, { holds: withHolds(hold({ request: "{}" })) }),
        input: { holdId: "hold-1" },
        expect: { refuse: "internal", reason: "hold_unreadable", status: 500 },
      },
      {
        says: "a balance that fell below the hold (an admin's edit meanwhile) is refused",
        state: () => account({ credits: 2 }, { holds: withHolds(hold()) }),
        input: { holdId: "hold-1" },
        expect: { refuse: "insufficient_credits", reason: "insufficient_credits", status: 402 },
      },
    ],
  },

  release: {
    rows: [
      {
        says: "gives the held credits back and settles the hold as released",
        state: () => account({}, { holds: withHolds(hold()) }),
        input: { holdId: "hold-1" },
        expect: {
          accept: (d, s) => {
            expect(d.writes).toEqual([{ type: "settleHolds", ids: ["hold-1"], status: "released", clipId: null }]);
            expect(valueOf(d).credits).toEqual(credits(100));
            expect(s.holds.size).toBe(0);
            expect(d.effects).toEqual([{ type: "publish", event: { type: "credits", data: credits(100) } }]);
          },
        },
      },
      {
        says: "a member's hold is released on the owner's balance, relayed to the team",
        state: () => proOwner({}, { holds: withHolds(hold({ creatorId: MEMBER })) }),
        input: { holdId: "hold-1" },
        expect: {
          accept: (d) =>
            expect(d.effects).toContainEqual({ type: "teamCredits", credits: credits(1000), memberIds: [MEMBER] }),
        },
      },
      {
        says: "releasing again is fine and writes nothing",
        state: () => account({}, { holds: withHolds(hold()) }),
        before: [{ input: { holdId: "hold-1" } }],
        input: { holdId: "hold-1" },
        facts: { storedHold: { status: "released", hash: hold().hash } },
        expect: { again: (d) => expect(valueOf(d).credits).toEqual(credits(100)) },
      },
      {
        says: "releasing an expired hold is fine and writes nothing",
        state: () => account(),
        input: { holdId: "hold-1" },
        facts: { storedHold: { status: "expired", hash: hold().hash } },
        expect: { again: () => undefined },
      },
      {
        says: "an unknown hold is not found",
        state: () => account(),
        input: { holdId: "hold-unknown" },
        facts: { storedHold: null },
        expect: { refuse: "not_found", reason: "hold_not_found", status: 404 },
      },
      {
        says: "a captured hold cannot be released",
        state: () => account(),
        input: { holdId: "hold-1" },
        facts: { storedHold: { status: "captured", hash: hold().hash } },
        expect: {
          refuse: "hold_not_active",
          reason: "hold_not_active",
          status: 409,
          message: "This hold was already captured.",
        },
      },
    ],
  },

  expire: {
    neverRefuses: "it settles only holds already past their expiry",
    rows: [
      {
        says: "settles the holds past their expiry and wakes at the next one",
        state: () =>
          account(
            {},
            {
              holds: withHolds(hold({ id: "due", expiresAt: NOW - 1 }), hold({ id: "later", key: "reserve-key-0002" })),
            },
          ),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(valueOf(d)).toEqual({ expired: 1 });
            expect(d.writes).toEqual([{ type: "settleHolds", ids: ["due"], status: "expired", clipId: null }]);
            expect([...s.holds.keys()]).toEqual(["later"]);
            expect(d.effects).toEqual([{ type: "wake", at: hold().expiresAt }]);
          },
        },
      },
      {
        says: "running it again finds nothing due and writes nothing",
        state: () => account({}, { holds: withHolds(hold({ id: "due", expiresAt: NOW - 1 })) }),
        before: [{ input: {} }],
        input: {},
        expect: { replayed: false, again: (d) => expect(valueOf(d)).toEqual({ expired: 0 }) },
      },
    ],
  },

  refund: {
    rows: [
      {
        says: "gives the clip's cost back to this ledger and deletes the account's own clip when asked",
        state: () => account({ credits: 97 }, { clipCount: 1 }),
        input: { clipId: "clip-9", reason: "bad cut", actorId: ADMIN, deleteClip: true },
        facts: { clip: { cost: 3, creatorId: OWNER } },
        expect: {
          accept: (d, s) => {
            expect(writeTypes(d)).toEqual(["row", "balance", "deleteClip"]);
            expect(rowsOf(d)[0]).toMatchObject({
              delta: 3,
              kind: "refund",
              key: "refund:clip-9",
              clipId: "clip-9",
              actorId: ADMIN,
            });
            expect(s.user.credits).toBe(100);
            expect(s.clipCount).toBe(0);
            expect(publishes(d)).toEqual(["credits", "clipRemoved"]);
          },
        },
      },
      {
        says: "a refund without delete keeps the clip",
        state: () => account({ credits: 97 }, { clipCount: 1 }),
        input: { clipId: "clip-9", reason: "slow" },
        facts: { clip: { cost: 3, creatorId: OWNER } },
        expect: {
          accept: (d, s) => {
            expect(writeTypes(d)).toEqual(["row", "balance"]);
            expect(s.clipCount).toBe(1);
            expect(publishes(d)).toEqual(["credits"]);
          },
        },
      },
      {
        says: "a member's clip is refunded to the owner who paid, and its removal is sent to the member",
        state: () => proOwner({ credits: 994 }),
        input: { clipId: "clip-m", reason: "bad cut", deleteClip: true },
        facts: { clip: { cost: 6, creatorId: MEMBER } },
        expect: {
          accept: (d, s) => {
            expect(s.user.credits).toBe(1000);
            expect(s.clipCount).toBe(0);
            expect(publishes(d)).toEqual(["credits", "toMember:clipRemoved"]);
            expect(d.effects).toContainEqual({
              type: "toMember",
              memberId: MEMBER,
              event: { type: "clipRemoved", data: { clipId: "clip-m" } },
            });
            expect(d.effects).toContainEqual({ type: "teamCredits", credits: credits(1000), memberIds: [MEMBER] });
          },
        },
      },
      {
        says: "refunding the same clip again gives nothing more",
        state: () => account({ credits: 97 }),
        before: [{ input: { clipId: "clip-9", reason: "bad cut" }, facts: { clip: { cost: 3, creatorId: OWNER } } }],
        input: { clipId: "clip-9", reason: "bad cut" },
        facts: { clip: { cost: 3, creatorId: OWNER } },
        expect: { again: (_d, s) => expect(s.user.credits).toBe(100) },
      },
      {
        says: "a second refund of the same clip for another reason is the same refund",
        state: () => account({ credits: 97 }),
        before: [{ input: { clipId: "clip-9", reason: "bad cut" }, facts: { clip: { cost: 3, creatorId: OWNER } } }],
        input: { clipId: "clip-9", reason: "asked twice", amount: 3 },
        facts: { clip: { cost: 3, creatorId: OWNER } },
        expect: { again: (_d, s) => expect(s.user.credits).toBe(100) },
      },
      {
        says: "a clip this ledger did not pay for is not found (a member's own ledger cannot refund a team clip)",
        state: () => account({ id: MEMBER, credits: 7 }),
        input: { clipId: "clip-m", reason: "asked", deleteClip: true },
        facts: { clip: null },
        expect: { refuse: "not_found", reason: "clip_not_found", status: 404 },
      },
      {
        says: "an amount other than the clip's cost is refused",
        state: () => account({ credits: 97 }),
        input: { clipId: "clip-9", reason: "asked", amount: 50 },
        facts: { clip: { cost: 3, creatorId: OWNER } },
        expect: { refuse: "invalid_input", reason: "refund_amount", status: 422, message: /cost 3 credits/ },
      },
      {
        says: "a refund key used for another request is refused",
        state: () =>
          account({ credits: 97 }, { keys: new Map([["refund:clip-9", { hash: "another request", clip: null }]]) }),
        input: { clipId: "clip-9", reason: "asked" },
        facts: { clip: { cost: 3, creatorId: OWNER } },
        expect: { refuse: "idempotency_conflict", reason: "idempotency_conflict", status: 409 },
      },
    ],
  },

  deleteClip: {
    rows: [
      {
        says: "deletes the account's own clip without a refund",
        state: () => account({ credits: 97 }, { clipCount: 1 }),
        input: { clipId: "clip-9" },
        facts: { clip: { cost: 3, creatorId: OWNER } },
        expect: {
          accept: (d, s) => {
            expect(d.writes).toEqual([{ type: "deleteClip", clipId: "clip-9" }]);
            expect(s.user.credits).toBe(97);
            expect(s.clipCount).toBe(0);
            expect(d.effects).toEqual([
              { type: "publish", event: { type: "clipRemoved", data: { clipId: "clip-9" } } },
              { type: "adminTopic", topic: "clips" },
            ]);
          },
        },
      },
      {
        says: "deleting a member's clip on the payer's ledger tells the member, not the owner's clip list",
        state: () => proOwner({}, { clipCount: 2 }),
        input: { clipId: "clip-m" },
        facts: { clip: { cost: 6, creatorId: MEMBER } },
        expect: {
          accept: (d, s) => {
            expect(s.clipCount).toBe(2);
            expect(publishes(d)).toEqual(["toMember:clipRemoved"]);
          },
        },
      },
      {
        // A delete has no key: the second finds no clip.
        says: "deleting again finds no clip and writes nothing",
        state: () => account({}, { clipCount: 1 }),
        before: [{ input: { clipId: "clip-9" }, facts: { clip: { cost: 3, creatorId: OWNER } } }],
        input: { clipId: "clip-9" },
        facts: { clip: null },
        expect: { refuse: "not_found", reason: "clip_not_found", status: 404 },
      },
      {
        says: "a clip this ledger did not pay for is not found",
        state: () => account({ id: MEMBER }),
        input: { clipId: "clip-m" },
        facts: { clip: null },
        expect: { refuse: "not_found", reason: "clip_not_found", status: 404 },
      },
    ],
  },

  welcome: {
    rows: [
      {
        says: "grants the welcome credits once, under the key `signup`",
        state: () => account({ credits: 0 }),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)).toMatchObject([{ delta: NEW_USER_CREDITS, kind: "signup", key: "signup" }]);
            expect(s.user.credits).toBe(NEW_USER_CREDITS);
            expect(d.effects).toEqual([
              { type: "publish", event: { type: "credits", data: credits(NEW_USER_CREDITS) } },
              { type: "adminTopic", topic: "users" },
            ]);
          },
        },
      },
      {
        says: "a second welcome grants nothing",
        state: () => account({ credits: 0 }),
        before: [{ input: {} }],
        input: {},
        expect: { again: (_d, s) => expect(s.user.credits).toBe(NEW_USER_CREDITS) },
      },
      {
        says: "the key `signup` used for another request is refused",
        state: () => account({ credits: 0 }, { keys: new Map([["signup", { hash: "another request", clip: null }]]) }),
        input: {},
        expect: { refuse: "idempotency_conflict", reason: "idempotency_conflict", status: 409 },
      },
    ],
  },

  pluginConnect: {
    rows: [
      {
        says: "a Free account gets its bonus credit and becomes Plugin",
        state: () => account(),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(valueOf(d)).toEqual({ credits: credits(100 + PLUGIN_CONNECT_CREDITS), alreadyConnected: false });
            expect(rowsOf(d)).toMatchObject([{ kind: "plugin_connect", key: "plugin-connect" }]);
            expect(d.writes).toContainEqual({ type: "user", patch: { plan: "Plugin" } });
            expect(s.user.plan).toBe("Plugin");
            expect(publishes(d)).toEqual(["credits", "plan"]);
          },
        },
      },
      {
        says: "a paid plan keeps its plan and gets the bonus credit",
        state: () => proOwner(),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(s.user.plan).toBe("Pro");
            expect(writeTypes(d)).toEqual(["row", "balance"]);
            expect(s.user.credits).toBe(1000 + PLUGIN_CONNECT_CREDITS);
          },
        },
      },
      {
        says: "an account already on Plugin is already connected",
        state: () => account({ plan: "Plugin" }),
        input: {},
        expect: { again: (d) => expect(valueOf(d).alreadyConnected).toBe(true) },
      },
      {
        says: "a paid account connecting again gets nothing more",
        state: () => proOwner(),
        before: [{ input: {} }],
        input: {},
        expect: {
          again: (d, s) => {
            expect(valueOf(d).alreadyConnected).toBe(true);
            expect(s.user.credits).toBe(1001);
          },
        },
      },
      {
        says: "the bonus key used for another request is refused",
        state: () => account({}, { keys: new Map([["plugin-connect", { hash: "another request", clip: null }]]) }),
        input: {},
        expect: { refuse: "idempotency_conflict", reason: "idempotency_conflict", status: 409 },
      },
    ],
  },

  starterReset: {
    rows: [
      {
        says: "a Free account with 0 credits and no clips gets its starter credits back",
        state: () => account({ credits: 0 }),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)).toMatchObject([{ delta: NEW_USER_CREDITS, kind: "starter_reset", key: "starter-reset" }]);
            expect(s.user.credits).toBe(NEW_USER_CREDITS);
          },
        },
      },
      {
        says: "a legacy Plugin account counts as Free",
        state: () => account({ plan: "Plugin", credits: 0 }),
        input: {},
        expect: { accept: (_d, s) => expect(s.user.credits).toBe(NEW_USER_CREDITS) },
      },
      {
        says: "once ever: at 0 credits again it grants nothing (its key is remembered)",
        state: () =>
          account(
            { credits: 0 },
            { keys: new Map([["starter-reset", { hash: hashOf("starterReset", {}), clip: null }]]) },
          ),
        input: {},
        expect: { again: (_d, s) => expect(s.user.credits).toBe(0) },
      },
      ...(
        [
          ["credits left", { credits: 1 }, 0],
          ["clips made", { credits: 0 }, 1],
          ["a paid plan", { credits: 0, plan: "Basic" }, 0],
          ["a ban", { credits: 0, banned: true }, 0],
        ] as const
      ).map(([why, user, clipCount]): Row<"starterReset"> => ({
        says: `not due with ${why}: grants nothing`,
        state: () => account(user, { clipCount }),
        input: {},
        expect: { again: (_d, s) => expect(s.user.credits).toBe(user.credits) },
      })),
      {
        says: "the reset key used for another request is refused",
        state: () =>
          account({ credits: 0 }, { keys: new Map([["starter-reset", { hash: "another request", clip: null }]]) }),
        input: {},
        expect: { refuse: "idempotency_conflict", reason: "idempotency_conflict", status: 409 },
      },
    ],
  },

  adjust: {
    rows: [
      {
        says: "sets the balance to the admin's value, with the admin and the reason on the row",
        state: () => account(),
        input: { key: "adjust:0001", newBalance: 40, actorId: ADMIN, reason: "typo" },
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)).toMatchObject([
              {
                delta: -60,
                balanceAfter: 40,
                kind: "adjust",
                actorId: ADMIN,
                description: "Adjusted by an admin: typo",
              },
            ]);
            expect(s.user.credits).toBe(40);
          },
        },
      },
      {
        says: "the same key and request changes nothing more",
        state: () => account(),
        before: [{ input: { key: "adjust:0002", newBalance: 40, actorId: ADMIN, reason: "typo" } }],
        input: { key: "adjust:0002", newBalance: 40, actorId: ADMIN, reason: "typo" },
        expect: { again: (_d, s) => expect(s.user.credits).toBe(40) },
      },
      {
        says: "the same key with another balance is refused",
        state: () => account(),
        before: [{ input: { key: "adjust:0003", newBalance: 40, actorId: ADMIN, reason: "typo" } }],
        input: { key: "adjust:0003", newBalance: 41, actorId: ADMIN, reason: "typo" },
        expect: { refuse: "idempotency_conflict", reason: "idempotency_conflict", status: 409 },
      },
      {
        says: "a negative balance is refused",
        state: () => account(),
        input: { key: "adjust:0004", newBalance: -1, actorId: ADMIN, reason: "typo" },
        expect: { refuse: "invalid_input", reason: "invalid_balance", status: 422 },
      },
      {
        says: "a balance that is not a whole number is refused",
        state: () => account(),
        input: { key: "adjust:0005", newBalance: 1.5, actorId: ADMIN, reason: "typo" },
        expect: { refuse: "invalid_input", reason: "invalid_balance", status: 422 },
      },
    ],
  },

  adminEdit: {
    rows: [
      {
        says: "a plan set by an admin with a fresh step-up applies at once, starts a period and names the admin",
        state: () => account(),
        input: edit({ plan: "Pro" }),
        facts: freshStepUp,
        expect: {
          accept: (d, s) => {
            const patch = {
              plan: "Pro",
              pendingPlan: null,
              periodStart: NOW,
              periodEnd: NOW + PLAN_PERIOD_MS,
              planSetBy: ADMIN,
            };
            expect(d.writes).toEqual([{ type: "user", patch }]);
            expect(s.user).toMatchObject(patch);
            expect(valueOf(d)).toMatchObject({ planChanged: true, creditsChanged: false });
            // Free → Pro with no members: nobody to tell that a team works (an owner without members relays nothing).
            expect(d.effects).toEqual([
              { type: "publish", event: { type: "plan", data: { plan: "Pro", pendingPlan: null } } },
              { type: "adminTopic", topic: "users" },
              { type: "wake", at: NOW + PLAN_PERIOD_MS },
            ]);
          },
        },
      },
      {
        says: "a balance the form showed is set to the new value, with the reason",
        state: () => account(),
        input: edit({ newBalance: 250, reason: "goodwill" }),
        facts: freshStepUp,
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)).toMatchObject([{ delta: 150, kind: "adjust", actorId: ADMIN }]);
            expect(s.user.credits).toBe(250);
            expect(valueOf(d)).toMatchObject({ planChanged: false, creditsChanged: true });
          },
        },
      },
      {
        says: "a Pro owner moved below Pro by an admin suspends the team",
        state: () => proOwner(),
        input: edit({ plan: "Advanced", expectedBalance: 1000, newBalance: 1000 }),
        facts: freshStepUp,
        expect: {
          accept: (d, s) => {
            expect(s.user.plan).toBe("Advanced");
            // The running period is kept.
            expect(s.user.periodEnd).toBe(NOW + 20 * DAY);
            expect(d.effects).toContainEqual({
              type: "teamStatus",
              active: false,
              plan: "Advanced",
              memberIds: [MEMBER],
            });
          },
        },
      },
      {
        says: "Free ends the period",
        state: () => proOwner(),
        input: edit({ plan: "Free", expectedBalance: 1000, newBalance: 1000 }),
        facts: freshStepUp,
        expect: {
          accept: (_d, s) => expect(s.user).toMatchObject({ plan: "Free", periodStart: null, periodEnd: null }),
        },
      },
      {
        says: "an edit that changes nothing writes nothing and needs no step-up",
        state: () => account(),
        input: edit(),
        facts: { stepUpAt: null },
        expect: {
          replayed: false,
          again: (d) => expect(valueOf(d)).toMatchObject({ planChanged: false, creditsChanged: false }),
        },
      },
      {
        says: "the same balance edit again (same key and request) changes nothing more",
        state: () => account(),
        before: [{ input: edit({ key: "admin-edit:0002", newBalance: 150, reason: "goodwill" }), facts: freshStepUp }],
        input: edit({ key: "admin-edit:0002", newBalance: 150, reason: "goodwill" }),
        facts: freshStepUp,
        expect: { again: (_d, s) => expect(s.user.credits).toBe(150) },
      },
      {
        // A plan-only edit writes no ledger row, so its key is not kept: the repeat finds the plan already set.
        says: "the same plan edit again finds nothing left to change",
        state: () => account(),
        before: [{ input: edit({ key: "admin-edit:0003", plan: "Basic" }), facts: freshStepUp }],
        input: edit({ key: "admin-edit:0003", plan: "Basic" }),
        facts: freshStepUp,
        expect: {
          replayed: false,
          again: (d, s) => {
            expect(valueOf(d)).toMatchObject({ planChanged: false, creditsChanged: false });
            expect(s.user.plan).toBe("Basic");
          },
        },
      },
      {
        says: "the same key with another balance is refused",
        state: () => account(),
        before: [{ input: edit({ key: "admin-edit:0004", newBalance: 150, reason: "goodwill" }), facts: freshStepUp }],
        input: edit({ key: "admin-edit:0004", newBalance: 160, reason: "goodwill" }),
        facts: freshStepUp,
        expect: { refuse: "idempotency_conflict", reason: "idempotency_conflict", status: 409 },
      },
      {
        says: "a balance that is not a whole number of at least 0 is refused, the plan with it",
        state: () => account(),
        input: edit({ plan: "Pro", newBalance: -5, reason: "x" }),
        facts: freshStepUp,
        expect: { refuse: "invalid_input", reason: "invalid_balance", status: 422 },
      },
      {
        says: "a balance that moved since the form was shown is refused, the plan with it",
        state: () => account({ credits: 97 }),
        input: edit({ plan: "Pro", newBalance: 150, reason: "goodwill" }),
        facts: freshStepUp,
        expect: { refuse: "balance_changed", reason: "balance_changed", status: 409, message: /changed to 97 credits/ },
      },
      {
        says: "a balance change without a reason is refused, the plan with it",
        state: () => account(),
        input: edit({ plan: "Pro", newBalance: 60 }),
        facts: freshStepUp,
        expect: { refuse: "invalid_input", reason: "reason_required", status: 400 },
      },
      {
        says: "a plan change on a session that never stepped up is refused",
        state: () => account(),
        input: edit({ plan: "Pro" }),
        facts: { stepUpAt: null },
        expect: {
          refuse: "step_up_required",
          reason: "step_up_required",
          status: 401,
          message: ADMIN_RIGHTS_MESSAGES.stepUpNeeded,
        },
      },
      {
        says: "a balance change on a step-up older than its window is refused",
        state: () => account(),
        input: edit({ newBalance: 150, reason: "goodwill" }),
        facts: { stepUpAt: NOW - STEP_UP_MS },
        expect: { refuse: "step_up_required", reason: "step_up_required", status: 401 },
      },
    ],
  },

  changePlan: {
    rows: [
      {
        says: "a downgrade waits for the end of the paid period",
        state: () => proOwner(),
        input: { plan: "Basic" },
        expect: {
          accept: (d, s) => {
            expect(valueOf(d)).toEqual({ plan: "Pro", pendingPlan: "Basic", effective: "period_end" });
            expect(d.writes).toEqual([{ type: "user", patch: { pendingPlan: "Basic" } }]);
            expect(s.user.plan).toBe("Pro");
            // Still Pro until then: the team keeps working.
            expect(d.effects.some((e) => e.type === "teamStatus")).toBe(false);
            expect(d.effects).toContainEqual({ type: "wake", at: NOW + 20 * DAY });
          },
        },
      },
      {
        says: "a Pro owner without a running period moves down at once, and the team is suspended",
        state: () => proOwner({ periodStart: null, periodEnd: null }),
        input: { plan: "Advanced" },
        expect: {
          accept: (d, s) => {
            expect(s.user.plan).toBe("Advanced");
            expect(rowsOf(d)).toEqual([]);
            expect(d.effects).toContainEqual({
              type: "teamStatus",
              active: false,
              plan: "Advanced",
              memberIds: [MEMBER],
            });
          },
        },
      },
      {
        says: "asking for the current plan drops a pending downgrade",
        state: () => proOwner({ pendingPlan: "Basic" }),
        input: { plan: "Pro" },
        expect: {
          replayed: true,
          accept: (d, s) => {
            expect(d.writes).toEqual([{ type: "user", patch: { pendingPlan: null } }]);
            expect(s.user.pendingPlan).toBeNull();
          },
        },
      },
      {
        says: "asking for the current plan again changes nothing",
        state: () => proOwner(),
        input: { plan: "Pro" },
        expect: { again: (d) => expect(valueOf(d)).toEqual({ plan: "Pro", pendingPlan: null, effective: "now" }) },
      },
      {
        says: "the same downgrade asked twice leaves the same pending plan and grants nothing",
        state: () => proOwner(),
        before: [{ input: { plan: "Basic" } }],
        input: { plan: "Basic" },
        expect: {
          accept: (d, s) => {
            expect(d.writes).toEqual([{ type: "user", patch: { pendingPlan: "Basic" } }]);
            expect(s.user.pendingPlan).toBe("Basic");
            expect(rowsOf(d)).toEqual([]);
          },
        },
      },
      {
        says: "an upgrade is refused: only a payment raises a plan",
        state: () => account(),
        input: { plan: "Pro" },
        expect: { refuse: "forbidden", reason: "upgrade_needs_payment", status: 403, message: UPGRADE_NEEDS_PAYMENT },
      },
      {
        says: "a banned account cannot change plan",
        state: () => proOwner({ banned: true }),
        input: { plan: "Basic" },
        expect: { refuse: "forbidden", reason: "banned", status: 403, message: BANNED_MESSAGE },
      },
    ],
  },

  renew: {
    neverRefuses: "it only moves periods on and grants positive credits",
    rows: [
      {
        says: "at the period's end a new period starts with its month of credits",
        state: () => renewalDue(),
        input: {},
        expect: {
          accept: (d, s) => {
            const start = NOW - DAY;
            expect(rowsOf(d)).toMatchObject([
              { delta: monthlyCredits("Basic"), kind: "renewal", key: `renewal:${start}`, actorId: null },
            ]);
            expect(s.user).toMatchObject({ plan: "Basic", periodStart: start, periodEnd: start + PLAN_PERIOD_MS });
            expect(s.user.credits).toBe(10 + monthlyCredits("Basic"));
            expect(d.effects).toContainEqual({ type: "wake", at: start + PLAN_PERIOD_MS });
          },
        },
      },
      {
        says: "a plan an admin set renews with that admin as the grant's actor",
        state: () => renewalDue({ planSetBy: ADMIN }),
        input: {},
        expect: { accept: (d) => expect(rowsOf(d)[0]!.actorId).toBe(ADMIN) },
      },
      {
        says: "several missed periods are caught up, one grant each",
        state: () => renewalDue({ periodStart: NOW - 61 * DAY, periodEnd: NOW - 31 * DAY }),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d).map((r) => r.key)).toEqual([`renewal:${NOW - 31 * DAY}`, `renewal:${NOW - DAY}`]);
            expect(s.user.periodEnd).toBe(NOW + 29 * DAY);
          },
        },
      },
      {
        says: "a pending downgrade to Free applies at the period's end, without credits",
        state: () => renewalDue({ plan: "Pro", pendingPlan: "Free" }, { members: [MEMBER] }),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)).toEqual([]);
            expect(s.user).toMatchObject({ plan: "Free", pendingPlan: null, periodStart: null, periodEnd: null });
            expect(d.effects).toContainEqual({ type: "teamStatus", active: false, plan: "Free", memberIds: [MEMBER] });
          },
        },
      },
      {
        says: "a Pro owner's pending downgrade to Basic grants Basic's month and suspends the team",
        state: () => renewalDue({ plan: "Pro", pendingPlan: "Basic" }, { members: [MEMBER] }),
        input: {},
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)).toMatchObject([{ delta: monthlyCredits("Basic") }]);
            expect(s.user.plan).toBe("Basic");
            expect(d.effects).toContainEqual({ type: "teamStatus", active: false, plan: "Basic", memberIds: [MEMBER] });
          },
        },
      },
      {
        says: "a subscriber's month past what Stripe was paid for waits for the paid invoice",
        state: () => renewalDue(),
        input: {},
        facts: { subscriptionPaidUntil: NOW - DAY },
        expect: {
          replayed: false,
          again: (d, s) => {
            expect(d.effects).toEqual([]);
            expect(s.user.periodEnd).toBe(NOW - DAY);
          },
        },
      },
      {
        says: "a month whose grant is remembered moves the period on without granting it again",
        state: () => {
          const s = renewalDue();
          s.keys.set(`renewal:${NOW - DAY}`, { hash: "renewal", clip: null });
          return s;
        },
        input: {},
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)).toEqual([]);
            expect(s.user.credits).toBe(10);
            expect(s.user.periodEnd).toBe(NOW - DAY + PLAN_PERIOD_MS);
          },
        },
      },
      {
        says: "renewing again within the new period changes nothing",
        state: () => renewalDue(),
        before: [{ input: {} }],
        input: {},
        expect: { replayed: false, again: (_d, s) => expect(s.user.credits).toBe(10 + monthlyCredits("Basic")) },
      },
    ],
  },

  applySubscription: {
    neverRefuses: "a subscription as Stripe has it is applied, or found already applied",
    rows: [
      {
        says: "an active subscription sets the plan and its credit month (no credits: invoices grant them)",
        state: () => account({}, { members: [MEMBER] }),
        input: { facts: subscription() },
        expect: {
          accept: (d, s) => {
            expect(s.user).toMatchObject({
              plan: "Pro",
              pendingPlan: null,
              periodStart: NOW - DAY,
              periodEnd: NOW - DAY + PLAN_PERIOD_MS,
              planSetBy: null,
            });
            expect(rowsOf(d)).toEqual([]);
            expect(d.effects).toContainEqual({ type: "teamStatus", active: true, plan: "Pro", memberIds: [MEMBER] });
            expect(d.effects).toContainEqual({ type: "wake", at: NOW - DAY + PLAN_PERIOD_MS });
          },
        },
      },
      {
        says: "a subscription Stripe ended makes the plan Free and suspends a team",
        state: () => proOwner(),
        input: { facts: subscription({ status: "canceled" }) },
        expect: {
          accept: (d, s) => {
            expect(s.user).toMatchObject({ plan: "Free", periodStart: null, periodEnd: null });
            expect(d.effects).toContainEqual({ type: "teamStatus", active: false, plan: "Free", memberIds: [MEMBER] });
          },
        },
      },
      {
        says: "applying the same subscription again changes nothing",
        state: () => account(),
        before: [{ input: { facts: subscription() } }],
        input: { facts: subscription() },
        expect: { again: (_d, s) => expect(s.user.plan).toBe("Pro") },
      },
      {
        says: "an ended subscription leaves a legacy Plugin account as it is",
        state: () => account({ plan: "Plugin" }),
        input: { facts: subscription({ status: "canceled" }) },
        expect: { again: (_d, s) => expect(s.user.plan).toBe("Plugin") },
      },
      {
        says: "a first payment not yet made changes nothing",
        state: () => account(),
        input: { facts: subscription({ status: "incomplete" }) },
        expect: { again: (_d, s) => expect(s.user.plan).toBe("Free") },
      },
    ],
  },

  followMoney: {
    neverRefuses: "money is followed as far as the balance allows: what is spent stays owed, never below zero",
    rows: [
      {
        says: "a paid line grants the months that have begun, keyed by the line and recorded on it",
        state: () => account(),
        input: paidPro(),
        expect: {
          accept: (d, s) => {
            expect(valueOf(d)).toMatchObject({ granted: monthlyCredits("Pro"), takenBack: 0, owed: 0 });
            expect(rowsOf(d)).toMatchObject([{ kind: "purchase", key: "line:il_1:0" }]);
            expect(d.writes).toContainEqual(expect.objectContaining({ type: "line" }));
            expect(s.lines.get("il_1")).toMatchObject({ granted: monthlyCredits("Pro"), moves: 1 });
            expect(s.user.credits).toBe(100 + monthlyCredits("Pro"));
          },
        },
      },
      {
        says: "the same line delivered again grants nothing",
        state: () => account(),
        before: [{ input: paidPro() }],
        input: paidPro(),
        expect: { again: (d) => expect(valueOf(d).granted).toBe(0) },
      },
      {
        says: "a yearly line wakes the object when its next month begins",
        state: () => account(),
        input: paidPro("yearly"),
        expect: {
          accept: (d, s) => {
            const next = s.lines.get("il_1")!.months[1]!.start;
            expect(d.effects).toContainEqual({ type: "wake", at: next });
          },
        },
      },
      {
        says: "a refund takes back the unspent share and leaves the spent rest owed",
        state: () => account({ credits: 100 }),
        before: [{ input: paidPro() }],
        input: { returned: [{ id: "re_1", cents: 6900, from: { payment: "in_1" } }], reason: "Payment refunded" },
        expect: {
          accept: (d, s) => {
            expect(valueOf(d)).toMatchObject({ takenBack: monthlyCredits("Pro"), owed: 0 });
            expect(rowsOf(d)).toMatchObject([{ kind: "payment_refund", key: "line:il_1:1" }]);
            expect(s.user.credits).toBe(100);
          },
        },
      },
      {
        says: "money that names no line of this ledger changes nothing",
        state: () => account(),
        input: { returned: [{ id: "re_x", cents: 500, from: { payment: "in_unknown" } }] },
        expect: { again: (d) => expect(valueOf(d).takenBack).toBe(0) },
      },
    ],
  },

  setBanned: {
    neverRefuses: "a ban or an unban always applies (an admin's rights are checked by the service before)",
    rows: [
      {
        says: "a ban ends access: sockets close and token checks are forgotten after the commit",
        state: () => account(),
        input: { banned: true },
        expect: {
          accept: (d, s) => {
            expect(d.writes).toEqual([{ type: "user", patch: { banned: true } }]);
            expect(s.user.banned).toBe(true);
            expect(d.effects).toEqual([
              { type: "adminTopic", topic: "users" },
              { type: "endAccess", reason: "account banned" },
              { type: "forgetTokens" },
            ]);
          },
        },
      },
      {
        says: "an unban forgets the token checks so the next request is decided afresh",
        state: () => account({ banned: true }),
        input: { banned: false },
        expect: {
          accept: (d) => expect(d.effects).toEqual([{ type: "adminTopic", topic: "users" }, { type: "forgetTokens" }]),
        },
      },
      {
        says: "banning a banned account changes nothing",
        state: () => account(),
        before: [{ input: { banned: true } }],
        input: { banned: true },
        expect: { again: (d) => expect(valueOf(d)).toEqual({ changed: false }) },
      },
    ],
  },
  closeAccount: {
    rows: [
      {
        says: "a deleted account: holds released, balance to zero in one row, plan ended, banned, later paid months stopped, clips erased, access ended",
        state: () =>
          account(
            { plan: "Basic", periodStart: NOW - DAY, periodEnd: NOW + 29 * DAY, credits: 640 },
            {
              holds: withHolds(hold()),
              clipCount: 3,
              lines: new Map([["il_y", yearlyLine()]]),
              keys: new Map([["api:old-clip", { hash: "h", clip: { id: "clip-1" } as never }]]),
            },
          ),
        input: { actorId: OWNER, erase: ["dora@example.com", "Dora Deleted", "Al", " "] },
        expect: {
          accept: (d, s) => {
            expect(valueOf(d)).toEqual({ creditsCancelled: 640 });
            expect(writeTypes(d)).toEqual(["settleHolds", "line", "row", "balance", "user", "erase"]);
            expect(rowsOf(d)[0]).toMatchObject({
              delta: -640,
              balanceAfter: 0,
              kind: "account_closed",
              actorId: OWNER,
            });
            expect(d.writes).toContainEqual({ type: "settleHolds", ids: ["hold-1"], status: "released", clipId: null });
            // Names shorter than three letters would garble every description: only the e-mail and the name go.
            expect(d.writes.at(-1)).toEqual({ type: "erase", words: ["dora@example.com", "Dora Deleted"] });
            expect(s.user).toMatchObject({ plan: "Free", periodEnd: null, banned: true, credits: 0 });
            expect(s.lines.get("il_y")!.stopAt).toBe(NOW);
            expect(s.clipCount).toBe(0);
            expect(s.keys.get("api:old-clip")!.clip).toBeNull();
            expect(d.effects).toContainEqual({ type: "endAccess", reason: "account deleted" });
            expect(d.effects).toContainEqual({ type: "forgetTokens" });
          },
        },
      },
      {
        says: "an account with no credits still gets its closing row (a zero), so a second deletion is a replay",
        state: () => account({ credits: 0 }),
        input: { actorId: ADMIN, erase: [] },
        expect: {
          accept: (d, s) => {
            expect(rowsOf(d)[0]).toMatchObject({ delta: 0, balanceAfter: 0, kind: "account_closed" });
            expect(s.user.banned).toBe(true);
          },
        },
      },
      {
        says: "deleting it again, by anyone, changes nothing",
        state: () => account(),
        before: [{ input: { actorId: OWNER, erase: [] } }],
        input: { actorId: ADMIN, erase: ["someone"] },
        expect: { again: (d, s) => expect([valueOf(d), s.user.credits]).toEqual([{ creditsCancelled: 0 }, 0]) },
      },
      {
        says: "an owner whose team still has members is refused: the members leave first",
        state: () => proOwner(),
        input: { actorId: OWNER, erase: [] },
        expect: { refuse: "forbidden", reason: "team_open", status: 409, message: TEAM_OPEN_MESSAGE },
      },
      {
        says: "a member still in a team is refused: they leave it first",
        state: () => account({ id: MEMBER }, { payer: { ownerId: OWNER, active: true } }),
        input: { actorId: MEMBER, erase: [] },
        expect: { refuse: "forbidden", reason: "team_open", status: 409 },
      },
    ],
  },
  teamJoin: {
    rows: [
      {
        says: "a person joins with a live invitation naming them while a seat is free; their ledger hears its payer",
        state: () => proOwner({}, { members: [] }),
        input: joinOf(),
        facts: { invitation: liveInvitation, joinerTeam: null },
        expect: {
          accept: (d, s) => {
            expect(s.members).toEqual([NEWCOMER]);
            expect(writeTypes(d)).toEqual(["teamJoin"]);
            expect(d.effects).toContainEqual(
              expect.objectContaining({ type: "payer", memberId: NEWCOMER, payer: { ownerId: OWNER, active: true } }),
            );
          },
        },
      },
      {
        says: "the same accepted invitation again is a replay: nothing written",
        state: () => proOwner({}, { members: [NEWCOMER] }),
        input: joinOf(),
        facts: { invitation: { ...liveInvitation, acceptedAt: NOW - 1000 }, joinerTeam: OWNER },
        expect: { again: (_d, s) => expect(s.members).toEqual([NEWCOMER]) },
      },
      {
        says: "the last seat taken: refused",
        state: () => proOwner({}, { members: Array.from({ length: TEAM_SEATS - 1 }, (_, i) => `member-${i + 1}`) }),
        input: joinOf(),
        facts: { invitation: liveInvitation, joinerTeam: null },
        expect: { refuse: "forbidden", reason: "seat_limit", status: 409, message: SEAT_LIMIT_MESSAGE },
      },
      {
        says: "an invitation for another address: refused",
        state: () => proOwner({}, { members: [] }),
        input: joinOf({ email: "someone-else@example.com" }),
        facts: { invitation: liveInvitation, joinerTeam: null },
        expect: { refuse: "forbidden", reason: "wrong_account", status: 403, message: WRONG_ACCOUNT_MESSAGE },
      },
      {
        says: "an expired, revoked or unknown invitation: refused",
        state: () => proOwner({}, { members: [] }),
        input: joinOf(),
        facts: { invitation: { ...liveInvitation, expiresAt: NOW - 1 }, joinerTeam: null },
        expect: { refuse: "not_found", reason: "invitation_invalid", status: 410, message: INVITATION_INVALID_MESSAGE },
      },
      {
        says: "an owner below Pro cannot take members: refused",
        state: () => account({}, { members: [] }),
        input: joinOf(),
        facts: { invitation: liveInvitation, joinerTeam: null },
        expect: {
          refuse: "forbidden",
          reason: "team_suspended_join",
          status: 409,
          message: TEAM_SUSPENDED_JOIN_MESSAGE,
        },
      },
      {
        says: "a person already in a team: refused",
        state: () => proOwner({}, { members: [] }),
        input: joinOf(),
        facts: { invitation: liveInvitation, joinerTeam: "owner-2" },
        expect: { refuse: "forbidden", reason: "already_in_team", status: 409, message: ALREADY_IN_TEAM_MESSAGE },
      },
    ],
  },
  teamRemove: {
    rows: [
      {
        says: "a member goes: their next clips are their own",
        state: () => proOwner(),
        input: { memberId: MEMBER },
        expect: {
          accept: (d, s) => {
            expect(s.members).toEqual([]);
            expect(writeTypes(d)).toEqual(["teamLeave"]);
            expect(d.effects).toContainEqual(expect.objectContaining({ type: "payer", memberId: MEMBER, payer: null }));
          },
        },
      },
      {
        says: "removing them again finds nobody: refused, nothing changes",
        state: () => proOwner(),
        before: [{ input: { memberId: MEMBER } }],
        input: { memberId: MEMBER, leaving: true },
        expect: { refuse: "not_found", reason: "not_in_team", status: 404, message: "You are not in a team." },
      },
    ],
  },
  teamClose: {
    rows: [
      {
        says: "an owner closes a team nobody else is in",
        state: () => proOwner({}, { members: [] }),
        input: {},
        expect: { accept: (d) => expect(writeTypes(d)).toEqual(["teamClose"]) },
      },
      {
        says: "closing again writes the same harmless close (no seat or balance moves)",
        state: () => proOwner({}, { members: [] }),
        before: [{ input: {} }],
        input: {},
        expect: { accept: (d) => expect(writeTypes(d)).toEqual(["teamClose"]) },
      },
      {
        says: "a team with members cannot be closed: the owner removes them first",
        state: () => proOwner(),
        input: {},
        expect: { refuse: "forbidden", reason: "owner_cannot_leave", status: 409, message: OWNER_CANNOT_LEAVE_MESSAGE },
      },
    ],
  },
  payerChanged: {
    rows: [
      {
        says: "a member's ledger hears who pays now",
        state: () => account({ id: MEMBER }),
        input: { from: OWNER, payer: { ownerId: OWNER, active: true } },
        expect: { accept: (_d, s) => expect(s.payer).toEqual({ ownerId: OWNER, active: true }) },
      },
      {
        says: "a late word from a previous payer is ignored: a replay, the current payer stays",
        state: () => account({ id: MEMBER }, { payer: { ownerId: "owner-2", active: true } }),
        input: { from: OWNER, payer: null },
        expect: { again: (_d, s) => expect(s.payer).toEqual({ ownerId: "owner-2", active: true }) },
      },
    ],
    neverRefuses: "it only records what the payer's ledger already committed",
  },
  relay: {
    rows: [
      {
        says: "the team's balance reaches the member's open sockets; nothing is written",
        state: () => account({ id: MEMBER }),
        input: { type: "teamCredits", data: { balance: 9, held: 0, available: 9 } },
        expect: {
          accept: (d) =>
            expect(d.effects).toEqual([
              { type: "relay", event: { type: "teamCredits", data: { balance: 9, held: 0, available: 9 } } },
            ]),
        },
      },
      {
        says: "a clip of the member's added, then removed, on the team's ledger: the member's clip count follows",
        state: () => account({ id: MEMBER }),
        before: [{ input: { type: "clipRemoved", data: { clipId: "clip-0" } } }],
        input: { type: "clipRemoved", data: { clipId: "clip-1" } },
        expect: { accept: (_d, s) => expect(s.clipCount).toBe(0) },
      },
    ],
    neverRefuses: "it only passes on what the owner's ledger already committed",
  },
};

// ── What every row checks ────────────────────────────────────────────────────

/** Merged user patches of a decision, in order. */
const patchOf = (writes: Write[]): UserPatch =>
  Object.assign({}, ...writes.flatMap((w) => (w.type === "user" ? [w.patch] : [])));

/**
 * An accepted decision's writes say exactly what its memory became, so D1 (which applies the writes) and the state
 * the object keeps agree: credits by the balance writes, each row's balance after, the plan fields by the patches,
 * the holds by the hold and settle writes.
 */
function expectWritesMatchMemory(before: LedgerState, after: LedgerState, writes: Write[]) {
  const moved = writes.reduce((sum, w) => (w.type === "balance" ? sum + w.delta : sum), 0);
  expect(after.user.credits).toBe(before.user.credits + moved);
  const rows = writes.filter((w): w is Extract<Write, { type: "row" }> => w.type === "row");
  expect(rows.map((r) => r.delta)).toEqual(writes.flatMap((w) => (w.type === "balance" ? [w.delta] : [])));
  if (rows.length > 0) expect(rows.at(-1)!.balanceAfter).toBe(after.user.credits);
  const { credits: _c, id: _i, ...fields } = after.user;
  const { credits: _c0, id: _i0, ...fieldsBefore } = before.user;
  expect(fields).toEqual({ ...fieldsBefore, ...patchOf(writes) });
  const holds = new Set(before.holds.keys());
  for (const w of writes) {
    if (w.type === "hold") holds.add(w.hold.id);
    if (w.type === "settleHolds") for (const id of w.ids) holds.delete(id);
  }
  // `expire` and `capture` drop holds past their expiry from memory only through a settle write.
  expect(new Set(after.holds.keys())).toEqual(holds);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function runRow<K extends LedgerOpName>(name: K, row: Row<K>) {
  const state = row.state();
  const earlier = (row.before ?? []).map((b) => {
    const d = run(name, state, b.input, b.facts);
    expect(d.result.ok, "the earlier request is accepted").toBe(true);
    return d;
  });
  const untouched = structuredClone(state);
  const d = run(name, state, row.input, row.facts, row.now);
  const { expect: want } = row;
  if ("refuse" in want) {
    expect(d.result).toMatchObject({ ok: false, code: want.refuse, reason: want.reason, status: want.status });
    if (want.message !== undefined && !d.result.ok)
      expect(d.result.message).toMatch(
        typeof want.message === "string" ? new RegExp(escape(want.message)) : want.message,
      );
    expect(d.writes).toEqual([]);
    expect(d.effects).toEqual([]);
    // Whatever it drafted before refusing, a refusal leaves memory as it found it.
    expect(state).toEqual(untouched);
    return;
  }
  expect(d.result, d.result.ok ? "" : d.result.message).toMatchObject({ ok: true });
  if ("again" in want) {
    expect(d.result).toMatchObject({ replayed: want.replayed ?? true });
    expect(d.writes).toEqual([]);
    expect(d.effects.filter((e: Effect) => e.type !== "wake")).toEqual([]);
    expect(state).toEqual(untouched);
    want.again(d, state, earlier);
    return;
  }
  expect(d.result).toMatchObject({ replayed: want.replayed ?? false });
  expectWritesMatchMemory(untouched, state, d.writes);
  want.accept(d, state, earlier);
}

// ── The tests ────────────────────────────────────────────────────────────────

describe("the ledger's operations, each as a table of rows", () => {
  it("every operation in LEDGER_OPS has rows here", () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(LEDGER_OPS).sort());
  });

  it("every operation has an accepted row, a repeated-request row, and a row per refusal (or says why it has none)", () => {
    for (const [name, ops] of Object.entries(TABLE) as [LedgerOpName, OpRows<LedgerOpName>][]) {
      const kinds = new Set(
        ops.rows.map((r) => ("accept" in r.expect ? "accept" : "again" in r.expect ? "again" : "refuse")),
      );
      const repeated = ops.rows.some((r) => (r.before?.length ?? 0) > 0 || "again" in r.expect);
      expect([name, kinds.has("accept"), repeated]).toEqual([name, true, true]);
      expect([name, kinds.has("refuse") || ops.neverRefuses !== undefined]).toEqual([name, true]);
    }
  });

  for (const [name, ops] of Object.entries(TABLE) as [LedgerOpName, OpRows<LedgerOpName>][]) {
    describe(name, () => {
      for (const row of ops.rows) it(row.says, () => runRow(name, row));
    });
  }
});

describe("a refused operation", () => {
  it("leaves the state as it found it, whatever it changed before refusing", () => {
    const state = proOwner({}, { holds: withHolds(hold()), clipCount: 4 });
    const before = structuredClone(state);
    const decision = decide(state, ctxAt(), () => {
      state.user = { ...state.user, plan: "Free", credits: 0 };
      state.holds.delete("hold-1");
      state.keys.set("drafted", { hash: "h", clip: null });
      state.lastClipAt = NOW;
      state.clipCount = 0;
      return {
        result: fail("balance_changed", "refused after drafting"),
        writes: [{ type: "balance", delta: -1000 }],
      };
    });
    expect(decision).toEqual({ result: expect.objectContaining({ ok: false }), writes: [], effects: [] });
    expect(state).toEqual(before);
  });

  it("an accepted one keeps what it changed", () => {
    const state = account();
    decide(state, ctxAt(), () => {
      state.user = { ...state.user, credits: 90 };
      return { result: success(null), writes: [{ type: "balance", delta: -10 }] };
    });
    expect(state.user.credits).toBe(90);
  });
});
