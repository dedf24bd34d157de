import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { SEAT_LIMIT_MESSAGE, TEAM_SEATS, TEAM_SUSPENDED_MESSAGE, WRONG_ACCOUNT_MESSAGE } from "~/domain/teams";
import { issueApiToken } from "~/services/api-tokens.server";
import { ledger } from "~/services/ledger.server";
import { invite, join, leave, removeMember } from "~/services/teams.server";
import { sha256Hex } from "~/utils/crypto";
import { withStandIns } from "../../workers/local";
import { apiAs as api, countRows, get, insertUser, outbox, post, signIn, steppedUpSession } from "./helpers";

/** Pro teams: one plan and one balance (the owner's ledger) for up to five people. */
const db = getDb(env.DB);
// The services see the env the local Worker composes (its e-mail goes to the stand-in outbox).
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
}; // 6 credits on Pro
/** Within Free's limits, for members paying for themselves. */
const small = { ...clip, quality: "720p" };
async function ownClip(token: string): Promise<number> {
  const res = await api(token, "/api/v1/clips", small);
  expect(res.status).toBe(201);
  return ((await res.json()) as { clip: { cost: number } }).clip.cost;
}

async function person(plan = "Free", credits = 50) {
  const email = `p-${crypto.randomUUID()}@example.com`;
  const id = await insertUser({ email, plan, credits });
  return { id, email, fullName: "Test Person", plan, token: await issueApiToken(db, id, "s") };
}

const creditsOf = async (id: string) =>
  (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(id).first<{ credits: number }>())!.credits;

/** The extension's socket (/api/v1/realtime with the member's token), recording every message. */
async function extensionSocket(token: string) {
  const res = await exports.default.fetch(
    new Request("http://localhost/api/v1/realtime", {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
    }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const messages: { type: string; data: { balance: number } }[] = [];
  ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data))));
  ws.accept();
  return { ws, messages };
}

/** Invites through the service and returns the token from the e-mail's link. */
async function invited(owner: Awaited<ReturnType<typeof person>>, email: string): Promise<string> {
  const sent = await invite(ctx, owner, email);
  expect(sent).toMatchObject({ ok: true });
  const mail = (await outbox()).find((m) => m.to === email)!;
  return mail.links[0]!.split("/team/join/")[1]!;
}

/** A team of an owner and one member who joined through the e-mailed link. */
async function team(ownerCredits = 100, memberCredits = 7) {
  const owner = await person("Pro", ownerCredits);
  const member = await person("Free", memberCredits);
  expect(await join(ctx, member, await invited(owner, member.email))).toMatchObject({ ok: true });
  return { owner, member };
}

describe("teams: joining", () => {
  it("two concurrent accepts of the last seat make five people, never six", async () => {
    const owner = await person("Pro");
    // Three members and two live invitations: more pending invitations than seats (as a race of invites could
    // leave, or a direct insert): the accept itself must hold the limit.
    const now = Date.now();
    await env.DB.prepare("INSERT INTO team_members (member_id, owner_id, role, joined_at) VALUES (?, ?, 'owner', ?)")
      .bind(owner.id, owner.id, now)
      .run();
    for (let i = 0; i < 3; i++) {
      const m = await person();
      await env.DB.prepare("INSERT INTO team_members (member_id, owner_id, role, joined_at) VALUES (?, ?, 'member', ?)")
        .bind(m.id, owner.id, now)
        .run();
    }
    const a = await person();
    const b = await person();
    const tokens: string[] = [];
    for (const p of [a, b]) {
      const token = crypto.randomUUID();
      tokens.push(token);
      await env.DB.prepare(
        "INSERT INTO team_invitations (id, owner_id, email, token_hash, invited_by, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
        .bind(crypto.randomUUID(), owner.id, p.email, await sha256Hex(token), owner.id, now + 60_000)
        .run();
    }
    const results = await Promise.all([join(ctx, a, tokens[0]!), join(ctx, b, tokens[1]!)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, message: SEAT_LIMIT_MESSAGE });
    expect(await countRows("SELECT count(*) AS n FROM team_members WHERE owner_id = ?", owner.id)).toBe(TEAM_SEATS);
  });

  it("a sixth person cannot even be invited", async () => {
    const owner = await person("Pro");
    for (let i = 0; i < TEAM_SEATS - 1; i++) await invited(owner, `seat-${i}-${crypto.randomUUID()}@example.com`);
    expect(await invite(ctx, owner, `sixth-${crypto.randomUUID()}@example.com`)).toEqual({
      ok: false,
      status: 409,
      message: SEAT_LIMIT_MESSAGE,
    });
  });

  it("an expired token and a used token are refused", async () => {
    const owner = await person("Pro");
    const member = await person();
    const token = await invited(owner, member.email);
    expect(await join(ctx, member, token)).toMatchObject({ ok: true });
    expect(await leave(ctx, member.id)).toMatchObject({ ok: true });
    // Reused: the same link after it worked once.
    expect(await join(ctx, member, token)).toMatchObject({ ok: false, status: 410 });

    const late = await person();
    const lateToken = await invited(owner, late.email);
    await env.DB.prepare("UPDATE team_invitations SET expires_at = ? WHERE token_hash = ?")
      .bind(Date.now() - 1, await sha256Hex(lateToken))
      .run();
    expect(await join(ctx, late, lateToken)).toMatchObject({ ok: false, status: 410 });
    expect(
      await countRows("SELECT count(*) AS n FROM team_members WHERE member_id IN (?, ?)", member.id, late.id),
    ).toBe(0);
    // Stored only as a hash.
    expect(await countRows("SELECT count(*) AS n FROM team_invitations WHERE token_hash = ?", lateToken)).toBe(0);
  });

  it("another account cannot accept an invitation sent to someone else", async () => {
    const owner = await person("Pro");
    const invitee = await person();
    const other = await person();
    const token = await invited(owner, invitee.email);
    expect(await join(ctx, other, token)).toEqual({ ok: false, status: 403, message: WRONG_ACCOUNT_MESSAGE });
    expect(await countRows("SELECT count(*) AS n FROM team_members WHERE member_id = ?", other.id)).toBe(0);
    // The invitation still works for the invited address.
    expect(await join(ctx, invitee, token)).toMatchObject({ ok: true });
  });
});

describe("teams: paying", () => {
  it("a member's clip moves the owner's balance, not the member's, and is the member's clip", async () => {
    const { owner, member } = await team(100, 7);
    const res = await api(member.token, "/api/v1/clips", clip);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { clip: { id: string; cost: number }; credits: { balance: number } };
    expect(body.credits.balance).toBe(94);
    expect(await creditsOf(owner.id)).toBe(94);
    expect(await creditsOf(member.id)).toBe(7);
    expect(await env.DB.prepare("SELECT user_id FROM clips WHERE id = ?").bind(body.clip.id).first()).toEqual({
      user_id: member.id,
    });
    const me = (await (await api(member.token, "/api/v1/me")).json()) as {
      user: { plan: string };
      credits: { balance: number };
      team: { usage: { clips: number; credits: number }; ownPlan: string };
    };
    expect(me.user.plan).toBe("Pro");
    expect(me.credits.balance).toBe(94);
    expect(me.team).toMatchObject({ ownPlan: "Free", usage: { clips: 1, credits: 6 } });
  });

  it("the shared balance reaches every member's open socket live, whoever on the team clips", async () => {
    const { owner, member } = await team(100, 7);
    const second = await person("Free", 3);
    expect(await join(ctx, second, await invited(owner, second.email))).toMatchObject({ ok: true });
    const sockets = await Promise.all([member, second].map((m) => extensionSocket(m.token)));
    const shared = (balance: number) =>
      sockets.every((s) => s.messages.some((m) => m.type === "teamCredits" && m.data.balance === balance));
    // The owner clips (6 credits), then a member does: each balance reaches both members.
    expect((await api(owner.token, "/api/v1/clips", clip)).status).toBe(201);
    await vi.waitFor(() => expect(shared(94)).toBe(true), { timeout: 5_000 });
    expect((await api(member.token, "/api/v1/clips", clip)).status).toBe(201);
    await vi.waitFor(() => expect(shared(88)).toBe(true), { timeout: 5_000 });
    // Their own balances did not move, and nothing claimed they had.
    expect(sockets.flatMap((s) => s.messages).filter((m) => m.type === "credits")).toEqual([]);
    expect([await creditsOf(member.id), await creditsOf(second.id)]).toEqual([7, 3]);
    for (const s of sockets) s.ws.close();
  });

  it("a member removed while a hold is open settles it once, against the team", async () => {
    const { owner, member } = await team(100, 7);
    const reserved = await api(member.token, "/api/v1/holds", clip);
    expect(reserved.status).toBe(201);
    const { hold } = (await reserved.json()) as { hold: { id: string; amount: number } };
    expect(await removeMember(ctx, owner.id, member.id)).toMatchObject({ ok: true });
    const captured = await api(member.token, `/api/v1/holds/${hold.id}/capture`, {});
    expect(captured.status).toBe(200);
    const again = await api(member.token, `/api/v1/holds/${hold.id}/capture`, {});
    expect(again.status).toBe(200);
    expect(((await again.json()) as { clip: { id: string } }).clip.id).toBe(
      ((await captured.json()) as { clip: { id: string } }).clip.id,
    );
    expect(await creditsOf(owner.id)).toBe(100 - hold.amount);
    expect(await creditsOf(member.id)).toBe(7);
    expect(await countRows("SELECT count(*) AS n FROM clips WHERE user_id = ?", member.id)).toBe(1);
    // Someone else's token cannot settle the member's hold on the team's ledger.
    const stranger = await person();
    expect((await api(stranger.token, `/api/v1/holds/${hold.id}/release`, {})).status).toBe(404);
  });

  it("a removed member, and one who leaves, pays from their own balance again", async () => {
    const { owner, member } = await team(100, 20);
    expect(await removeMember(ctx, owner.id, member.id)).toMatchObject({ ok: true });
    const cost = await ownClip(member.token);
    expect(await creditsOf(member.id)).toBe(20 - cost);
    expect(await creditsOf(owner.id)).toBe(100);
    const me = (await (await api(member.token, "/api/v1/me")).json()) as { user: { plan: string }; team: unknown };
    expect(me).toMatchObject({ user: { plan: "Free" }, team: null });
  });

  it("the owner's downgrade below Pro suspends the team; back on Pro it is restored", async () => {
    const { owner, member } = await team(100, 20);
    const stepUp = await steppedUpSession(owner.id);
    const edit = (plan: "Advanced" | "Pro") =>
      ledger(env, owner.id).adminEdit({
        key: crypto.randomUUID(),
        plan,
        expectedBalance: 100,
        newBalance: 100,
        actorId: owner.id,
        reason: "",
        stepUp,
      });
    expect(await edit("Advanced")).toMatchObject({ ok: true });
    // Members are told, whatever changed the plan (the ledger tells them after it commits).
    await vi.waitFor(async () => {
      const mail = (await outbox()).find(
        (m) => m.to === member.email && m.subject === "Your ClipCut team is suspended",
      );
      expect(mail).toBeTruthy();
    });
    expect(
      await countRows("SELECT count(*) n FROM audit_log WHERE action = 'team.suspended' AND subject_id = ?", owner.id),
    ).toBe(1);
    const cost = await ownClip(member.token);
    expect(await creditsOf(member.id)).toBe(20 - cost);
    expect(await creditsOf(owner.id)).toBe(100);
    // The owner's ledger refuses a team clip while suspended, whoever routes it there.
    const direct = await ledger(env, owner.id).charge({
      key: "x",
      request: clip as never,
      source: "api",
      creatorId: member.id,
    });
    expect(direct).toMatchObject({ ok: false, status: 403, reason: "team_suspended", message: TEAM_SUSPENDED_MESSAGE });
    expect(await edit("Pro")).toMatchObject({ ok: true });
    await vi.waitFor(async () =>
      expect(
        await countRows(
          "SELECT count(*) n FROM audit_log WHERE action = 'team.suspended' AND subject_id = ?",
          owner.id,
        ),
      ).toBe(2),
    );
    expect((await api(member.token, "/api/v1/clips", clip)).status).toBe(201);
    expect(await creditsOf(owner.id)).toBe(94);
    expect(await creditsOf(member.id)).toBe(20 - cost);
  });

  it("a banned member's token is refused, though the team's account is fine", async () => {
    const { member } = await team();
    expect(await ledger(env, member.id).setBanned({ banned: true })).toMatchObject({ ok: true });
    expect((await api(member.token, "/api/v1/clips", clip)).status).toBe(401);
  });

  it("an owner cannot leave while others remain, and cannot be removed", async () => {
    const { owner, member } = await team();
    expect(await leave(ctx, owner.id)).toMatchObject({ ok: false, status: 409 });
    expect(await removeMember(ctx, owner.id, owner.id)).toMatchObject({ ok: false });
    expect(await removeMember(ctx, member.id, owner.id)).toMatchObject({ ok: false });
    expect(await leave(ctx, member.id)).toMatchObject({ ok: true });
    expect(await leave(ctx, owner.id)).toMatchObject({ ok: true });
  });
});

describe("teams: the owner's Analytics", () => {
  it("shows each person's clips and credits from the team's balance, equal to a direct SQL count; members see none", async () => {
    const password = "team analytics passphrase";
    const ownerEmail = `owner-${crypto.randomUUID()}@example.com`;
    const ownerId = await insertUser({ email: ownerEmail, password, plan: "Pro", credits: 100 });
    const owner = { id: ownerId, email: ownerEmail, fullName: "Test Person", plan: "Pro" };
    const ownerToken = await issueApiToken(db, ownerId, "s");
    const member = await person("Free", 7);
    expect(await join(ctx, member, await invited({ ...owner, token: ownerToken }, member.email))).toMatchObject({
      ok: true,
    });
    for (const token of [ownerToken, member.token, member.token])
      expect((await api(token, "/api/v1/clips", clip)).status).toBe(201);

    const html = await (await get("/analytics?range=30d", { cookie: await signIn(ownerEmail, password) })).text();
    const table = html.slice(
      html.indexOf('data-testid="team-figures"'),
      html.indexOf("</table>", html.indexOf('data-testid="team-figures"')),
    );
    const expected = await env.DB.prepare(
      "SELECT c.user_id AS id, count(*) AS clips, sum(c.cost) AS credits FROM clips c JOIN credit_ledger l ON l.clip_id = c.id WHERE l.user_id = ? GROUP BY c.user_id",
    )
      .bind(ownerId)
      .all<{ id: string; clips: number; credits: number }>();
    expect(expected.results).toHaveLength(2);
    for (const [id, email] of [
      [ownerId, ownerEmail],
      [member.id, member.email],
    ] as const) {
      const row = expected.results.find((r) => r.id === id)!;
      const cells = table.slice(table.indexOf(email)).match(/<td[^>]*>([\d,]+)<\/td><td[^>]*>([\d,]+)<\/td>/);
      expect(cells?.slice(1, 3)).toEqual([String(row.clips), String(row.credits)]);
    }
    // A member's own dashboard (their plan is the team's) has no team table.
    await env.DB.prepare("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = ?) WHERE id = ?")
      .bind(ownerId, member.id)
      .run();
    const memberHtml = await (await get("/analytics", { cookie: await signIn(member.email, password) })).text();
    expect(memberHtml).not.toContain('data-testid="team-figures"');
  });
});

describe("teams: the admin's view", () => {
  it("/admin/users shows the edited user's team: its owner and members", async () => {
    const { owner, member } = await team();
    const loner = await person();
    const adminEmail = `admin-${crypto.randomUUID()}@example.com`;
    await insertUser({ email: adminEmail, password: "team admin passphrase", role: "admin", plan: "Pro" });
    const cookie = await signIn(adminEmail, "team admin passphrase");
    const page = async (id: string) => (await get(`/admin/users?edit=${id}`, { cookie })).text();

    const section = (html: string) => html.slice(html.indexOf('id="user-team-title"'), html.indexOf("</section>"));
    const memberView = section(await page(member.id));
    expect(memberView).toContain("Member of Test Person&#x27;s Pro team");
    expect(memberView.indexOf(owner.email)).toBeGreaterThan(0);
    expect(memberView.indexOf(owner.email)).toBeLessThan(memberView.indexOf(member.email)); // owner first
    expect(await page(owner.id)).toContain("Owns a Pro team");
    const lonerView = await page(loner.id);
    expect(lonerView).not.toContain("Pro team");
  });
});

describe("teams: joining without an account", () => {
  it("sign-up from an invitation comes back to it once the e-mail is confirmed; other paths are ignored", async () => {
    const owner = await person("Pro");
    const email = `new-${crypto.randomUUID()}@example.com`;
    const token = await invited(owner, email);
    const joinPath = `/team/join/${token}`;
    const join = await (await get(joinPath)).text();
    expect(join).toContain(`/signup?next=${encodeURIComponent(joinPath)}`);

    const signUp = async (address: string, next: string) => {
      const res = await post("/signup", {
        fullName: "New Member",
        email: address,
        password: "new member passphrase",
        confirmPassword: "new member passphrase",
        next,
      });
      expect(res.status).toBe(200);
      const browser = res.headers
        .getSetCookie()
        .find((c) => c.startsWith("clipcut_signup="))
        ?.split(";")[0];
      const mail = (await outbox()).find((m) => m.to === address && m.links[0]?.includes("/verify-email/"));
      return { browser: browser ?? "", link: new URL(mail?.links[0] ?? "http://localhost/") };
    };

    const { browser, link } = await signUp(email, joinPath);
    expect(link.searchParams.get("next")).toBe(joinPath);
    // The confirmation page's form posts back to the same URL, next included (with or without JavaScript).
    const page = await (await get(`${link.pathname}${link.search}`, { cookie: browser })).text();
    expect(page).toMatch(/<form[^>]*action="[^"]*next=%2Fteam%2Fjoin%2F/);
    const confirmed = await post(`${link.pathname}${link.search}`, {}, { cookie: browser });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe(joinPath);

    // Anything but an invitation's path is dropped from the mail: the confirmed account lands on the dashboard.
    const other = `other-${crypto.randomUUID()}@example.com`;
    for (const next of ["https://evil.example/team/join/abcdefghijklmnop", "/admin", "//evil.example"]) {
      const attempt = await signUp(`${next.length}-${other}`, next);
      expect(attempt.link.search).toBe("");
    }
  });
});
