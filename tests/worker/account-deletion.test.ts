import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { issueApiToken } from "~/services/api-tokens.server";
import { ledger } from "~/services/ledger.server";
import { invite, join } from "~/services/teams.server";
import { withStandIns } from "../../workers/local";
import { apiAs, countRows, get, insertUser, outbox, post, signIn } from "./helpers";

/**
 * "Delete my account, and export my data": the export holds each section of the person's own data and nothing of
 * anyone else; deletion asks for the password (or an admin's reason and step-up), ends the money, the team and every
 * way in, leaves the ledger whole, and leaves no row in any D1 table that names the person.
 */
const db = getDb(env.DB);
const PASSWORD = "Account-deletion-1";
const ctx = { env: withStandIns(env, "http://localhost", createExecutionContext()), db, origin: "http://localhost" };

afterEach(async () => {
  // The ledger invariant for every remaining user, deleted ones included: balance = sum of their rows.
  expect(await reconcile(db)).toEqual([]);
});

const clip = (name: string) => ({
  name,
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 0,
  endSeconds: 20,
  format: "mp4" as const,
  quality: "720p" as const,
});

/** A person with a name and an address no other row of the database has. */
async function person(opts: { plan?: string; credits?: number; role?: "user" | "admin"; first?: string } = {}) {
  const tag = crypto.randomUUID().slice(0, 8);
  const fullName = `${opts.first ?? "Zelda"} Quillfeather${tag}`;
  const email = `${(opts.first ?? "zelda").toLowerCase()}-${tag}@example.com`;
  const id = await insertUser({ email, password: PASSWORD, plan: opts.plan, credits: opts.credits, role: opts.role });
  await env.DB.prepare("UPDATE users SET full_name = ? WHERE id = ?").bind(fullName, id).run();
  return { id, email, fullName, plan: opts.plan ?? "Free" };
}

/** `member` joins `owner`'s Pro team through a real invitation. */
async function joinTeam(owner: Awaited<ReturnType<typeof person>>, member: Awaited<ReturnType<typeof person>>) {
  expect(await invite(ctx, owner, member.email)).toMatchObject({ ok: true });
  const mail = (await outbox()).find((m) => m.to === member.email)!;
  const token = mail.links[0]!.split("/team/join/")[1]!;
  expect(await join(ctx, member, token)).toMatchObject({ ok: true });
}

async function openSocket(cookie: string) {
  const res = await exports.default.fetch(
    new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: cookie } }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (event) => resolve(event.code)));
  ws.accept();
  return (ms = 5000) => Promise.race([closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))]);
}

/** Every text value of every D1 table that contains one of `needles` (any case): [table, column, value]. */
async function rowsNaming(...needles: string[]): Promise<[string, string, string][]> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  expect(tables.results.map((t) => t.name)).toEqual(
    expect.arrayContaining(["users", "credit_ledger", "audit_log", "billing_payments", "contact_messages"]),
  );
  const found: [string, string, string][] = [];
  for (const { name: table } of tables.results) {
    const columns = await env.DB.prepare(`SELECT name FROM pragma_table_info(?)`).bind(table).all<{ name: string }>();
    for (const { name: column } of columns.results)
      for (const needle of needles) {
        const hits = await env.DB.prepare(
          `SELECT "${column}" AS v FROM "${table}" WHERE typeof("${column}") = 'text' AND instr(lower("${column}"), ?) > 0`,
        )
          .bind(needle.toLowerCase())
          .all<{ v: string }>();
        for (const hit of hits.results) found.push([table, column, hit.v]);
      }
  }
  return found;
}

/** A Basic monthly subscription bought just now through Checkout (inside the 14-day guarantee): 500 credits. */
async function subscribe(cookie: string) {
  const checkout = (await post("/billing/plan", { plan: "Basic", billing: "monthly" }, { cookie })).headers.get(
    "Location",
  );
  expect(checkout).toBeTruthy();
  await post(new URL(checkout!).pathname, { cardNumber: "4242424242424242" }, { cookie });
}

const userRow = (id: string) =>
  env.DB.prepare("SELECT email, full_name, plan, credits, status, password_hash FROM users WHERE id = ?")
    .bind(id)
    .first<{
      email: string;
      full_name: string;
      plan: string;
      credits: number;
      status: string;
      password_hash: string;
    }>();

describe("Download my data", () => {
  it("holds each section of the person's own data, and nothing of their team's owner or anyone else", async () => {
    const owner = await person({ plan: "Pro", credits: 500, first: "Otto" });
    const me = await person({ credits: 100, first: "Ada" });
    await joinTeam(owner, me);
    // The owner's own clip, and the member's clip paid by the team's balance.
    expect(
      (await ledger(env, owner.id).charge({ key: "own-1", request: clip("Otto secret plan"), source: "api" })).ok,
    ).toBe(true);
    const token = await issueApiToken(db, me.id, "s");
    expect((await apiAs(token, "/api/v1/clips", clip("Ada's goal"))).status).toBe(201);
    await env.DB.prepare(
      "INSERT INTO billing_payments (id, user_id, kind, description, status, amount_cents, credits, created_at, paid_at) VALUES (?, ?, 'pack', 'Credit pack: 500 credits', 'paid', 1000, 500, ?, ?)",
    )
      .bind(`pi_export_${me.id}`, me.id, Date.now(), Date.now())
      .run();
    const cookie = await signIn(me.email, PASSWORD);

    const res = await get("/account/export", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="clipcut-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const text = await res.text();
    const data = JSON.parse(text) as Record<string, unknown> & {
      profile: { email: string; fullName: string };
      clips: { name: string; paidByTeam: boolean }[];
      creditHistory: { kind: string }[];
      payments: { id: string }[];
      sessions: { thisBrowser: boolean }[];
      extensionTokens: unknown[];
      team: { role: string };
    };
    for (const section of [
      "profile",
      "clips",
      "creditHistory",
      "payments",
      "subscriptions",
      "sessions",
      "extensionTokens",
      "presets",
      "team",
    ])
      expect(data, section).toHaveProperty(section);
    expect(data.profile).toMatchObject({ email: me.email, fullName: me.fullName });
    expect(data.clips).toEqual([expect.objectContaining({ name: "Ada's goal", paidByTeam: true })]);
    expect(data.creditHistory).toEqual([expect.objectContaining({ kind: "signup" })]);
    expect(data.payments).toEqual([expect.objectContaining({ id: `pi_export_${me.id}` })]);
    expect(data.sessions).toContainEqual(expect.objectContaining({ thisBrowser: true }));
    expect(data.extensionTokens).toHaveLength(1);
    expect(data.team).toEqual({ role: "member", joinedAt: expect.any(String) });
    // Nothing of anyone else: the owner's name, address, id and clip; no session id or token hash either.
    for (const other of [owner.email, owner.fullName, owner.id, "Otto secret plan"]) expect(text).not.toContain(other);
    const sessionIds = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?")
      .bind(me.id)
      .all<{ id: string }>();
    for (const { id } of sessionIds.results) expect(text).not.toContain(id);

    // The export is the signed-in person's only: without a session, the sign-in page.
    const anonymous = await get("/account/export");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/signin/);
    expect(
      await countRows(
        "SELECT count(*) n FROM audit_log WHERE action = 'account.data_exported' AND subject_id = ?",
        me.id,
      ),
    ).toBe(1);
  });
});

describe("Delete my account (/account/delete)", () => {
  it("asks for the password every time and the confirmation box; refused attempts change nothing", async () => {
    const me = await person();
    const cookie = await signIn(me.email, PASSWORD);
    const page = await (await get("/account/delete", { cookie })).text();
    expect(page).toContain("Delete my account");
    expect(page).toContain("Your 100 credits are cancelled.");
    const noPassword = await post("/account/delete", { confirm: "delete" }, { cookie });
    expect(noPassword.status).toBe(401);
    const wrong = await post("/account/delete", { confirm: "delete", currentPassword: "not my password" }, { cookie });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That password is not right.");
    const unconfirmed = await post("/account/delete", { currentPassword: PASSWORD }, { cookie });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("Tick the box to confirm");
    // A proof of the password a moment ago does not stand in for it: deletion asks again.
    const again = await post("/account/delete", { confirm: "delete" }, { cookie });
    expect(again.status).toBe(401);
    expect(await userRow(me.id)).toMatchObject({ email: me.email, status: "offline", credits: 100 });
    expect((await get("/dashboard", { cookie })).status).toBe(200);
  });

  it("ends the subscription (refunding it inside the guarantee), the team, every way in, and every trace of the person", async () => {
    const owner = await person({ plan: "Pro", credits: 300, first: "Otto" });
    const me = await person({ credits: 100 });
    const cookie = await signIn(me.email, PASSWORD);
    await subscribe(cookie);
    expect(await userRow(me.id)).toMatchObject({ plan: "Basic", credits: 600 });
    await joinTeam(owner, me);
    // Clips of their own (one paid before the team, one by the team), one naming them; a token; a second browser.
    expect(
      (await ledger(env, me.id).charge({ key: "mine-1", request: clip(`${me.fullName} at the beach`), source: "api" }))
        .ok,
    ).toBe(true);
    const token = await issueApiToken(db, me.id, "s");
    expect((await apiAs(token, "/api/v1/clips", clip("Team clip"))).status).toBe(201);
    const other = await signIn(me.email, PASSWORD);
    const socket = await openSocket(other);
    // An admin's adjustment whose reason names them; a failed sign-in, a contact message and a Notify Me by address.
    const admin = await person({ role: "admin", first: "Ann" });
    expect(
      (
        await ledger(env, me.id).adjust({
          key: "adj-1",
          newBalance: 590,
          actorId: admin.id,
          reason: `asked by ${me.fullName}`,
        })
      ).ok,
    ).toBe(true);
    expect((await post("/signin", { email: me.email, password: "wrong guess" })).status).not.toBe(302);
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO contact_messages (id, name, email, topic, message) VALUES (?, ?, ?, 'billing', ?)",
      ).bind(crypto.randomUUID(), me.fullName, me.email, `Hello, this is ${me.fullName}.`),
      env.DB.prepare("INSERT INTO notify_requests (id, email, product) VALUES (?, ?, 'safari')").bind(
        crypto.randomUUID(),
        me.email,
      ),
    ]);
    const ownerCredits = (await userRow(owner.id))!.credits;

    const page = await (await get("/account/delete", { cookie })).text();
    expect(page).toContain("Your Basic plan (monthly) is cancelled at once");
    expect(page).toContain("inside the 14-day money-back guarantee");
    expect(page).toContain("You leave your team.");
    const res = await post("/account/delete", { confirm: "delete", currentPassword: PASSWORD }, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/signin?notice=account_deleted");
    expect(res.headers.getSetCookie().join("\n")).toMatch(/clipcut_session=;/);

    // Money: the unspent 500 plan credits went back with the refund, the rest was cancelled in one kept row.
    const kinds = await env.DB.prepare(
      "SELECT kind, delta, balance_after FROM credit_ledger WHERE user_id = ? ORDER BY created_at",
    )
      .bind(me.id)
      .all<{ kind: string; delta: number; balance_after: number }>();
    expect(kinds.results.map((r) => r.kind)).toEqual(expect.arrayContaining(["payment_refund", "account_closed"]));
    expect(kinds.results.at(-1)).toMatchObject({ kind: "account_closed", balance_after: 0 });
    expect(await userRow(me.id)).toMatchObject({
      plan: "Free",
      credits: 0,
      status: "Banned",
      full_name: "Deleted user",
      password_hash: null,
    });
    const payment = await env.DB.prepare("SELECT status, refunded_cents FROM billing_payments WHERE user_id = ?")
      .bind(me.id)
      .first();
    expect(payment).toEqual({ status: "refunded", refunded_cents: 1500 });
    const subscription = await env.DB.prepare("SELECT status FROM billing_subscriptions WHERE user_id = ?")
      .bind(me.id)
      .first();
    expect(subscription).toEqual({ status: "canceled" });
    expect(await countRows("SELECT count(*) n FROM credit_lines WHERE user_id = ?", me.id)).toBeGreaterThan(0);
    // The team: they left it; the owner's balance and team clip are as they were.
    expect(await countRows("SELECT count(*) n FROM team_members WHERE member_id = ?", me.id)).toBe(0);
    expect((await userRow(owner.id))!.credits).toBe(ownerCredits);
    // Every way in ends: both sessions, the token, the open socket, the password.
    expect(await countRows("SELECT count(*) n FROM sessions WHERE user_id = ?", me.id)).toBe(0);
    expect(await countRows("SELECT count(*) n FROM api_tokens WHERE user_id = ?", me.id)).toBe(0);
    expect(await socket()).not.toBe("open");
    expect((await get("/dashboard", { cookie: other })).status).toBe(302);
    expect((await apiAs(token, "/api/v1/me")).status).toBe(401);
    // No row of any table names them; the ledger invariant is checked after the test.
    expect(await rowsNaming(me.email, me.fullName)).toEqual([]);
    // Someone trying the old address and password afterwards is not let in (a new, unknown address by then).
    const signInAgain = await post("/signin", { email: me.email, password: PASSWORD });
    expect(signInAgain.status).not.toBe(302);
    expect(
      (await outbox()).find((m) => m.to === me.email && m.subject === "Your ClipCut account has been deleted"),
    ).toBeTruthy();
  });
});

describe("an admin deletes an account from the user's admin screen", () => {
  it("needs a reason and the admin's password, closes the owner's team, and writes the reason in the audit log", async () => {
    const admin = await person({ role: "admin", first: "Ann" });
    const owner = await person({ plan: "Pro", credits: 300, first: "Otto" });
    const member = await person({ credits: 40, first: "Mia" });
    await joinTeam(owner, member);
    const adminCookie = await signIn(admin.email, PASSWORD);
    const screen = await (await get(`/admin/users/${owner.id}/delete`, { cookie: adminCookie })).text();
    expect(screen).toContain("Their Pro team closes: its 1 other member leaves it");
    expect(screen).toContain("Their 300 credits are cancelled.");

    const path = `/admin/users/${owner.id}/delete`;
    const noReason = await post(path, { reason: " ", currentPassword: PASSWORD }, { cookie: adminCookie });
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("Give a reason of at least 3 characters.");
    const noPassword = await post(path, { reason: "asked by e-mail" }, { cookie: adminCookie });
    expect(noPassword.status).toBe(401);
    const notAdmin = await post(
      path,
      { reason: "sneaky", currentPassword: PASSWORD },
      { cookie: await signIn(member.email, PASSWORD) },
    );
    expect(notAdmin.status).toBe(302);
    expect(await userRow(owner.id)).toMatchObject({ email: owner.email, credits: 300 });

    const done = await post(
      path,
      { reason: "asked by e-mail on May 3", currentPassword: PASSWORD },
      { cookie: adminCookie },
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/users?notice=deleted");
    const entry = await env.DB.prepare(
      "SELECT actor_id, details FROM audit_log WHERE action = 'admin.account_deleted' AND subject_id = ?",
    )
      .bind(owner.id)
      .first<{ actor_id: string; details: string }>();
    expect(entry?.actor_id).toBe(admin.id);
    expect(JSON.parse(entry!.details)).toMatchObject({
      reason: "asked by e-mail on May 3",
      creditsCancelled: 300,
      team: "owner",
    });
    // The team closed: the member pays for themself again and was told.
    expect(await countRows("SELECT count(*) n FROM team_members WHERE owner_id = ?", owner.id)).toBe(0);
    expect(
      (await outbox()).find((m) => m.to === member.email && m.subject === "Your ClipCut team has closed"),
    ).toBeTruthy();
    const memberToken = await issueApiToken(db, member.id, "s");
    expect((await apiAs(memberToken, "/api/v1/clips", clip("Mine now"))).status).toBe(201);
    expect((await userRow(member.id))!.credits).toBe(38);
    // The owner is gone: no sign-in, no trace; the admin screen says it was deleted, and nothing more is done.
    expect(await rowsNaming(owner.email, owner.fullName)).toEqual([]);
    expect((await post("/signin", { email: owner.email, password: PASSWORD })).status).not.toBe(302);
    const twice = await post(path, { reason: "again", currentPassword: PASSWORD }, { cookie: adminCookie });
    expect(twice.status).toBe(409);
    const ban = await post("/admin/users", { intent: "unban", userId: owner.id }, { cookie: adminCookie });
    expect(ban.status).toBe(409);
  });

  it("a plain admin cannot delete another admin, and nobody deletes themself from the admin screen", async () => {
    const admin = await person({ role: "admin", first: "Ann" });
    const otherAdmin = await person({ role: "admin", first: "Abe" });
    const cookie = await signIn(admin.email, PASSWORD);
    const onAdmin = await post(
      `/admin/users/${otherAdmin.id}/delete`,
      { reason: "cleanup", currentPassword: PASSWORD },
      { cookie },
    );
    expect(onAdmin.status).toBe(403);
    const onSelf = await post(
      `/admin/users/${admin.id}/delete`,
      { reason: "leaving", currentPassword: PASSWORD },
      { cookie },
    );
    expect(onSelf.status).toBe(400);
    expect(await userRow(otherAdmin.id)).toMatchObject({ email: otherAdmin.email });
    expect(await userRow(admin.id)).toMatchObject({ email: admin.email });
  });
});

describe("mail after deletion", () => {
  it("a message to a deleted account's placeholder address is not sent (a late refund notice goes nowhere)", async () => {
    const { sendEmail } = await import("~/services/email.server");
    const local = withStandIns(env, "http://localhost", createExecutionContext());
    const message = { subject: "Late notice", text: "t", html: "<p>t</p>", links: [] };
    await sendEmail({ env: local }, { ...message, to: "someone-else@example.com" });
    await sendEmail({ env: local }, { ...message, to: "0b1d@deleted.invalid" });
    const sent = (await outbox()).filter((m) => m.subject === "Late notice");
    expect(sent.map((m) => m.to)).toEqual(["someone-else@example.com"]);
  });
});
