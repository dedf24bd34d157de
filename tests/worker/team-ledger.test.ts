import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { loadLedgerState, reconcile } from "~/db/ledger.server";
import { SEAT_LIMIT_MESSAGE, TEAM_SEATS } from "~/domain/teams";
import { issueApiToken } from "~/services/api-tokens.server";
import { ledger } from "~/services/ledger.server";
import { invite, join, removeMember } from "~/services/teams.server";
import { sha256Hex } from "~/utils/crypto";
import { withStandIns } from "../../workers/local";
import { apiAs as api, countRows, insertUser, outbox } from "./helpers";

/**
 * Who is in a team is the owner's ledger's state: it decides joins and removals in its queue, a member's ledger
 * knows its payer, and a member's clip goes member's ledger → payer's ledger with no D1 read of the membership.
 */
const db = getDb(env.DB);
const ctx = { env: withStandIns(env, "http://localhost", createExecutionContext()), db, origin: "http://localhost" };

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

const clip = {
  name: "Team clip",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 0,
  endSeconds: 30,
  format: "mp4",
  quality: "1080p",
}; // 6 credits on Pro; above Free's quality, so a member paying for themselves uses `own`
const own = { ...clip, quality: "720p" };

async function person(plan = "Free", credits = 50) {
  const email = `p-${crypto.randomUUID()}@example.com`;
  const id = await insertUser({ email, plan, credits });
  return { id, email, fullName: "Test Person", plan, token: await issueApiToken(db, id, "s") };
}

const creditsOf = async (id: string) =>
  (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(id).first<{ credits: number }>())!.credits;

async function invited(owner: Awaited<ReturnType<typeof person>>, email: string): Promise<string> {
  expect(await invite(ctx, owner, email)).toMatchObject({ ok: true });
  const mail = (await outbox()).find((m) => m.to === email)!;
  return mail.links[0]!.split("/team/join/")[1]!;
}

async function team(ownerCredits = 100, memberCredits = 20) {
  const owner = await person("Pro", ownerCredits);
  const member = await person("Free", memberCredits);
  expect(await join(ctx, member, await invited(owner, member.email))).toMatchObject({ ok: true });
  return { owner, member };
}

/** Runs `work` while the membership table cannot be read: any read of it on the way fails the request. */
async function withoutMembershipTable<T>(work: () => Promise<T>): Promise<T> {
  await env.DB.exec("ALTER TABLE team_members RENAME TO team_members_hidden");
  try {
    return await work();
  } finally {
    await env.DB.exec("ALTER TABLE team_members_hidden RENAME TO team_members");
  }
}

describe("a member's clip is forwarded by the member's ledger to the payer's", () => {
  it("a member's charge debits the owner with no read of team membership", async () => {
    const { owner, member } = await team(100, 20);
    // Both ledgers are loaded (as a busy team's are); from here on the membership comes from their memory.
    expect((await api(member.token, "/api/v1/clips", clip)).status).toBe(201);
    const res = await withoutMembershipTable(() => api(member.token, "/api/v1/clips", clip));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { credits: { balance: number } }).credits.balance).toBe(88);
    expect(await creditsOf(owner.id)).toBe(88);
    expect(await creditsOf(member.id)).toBe(20);
  });

  it("a member's hold is captured on the owner's ledger while membership cannot be read, and a replay answers the same clip", async () => {
    const { owner, member } = await team(100, 20);
    const reserved = await api(member.token, "/api/v1/holds", clip);
    expect(reserved.status).toBe(201);
    const { hold } = (await reserved.json()) as { hold: { id: string } };
    const captured = await withoutMembershipTable(() => api(member.token, `/api/v1/holds/${hold.id}/capture`, {}));
    expect(captured.status).toBe(200);
    const again = await api(member.token, `/api/v1/holds/${hold.id}/capture`, {});
    expect(((await again.json()) as { clip: { id: string } }).clip.id).toBe(
      ((await captured.json()) as { clip: { id: string } }).clip.id,
    );
    expect(await creditsOf(owner.id)).toBe(94);
    expect(await creditsOf(member.id)).toBe(20);
  });

  it("a member's ledger that restarts still knows the payer of a captured hold, so a replayed capture answers the clip", async () => {
    const { owner, member } = await team(100, 20);
    const reserved = await api(member.token, "/api/v1/holds", clip);
    const { hold } = (await reserved.json()) as { hold: { id: string } };
    expect((await api(member.token, `/api/v1/holds/${hold.id}/capture`, {})).status).toBe(200);
    // What a restarted member object loads: the settled hold is still routed to the owner's ledger.
    const reloaded = await loadLedgerState(db, member.id);
    expect(reloaded?.payerHolds.get(hold.id)).toBe(owner.id);
  });

  it("the member's own socket hears their new clip and the team balance once each", async () => {
    const { owner, member } = await team(100, 20);
    const res = await exports.default.fetch(
      new Request("http://localhost/api/v1/realtime", {
        headers: { Upgrade: "websocket", Authorization: `Bearer ${member.token}` },
      }),
    );
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const messages: { type: string; data: { clip?: { id: string }; balance?: number } }[] = [];
    ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data))));
    ws.accept();
    const made = await api(member.token, "/api/v1/clips", clip);
    const { clip: created } = (await made.json()) as { clip: { id: string } };
    // The owner clips too: the member hears that balance as well.
    expect((await api(owner.token, "/api/v1/clips", clip)).status).toBe(201);
    await vi.waitFor(() => expect(messages.some((m) => m.type === "teamCredits" && m.data.balance === 88)).toBe(true));
    expect(messages.filter((m) => m.type === "clip").map((m) => m.data.clip?.id)).toEqual([created.id]);
    expect(messages.filter((m) => m.type === "teamCredits").map((m) => m.data.balance)).toEqual([94, 88]);
    ws.close();
  });
});

/**
 * The payer a member's ledger holds, without changing it: a word from another sender is ignored and answers the
 * payer held (a null one is set to null, which it already is).
 */
async function payerHeldBy(memberId: string) {
  const answer = await ledger(env, memberId).payerChanged({ from: "nobody", payer: null });
  if (!answer.ok) throw new Error(answer.message);
  return answer.value.payer;
}

describe("the owner's refusal corrects a member's ledger that missed a change", () => {
  it("removed, though the member's ledger still has the team: the owner's says not a member, the member pays", async () => {
    const { owner, member } = await team(100, 20);
    expect(await removeMember(ctx, owner.id, member.id)).toMatchObject({ ok: true });
    // The word of the removal lost on the way: the member's ledger believes the team still pays.
    await ledger(env, member.id).payerChanged({ from: owner.id, payer: { ownerId: owner.id, active: true } });
    expect(await payerHeldBy(member.id)).toEqual({ ownerId: owner.id, active: true });
    const res = await api(member.token, "/api/v1/clips", own);
    expect(res.status).toBe(201);
    const cost = ((await res.json()) as { clip: { cost: number } }).clip.cost;
    expect(await creditsOf(member.id)).toBe(20 - cost);
    expect(await creditsOf(owner.id)).toBe(100);
    expect(await payerHeldBy(member.id)).toBeNull();
  });

  it("suspended, though the member's ledger has the team working: the owner's says suspended, the member pays", async () => {
    const { owner, member } = await team(100, 20);
    expect(await ledger(env, owner.id).setBanned({ banned: true })).toMatchObject({ ok: true });
    await ledger(env, member.id).payerChanged({ from: owner.id, payer: { ownerId: owner.id, active: true } });
    const res = await api(member.token, "/api/v1/clips", own);
    expect(res.status).toBe(201);
    const cost = ((await res.json()) as { clip: { cost: number } }).clip.cost;
    expect(await creditsOf(member.id)).toBe(20 - cost);
    expect(await creditsOf(owner.id)).toBe(100);
    expect(await payerHeldBy(member.id)).toEqual({ ownerId: owner.id, active: false });
  });
});

describe("the owner's ledger decides who is in the team", () => {
  it("holds the seat limit: of four people accepting at once for two free seats, two join", async () => {
    const owner = await person("Pro");
    const first = await person();
    const second = await person();
    for (const p of [first, second])
      expect(await join(ctx, p, await invited(owner, p.email))).toMatchObject({ ok: true });
    // Four live invitations for two seats (more than `invite` allows: the accept itself must hold the limit).
    const now = Date.now();
    const joiners = await Promise.all([person(), person(), person(), person()]);
    const tokens = await Promise.all(
      joiners.map(async (p) => {
        const token = crypto.randomUUID();
        await env.DB.prepare(
          "INSERT INTO team_invitations (id, owner_id, email, token_hash, invited_by, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        )
          .bind(crypto.randomUUID(), owner.id, p.email, await sha256Hex(token), owner.id, now + 60_000)
          .run();
        return token;
      }),
    );
    const results = await Promise.all(joiners.map((p, i) => join(ctx, p, tokens[i]!)));
    expect(results.filter((r) => r.ok)).toHaveLength(TEAM_SEATS - 3);
    expect(results.filter((r) => !r.ok).map((r) => r.message)).toEqual([SEAT_LIMIT_MESSAGE, SEAT_LIMIT_MESSAGE]);
    expect(await countRows("SELECT count(*) AS n FROM team_members WHERE owner_id = ?", owner.id)).toBe(TEAM_SEATS);
    // The owner's ledger itself refuses a sixth person with a live invitation, whoever asks it.
    const sixth = await person();
    const invitationId = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO team_invitations (id, owner_id, email, token_hash, invited_by, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
      .bind(invitationId, owner.id, sixth.email, await sha256Hex(crypto.randomUUID()), owner.id, now + 60_000)
      .run();
    const direct = await ledger(env, owner.id).teamJoin({ invitationId, memberId: sixth.id, email: sixth.email });
    expect(direct).toMatchObject({ ok: false, status: 409, message: SEAT_LIMIT_MESSAGE });
    expect(await countRows("SELECT count(*) AS n FROM team_members WHERE owner_id = ?", owner.id)).toBe(TEAM_SEATS);
  });

  it("a removed member's next charge is their own, though their ledger had the team in memory", async () => {
    const { owner, member } = await team(100, 20);
    expect((await api(member.token, "/api/v1/clips", clip)).status).toBe(201);
    expect(await removeMember(ctx, owner.id, member.id)).toMatchObject({ ok: true });
    // The team's quality is not theirs any more, and their own balance pays.
    expect((await api(member.token, "/api/v1/clips", clip)).status).toBe(403);
    const res = await api(member.token, "/api/v1/clips", own);
    expect(res.status).toBe(201);
    const cost = ((await res.json()) as { clip: { cost: number } }).clip.cost;
    expect(await creditsOf(member.id)).toBe(20 - cost);
    expect(await creditsOf(owner.id)).toBe(94);
  });
});
