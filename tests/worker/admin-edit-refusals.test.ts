import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import type { AdminEditInput } from "~/domain/ledger";
import { serverMessageSchema } from "~/domain/realtime";
import { ledger } from "~/services/ledger.server";
import { insertUser, post, signIn, steppedUpSession } from "./helpers";

/**
 * A refused admin edit changes nothing anywhere: the user's ledger keeps in memory exactly what D1 holds. Memory is
 * read as the user's own page reads it (the socket's snapshot), D1 with SQL, after each way an edit is refused.
 */
const db = getDb(env.DB);
const PASSWORD = "refused edit passphrase";

afterEach(async () => {
  expect(await reconcile(db)).toEqual([]);
});

async function person(role: "user" | "admin" = "user") {
  const email = `${role}-${crypto.randomUUID()}@example.com`;
  const id = await insertUser({ email, password: PASSWORD, role, credits: 100 });
  return { id, cookie: await signIn(email, PASSWORD) };
}

/** The ledger's memory as the user's page hears it: the snapshot answering a hello. */
async function snapshot(cookie: string) {
  const res = await exports.default.fetch(
    new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: cookie } }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const messages: unknown[] = [];
  ws.addEventListener("message", (event) => {
    messages.push(JSON.parse(String(event.data)));
  });
  ws.accept();
  ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
  const found = () => messages.map((m) => serverMessageSchema.parse(m)).find((m) => m.type === "snapshot");
  await vi.waitFor(() => expect(found()).toBeDefined(), { timeout: 5_000 });
  ws.close();
  const message = found()!;
  if (message.type !== "snapshot") throw new Error("no snapshot");
  return { plan: message.data.plan.plan, pendingPlan: message.data.plan.pendingPlan, credits: message.data.credits };
}

/** What D1 holds for the same fields, and how many ledger rows the account has. */
async function stored(userId: string) {
  const row = await env.DB.prepare("SELECT plan, pending_plan, credits, plan_set_by FROM users WHERE id = ?")
    .bind(userId)
    .first<{ plan: string; pending_plan: string | null; credits: number; plan_set_by: string | null }>();
  const rows = await env.DB.prepare("SELECT count(*) n FROM credit_ledger WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  return { ...row!, ledgerRows: rows!.n };
}

/** Memory and D1 agree, and both still say what the account was before the refused edit. */
async function expectUnchanged(user: { id: string; cookie: string }) {
  const memory = await snapshot(user.cookie);
  const d1 = await stored(user.id);
  expect(memory).toEqual({
    plan: d1.plan,
    pendingPlan: d1.pending_plan,
    credits: expect.objectContaining({ balance: d1.credits }),
  });
  expect(d1).toEqual({ plan: "Free", pending_plan: null, credits: 100, plan_set_by: null, ledgerRows: 1 });
}

const form = (userId: string, fields: Record<string, string>) => ({
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

describe("a refused admin edit on /admin/users leaves the ledger's memory and D1 agreeing", () => {
  const REFUSED: { says: string; fields: Record<string, string>; status: number }[] = [
    {
      says: "a plan change with a balance that moved since the form was shown (409)",
      fields: { plan: "Pro", shownCredits: "90", credits: "150", reason: "goodwill", currentPassword: PASSWORD },
      status: 409,
    },
    { says: "a plan change without the admin's password (401)", fields: { plan: "Pro" }, status: 401 },
    {
      says: "a plan and balance change with a wrong password (401)",
      fields: { plan: "Advanced", credits: "500", reason: "goodwill", currentPassword: "not the password" },
      status: 401,
    },
  ];
  for (const { says, fields, status } of REFUSED) {
    it(says, async () => {
      const admin = await person("admin");
      const user = await person();
      // The user's page is open: the ledger is loaded, and its memory is what the refused edit could have touched.
      expect((await snapshot(user.cookie)).plan).toBe("Free");
      const res = await post("/admin/users", form(user.id, fields), { cookie: admin.cookie });
      expect(res.status).toBe(status);
      await expectUnchanged(user);
    });
  }
});

describe("a refused adminEdit leaves the ledger's memory and D1 agreeing, whoever calls it", () => {
  const base = (adminId: string, sessionId: string): AdminEditInput => ({
    key: `admin-edit:${crypto.randomUUID()}`,
    plan: "Pro",
    expectedBalance: 100,
    newBalance: 100,
    actorId: adminId,
    reason: "",
    stepUp: { sessionId },
  });
  const REFUSED: { says: string; change: Partial<AdminEditInput>; code: string }[] = [
    { says: "a plan change with a balance change and no reason", change: { newBalance: 60 }, code: "invalid_input" },
    { says: "a plan change with a negative balance", change: { newBalance: -1, reason: "x" }, code: "invalid_input" },
    {
      says: "a plan change with a balance that moved",
      change: { expectedBalance: 90, newBalance: 150, reason: "goodwill" },
      code: "balance_changed",
    },
    {
      says: "a plan change on a session without step-up",
      change: { stepUp: { sessionId: "none" } },
      code: "step_up_required",
    },
  ];
  for (const { says, change, code } of REFUSED) {
    it(says, async () => {
      const admin = await person("admin");
      const user = await person();
      expect((await snapshot(user.cookie)).plan).toBe("Free");
      const { sessionId } = await steppedUpSession(admin.id);
      const refused = await ledger(env, user.id).adminEdit({ ...base(admin.id, sessionId), ...change });
      expect(refused).toMatchObject({ ok: false, code });
      await expectUnchanged(user);
      // The very next decision is made on that memory: the same plan change, now valid, applies once, to both.
      const applied = await ledger(env, user.id).adminEdit(base(admin.id, sessionId));
      expect(applied).toMatchObject({ ok: true, value: { planChanged: true } });
      const memory = await snapshot(user.cookie);
      expect(memory.plan).toBe("Pro");
      expect((await stored(user.id)).plan).toBe("Pro");
    });
  }
});
