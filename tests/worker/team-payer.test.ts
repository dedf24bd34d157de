import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { issueApiToken } from "~/services/api-tokens.server";
import { ledger } from "~/services/ledger.server";
import { invite, join, leave } from "~/services/teams.server";
import { withStandIns } from "../../workers/local";
import { apiAs as api, get, insertUser, outbox, post, signIn } from "./helpers";

/** Who pays is a fact of the clip: refunds, deletes and plan rules follow the payer, not the clip's creator. */
const db = getDb(env.DB);
// The services see the env the local Worker composes (its e-mail goes to the stand-in outbox).
const ctx = { env: withStandIns(env, "http://localhost", createExecutionContext()), db, origin: "http://localhost" };
const PASSWORD = "correct-horse-battery-9";

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

const clip = {
  name: "Team clip",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 0,
  endSeconds: 30,
  format: "mp4" as const,
  quality: "1080p" as const,
}; // 6 credits on Pro

async function person(plan = "Free", credits = 50, role: "user" | "admin" = "user") {
  const email = `p-${crypto.randomUUID()}@example.com`;
  const id = await insertUser({ email, plan, credits, password: PASSWORD, role });
  return { id, email, fullName: "Test Person", plan, token: await issueApiToken(db, id, "s") };
}

const creditsOf = async (id: string) =>
  (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(id).first<{ credits: number }>())!.credits;

async function team(ownerCredits = 100, memberCredits = 7) {
  const owner = await person("Pro", ownerCredits);
  const member = await person("Free", memberCredits);
  expect(await invite(ctx, owner, member.email)).toMatchObject({ ok: true });
  const mail = (await outbox()).find((m) => m.to === member.email)!;
  expect(await join(ctx, member, mail.links[0]!.split("/team/join/")[1]!)).toMatchObject({ ok: true });
  return { owner, member };
}

async function memberClip(token: string): Promise<{ id: string; cost: number }> {
  const res = await api(token, "/api/v1/clips", clip);
  expect(res.status).toBe(201);
  return ((await res.json()) as { clip: { id: string; cost: number } }).clip;
}

describe("who pays for a team member's clip", () => {
  it("an admin delete with refund of a member's clip returns the cost to the owner and leaves the member's balance alone", async () => {
    const { owner, member } = await team(100, 7);
    const made = await memberClip(member.token);
    expect(await creditsOf(owner.id)).toBe(94);
    const admin = await person("Free", 0, "admin");
    const cookie = await signIn(admin.email, PASSWORD);
    const res = await post("/admin/clips", { intent: "delete", clipId: made.id, refund: "on" }, { cookie });
    expect(res.status).toBe(302);
    expect(await creditsOf(owner.id)).toBe(100);
    expect(await creditsOf(member.id)).toBe(7);
    expect(await env.DB.prepare("SELECT id FROM clips WHERE id = ?").bind(made.id).first()).toBeNull();
  });

  it("a member who leaves cannot have a team clip refunded to their own balance", async () => {
    const { owner, member } = await team(100, 7);
    const made = await memberClip(member.token);
    expect(await leave(ctx, member.id)).toMatchObject({ ok: true });
    const refused = await ledger(env, member.id).refund({ clipId: made.id, reason: "asked", deleteClip: true });
    expect(refused).toMatchObject({ ok: false, status: 404 });
    expect(await creditsOf(member.id)).toBe(7);
    // The payer's ledger still can: the clip was paid there.
    const refunded = await ledger(env, owner.id).refund({ clipId: made.id, reason: "asked" });
    expect(refunded).toMatchObject({ ok: true });
    expect(await creditsOf(owner.id)).toBe(100);
  });

  it("records the payer on the clip row", async () => {
    const { owner, member } = await team(100, 7);
    const made = await memberClip(member.token);
    const row = await env.DB.prepare("SELECT user_id, payer_id FROM clips WHERE id = ?").bind(made.id).first();
    expect(row).toEqual({ user_id: member.id, payer_id: owner.id });
  });

  it("a member's open socket hears their own new clip live, not only the team balance", async () => {
    const { member } = await team(100, 7);
    const res = await exports.default.fetch(
      new Request("http://localhost/api/v1/realtime", {
        headers: { Upgrade: "websocket", Authorization: `Bearer ${member.token}` },
      }),
    );
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const messages: { type: string; data: { clip?: { id: string } } }[] = [];
    ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data))));
    ws.accept();
    const made = await memberClip(member.token);
    await vi.waitFor(() => expect(messages.some((m) => m.type === "clip" && m.data.clip?.id === made.id)).toBe(true), {
      timeout: 5_000,
    });
    ws.close();
  });
});

describe("a team member gets the plan the team pays for", () => {
  it("a Pro member's GET /api/v1/presets is 200 and /analytics shows the dashboard", async () => {
    const { member } = await team(100, 7);
    const me = (await (await api(member.token, "/api/v1/me")).json()) as { limits: { presets: boolean } };
    expect(me.limits.presets).toBe(true);
    const presets = await api(member.token, "/api/v1/presets");
    expect(presets.status).toBe(200);
    const cookie = await signIn(member.email, PASSWORD);
    const page = await get("/analytics", { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain("Analytics Dashboard is part of the Advanced plan");
  });

  it("a member's dashboard shows the team's card and their usage; the owner's and a stranger's show none", async () => {
    const { owner, member } = await team(100, 7);
    await memberClip(member.token);
    const stranger = await person("Pro", 30);
    const dashboardOf = async (email: string) =>
      (await get("/dashboard", { cookie: await signIn(email, PASSWORD) })).text();
    const mine = await dashboardOf(member.email);
    expect(mine).toContain('data-testid="team-card"');
    expect(mine).toMatch(/You used <!-- -->\d+<!-- --> credits for <!-- -->1<!-- --> clip/);
    expect(await dashboardOf(owner.email)).not.toContain('data-testid="team-card"');
    expect(await dashboardOf(stranger.email)).not.toContain('data-testid="team-card"');
  });

  it("a member of a suspended team is back on their own plan everywhere", async () => {
    const { owner, member } = await team(100, 7);
    await ledger(env, owner.id).changePlan({ plan: "Basic" });
    const me = (await (await api(member.token, "/api/v1/me")).json()) as { limits: { presets: boolean } };
    expect(me.limits.presets).toBe(false);
    expect((await api(member.token, "/api/v1/presets")).status).toBe(403);
  });
});

describe("a refused operation changes nothing", () => {
  it("a refused admin edit leaves memory and D1 agreeing on the plan", async () => {
    const user = await person("Free", 50);
    const admin = await person("Free", 0, "admin");
    // A plan change with a credit change but no reason: refused as a whole.
    const refused = await ledger(env, user.id).adminEdit({
      key: "admin-edit:refused-0001",
      plan: "Pro",
      expectedBalance: 50,
      newBalance: 60,
      actorId: admin.id,
      reason: "",
      stepUp: { sessionId: "none" },
    });
    expect(refused.ok).toBe(false);
    const stored = await env.DB.prepare("SELECT plan FROM users WHERE id = ?").bind(user.id).first<{ plan: string }>();
    expect(stored!.plan).toBe("Free");
    // Memory decides the next charge: a 1080p clip is not Free's, so it must still be refused.
    const charged = await ledger(env, user.id).charge({ key: "api:after-refusal", request: clip, source: "api" });
    expect(charged).toMatchObject({ ok: false, code: "plan_limit" });
  });
});

describe("the dashboard's GET writes nothing", () => {
  it("a Free account with 0 credits and no clips gets its starter credits from the ledger, live, not from the page", async () => {
    const email = `zero-${crypto.randomUUID()}@example.com`;
    const id = await insertUser({ email, credits: 0, password: PASSWORD });
    const cookie = await signIn(email, PASSWORD);
    expect((await get("/dashboard", { cookie })).status).toBe(200);
    const credits = async () =>
      (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(id).first<{ credits: number }>())!.credits;
    expect(await credits()).toBe(0);
    // The page's socket loads the ledger, which applies the rule and says so.
    const res = await exports.default.fetch(
      new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: cookie } }),
    );
    const ws = res.webSocket!;
    const messages: { type: string; data?: { balance?: number; credits?: { balance: number } } }[] = [];
    ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data))));
    ws.accept();
    ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
    await vi.waitFor(
      () => expect(messages.some((m) => m.data?.balance === 100 || m.data?.credits?.balance === 100)).toBe(true),
      {
        timeout: 5_000,
      },
    );
    expect(await credits()).toBe(100);
    ws.close();
  });
});
