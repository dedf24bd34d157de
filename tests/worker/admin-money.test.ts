import { localLedger } from "../../workers/local/ledger-clock";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { issueApiToken } from "~/services/api-tokens.server";
import { ledger } from "~/services/ledger.server";
import { countRows, insertUser, post, signIn, steppedUpSession } from "./helpers";

/** An admin's plan and balance edits: money needs step-up, and the balance is compare-and-set. */
const db = getDb(env.DB);
const PASSWORD = "admin money passphrase";

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

async function admin() {
  const email = `admin-${crypto.randomUUID()}@example.com`;
  const id = await insertUser({ email, password: PASSWORD, role: "admin" });
  return { id, cookie: await signIn(email, PASSWORD) };
}

const edit = (userId: string, fields: Record<string, string>) => ({
  intent: "edit",
  userId,
  fullName: "Test Person",
  role: "user",
  plan: "Free",
  credits: "100",
  shownCredits: "100",
  reason: "",
  key: crypto.randomUUID(),
  ...fields,
});

const row = (id: string) =>
  env.DB.prepare("SELECT plan, credits, plan_set_by FROM users WHERE id = ?").bind(id).first<{
    plan: string;
    credits: number;
    plan_set_by: string | null;
  }>();

async function spendSix(userId: string) {
  const token = await issueApiToken(db, userId, "s");
  const res = await exports.default.fetch(
    new Request("http://localhost/api/v1/clips", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        "Idempotency-Key": "spend-0001",
      },
      body: JSON.stringify({
        name: "Meanwhile",
        videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        startSeconds: 0,
        endSeconds: 30,
        format: "mp4",
        quality: "720p",
      }),
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { credits: { balance: number } }).credits.balance;
}

describe("a plan is money: step-up covers it", () => {
  it("an admin session that never entered its password cannot set an account to Pro", async () => {
    const { cookie } = await admin();
    const userId = await insertUser({ email: `u-${crypto.randomUUID()}@example.com`, credits: 100 });
    const res = await post("/admin/users", edit(userId, { plan: "Pro" }), { cookie });
    expect(res.status).toBe(401);
    expect(await row(userId)).toMatchObject({ plan: "Free", credits: 100 });
    // With the password, the same change goes through, and the admin is recorded as the plan's setter.
    const ok = await post("/admin/users", edit(userId, { plan: "Pro", currentPassword: PASSWORD }), { cookie });
    expect(ok.status).toBe(302);
    expect((await row(userId))?.plan).toBe("Pro");
  });

  it("adding a user on a paid plan without the password creates no account", async () => {
    const { cookie } = await admin();
    const email = `new-${crypto.randomUUID()}@example.com`;
    const form = {
      intent: "add",
      fullName: "New",
      email,
      role: "user",
      plan: "Pro",
      credits: "100",
      key: "add-pro-0001",
    };
    expect((await post("/admin/users", form, { cookie })).status).toBe(401);
    expect(await countRows("SELECT count(*) n FROM users WHERE email = ?", email)).toBe(0);
  });

  it("the ledger refuses a plan or balance change without a fresh step-up proof, whoever calls it", async () => {
    const adminUser = await admin();
    const userId = await insertUser({ email: `u-${crypto.randomUUID()}@example.com`, credits: 100 });
    const input = {
      key: "direct-0001",
      plan: "Pro" as const,
      expectedBalance: 100,
      newBalance: 100,
      actorId: adminUser.id,
      reason: "",
    };
    const stale = await steppedUpSession(adminUser.id);
    await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE id = ?")
      .bind(Date.now() - 11 * 60_000, stale.sessionId)
      .run();
    expect(await ledger(env, userId).adminEdit({ ...input, stepUp: stale })).toMatchObject({
      ok: false,
      code: "step_up_required",
    });
    // Another admin's fresh session is no proof for this admin.
    const other = await admin();
    expect(await ledger(env, userId).adminEdit({ ...input, stepUp: await steppedUpSession(other.id) })).toMatchObject({
      ok: false,
      code: "step_up_required",
    });
    expect((await row(userId))?.plan).toBe("Free");
  });

  it("the renewal of a plan an admin set records that admin as the grant's actor", async () => {
    const adminUser = await admin();
    const userId = await insertUser({ email: `u-${crypto.randomUUID()}@example.com`, credits: 100 });
    const set = await ledger(env, userId).adminEdit({
      key: "renewal-actor-0001",
      plan: "Basic",
      expectedBalance: 100,
      newBalance: 100,
      actorId: adminUser.id,
      reason: "",
      stepUp: await steppedUpSession(adminUser.id),
    });
    expect(set).toMatchObject({ ok: true });
    expect((await row(userId))?.plan_set_by).toBe(adminUser.id);
    const end = (await env.DB.prepare("SELECT plan_period_end e FROM users WHERE id = ?").bind(userId).first<{
      e: number;
    }>())!.e;
    await localLedger(env, userId).advanceClock(userId, end + 1);
    const grant = await env.DB.prepare("SELECT actor_id FROM credit_ledger WHERE user_id = ? AND kind = 'renewal'")
      .bind(userId)
      .first<{ actor_id: string | null }>();
    expect(grant).toEqual({ actor_id: adminUser.id });
  });
});

describe("the admin balance is compare-and-set", () => {
  it("a clip committed after the form was shown is not handed back: the save answers 409 and changes nothing", async () => {
    const { cookie } = await admin();
    const userId = await insertUser({ email: `u-${crypto.randomUUID()}@example.com`, credits: 100 });
    const after = await spendSix(userId); // the form still shows 100
    const res = await post(
      "/admin/users",
      edit(userId, { credits: "150", reason: "goodwill", currentPassword: PASSWORD }),
      { cookie },
    );
    expect(res.status).toBe(409);
    expect((await row(userId))?.credits).toBe(after);
  });

  it("an unchanged credits field writes nothing, though the balance moved meanwhile, and asks no password", async () => {
    const { cookie } = await admin();
    const userId = await insertUser({ email: `u-${crypto.randomUUID()}@example.com`, credits: 100 });
    const after = await spendSix(userId);
    // A name-only save from a form that showed 100: no step-up, and the clip's charge stays.
    const res = await post("/admin/users", edit(userId, { fullName: "Renamed" }), { cookie });
    expect(res.status).toBe(302);
    expect((await row(userId))?.credits).toBe(after);
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ? AND kind = 'adjust'", userId)).toBe(
      0,
    );
  });
});
