import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { writeRole } from "~/db/user-access.server";
import { SIGNIN_ERRORS, SIGNIN_NOTICES } from "~/domain/signin-messages";
import { countRows, get, insertUser, post, signIn, expectNotice } from "./helpers";

const db = getDb(env.DB);

/** Abuse of sign-in, sign-up, admin and extension hand-off: each test is named for the attack it stops. */

describe("/signin shows only fixed messages", () => {
  it("a phishing sentence in ?error= or ?notice= never reaches the page", async () => {
    const bait = "Your account is locked. Call +1 555 0100 and read us your password";
    for (const param of ["error", "notice"]) {
      const res = await get(`/signin?${new URLSearchParams({ [param]: bait })}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toContain("Call +1 555 0100");
      expect(html).not.toMatch(/role="alert"[^>]*>[^<]+</);
    }
  });

  it("known codes show their fixed text", async () => {
    expect(await (await get("/signin?error=google_cancelled")).text()).toContain(SIGNIN_ERRORS.google_cancelled);
    expect(await (await get("/signin?notice=already_confirmed")).text()).toContain(SIGNIN_NOTICES.already_confirmed);
    // Inherited keys are not codes.
    expect(await (await get("/signin?error=constructor")).text()).not.toContain("function Object");
  });
});

describe("per-IP limits count an IPv6 /64 as one caller", () => {
  it("sign-ups from 21 addresses of one /64 hit the per-IP budget (20 an hour)", async () => {
    // The budget is counted in fixed clock hours: 21 sign-ups that straddle the hour's turn count in two windows.
    // Start after the turn when it is near.
    const toNextHour = 3_600_000 - (Date.now() % 3_600_000);
    if (toNextHour < 35_000) await new Promise((resolve) => setTimeout(resolve, toNextHour + 100));
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await post(
        "/signup",
        {
          fullName: "Six Four",
          email: `v6-${i}@example.com`,
          password: "a long enough passphrase 64",
          confirmPassword: "a long enough passphrase 64",
        },
        { ip: `2001:db8:64:64::${(i + 1).toString(16)}` },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20)).not.toContain(429);
    expect(statuses[20]).toBe(429);
  }, 80_000);
});

describe("admins acting on admins", () => {
  const ADMIN_PASSWORD = "admin rights passphrase 1";
  const admin = async (email: string) => {
    const id = await insertUser({ email, password: ADMIN_PASSWORD, role: "admin" });
    return { id, cookie: await signIn(email, ADMIN_PASSWORD) };
  };
  const roleOf = async (id: string) =>
    (await env.DB.prepare("SELECT role, status FROM users WHERE id = ?").bind(id).first()) as {
      role: string;
      status: string;
    };

  it("a plain admin cannot ban, demote or sign out another admin; an owner can", async () => {
    const rogue = await admin("rogue@example.com");
    const victim = await admin("victim-admin@example.com");
    const victimPage = await exports.default.fetch(
      new Request("http://localhost/admin/realtime", { headers: { Upgrade: "websocket", Cookie: victim.cookie } }),
    );
    victimPage.webSocket?.accept();
    for (const intent of ["ban", "signout"]) {
      const res = await post("/admin/users", { intent, userId: victim.id }, { cookie: rogue.cookie });
      expect(res.status).toBe(403);
    }
    const demote = await post(
      "/admin/users",
      {
        intent: "edit",
        userId: victim.id,
        fullName: "Victim",
        role: "user",
        plan: "Free",
        credits: "100",
        shownCredits: "100",
        key: "demote-key-1",
        currentPassword: ADMIN_PASSWORD,
      },
      { cookie: rogue.cookie },
    );
    expect(demote.status).toBe(403);
    expect(await roleOf(victim.id)).toMatchObject({ role: "admin", status: "offline" });
    expect(await countRows("SELECT count(*) n FROM sessions WHERE user_id = ?", victim.id)).toBe(1);
    const owner = await admin("owner@example.com");
    expectNotice(await post("/admin/users", { intent: "ban", userId: victim.id }, { cookie: owner.cookie }), "banned");
    expect(await roleOf(victim.id)).toMatchObject({ status: "Banned" });
  });

  it("two admins demoting each other at the same moment leave one active admin", async () => {
    await env.DB.prepare("UPDATE users SET role = 'user' WHERE role = 'admin'").run();
    const a = await insertUser({ email: "duel-a@example.com", role: "admin" });
    const b = await insertUser({ email: "duel-b@example.com", role: "admin" });
    await Promise.all([writeRole(db, a, "user"), writeRole(db, b, "user")]);
    expect(await countRows("SELECT count(*) n FROM users WHERE role = 'admin' AND status != 'Banned'")).toBe(1);
  });

  it("a stolen admin cookie alone cannot change credits or roles: the password is asked again (10 minutes)", async () => {
    const thief = await admin("stepup@example.com");
    const userId = await insertUser({ email: "stepup-target@example.com", credits: 100 });
    const edit = (credits: string, currentPassword?: string, shownCredits = "100") =>
      post(
        "/admin/users",
        {
          intent: "edit",
          userId,
          fullName: "Target",
          role: "user",
          plan: "Free",
          credits,
          shownCredits,
          reason: "test",
          key: `stepup-${credits}`,
          ...(currentPassword === undefined ? {} : { currentPassword }),
        },
        { cookie: thief.cookie },
      );
    expect((await edit("999999")).status).toBe(401);
    expect((await edit("999999", "not the password")).status).toBe(401);
    expect(await countRows("SELECT credits n FROM users WHERE id = ?", userId)).toBe(100);
    expect((await edit("150", ADMIN_PASSWORD)).status).toBe(302);
    // Within ten minutes the same session needs no password again.
    expect((await edit("160", undefined, "150")).status).toBe(302);
    expect(await countRows("SELECT credits n FROM users WHERE id = ?", userId)).toBe(160);
    await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE user_id = ?")
      .bind(Date.now() - 11 * 60 * 1000, thief.id)
      .run();
    expect((await edit("170", undefined, "160")).status).toBe(401);
  });
});

describe("the extension id is an allow-list, not a free-text field", () => {
  it("an id not listed in EXTENSION_IDS is refused even with the password, and a stored one is never used", async () => {
    const ADMIN_PASSWORD = "extension ids passphrase 1";
    await insertUser({ email: "ext-admin@example.com", password: ADMIN_PASSWORD, role: "admin" });
    const cookie = await signIn("ext-admin@example.com", ADMIN_PASSWORD);
    const attacker = "ppppppppppppppppppppppppppppppppp".slice(0, 32);
    const res = await post(
      "/admin/settings",
      { intent: "extension", extensionId: attacker, currentPassword: ADMIN_PASSWORD },
      { cookie },
    );
    expect(res.status).toBe(400);
    // Without the password, even an allowed id is not saved.
    const noStepUp = await post(
      "/admin/settings",
      { intent: "extension", extensionId: "abcdefghijklmnopabcdefghijklmnop" },
      { cookie },
    );
    expect(noStepUp.status).toBe(401);
    // A row written behind the screen's back (an old value, a SQL console) is not where tokens go.
    await env.DB.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('extension_id', ?)")
      .bind(attacker)
      .run();
    const dashboard = await get("/dashboard", { cookie });
    expect(await dashboard.text()).not.toContain(attacker);
  });
});

describe("lockout counts per account and per device", () => {
  it("ten wrong guesses from strangers slow strangers down but never lock out the owner's own browser", async () => {
    const OWNER_PASSWORD = "owner lockout passphrase 1";
    await insertUser({ email: "locked-owner@example.com", password: OWNER_PASSWORD });
    const first = await post("/signin", { email: "locked-owner@example.com", password: OWNER_PASSWORD });
    expect(first.status).toBe(302);
    const device = first.headers
      .getSetCookie()
      .find((c) => c.startsWith("clipcut_device="))
      ?.split(";")[0];
    expect(device).toBeTruthy();
    const guesses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await post(
        "/signin",
        { email: "locked-owner@example.com", password: `wrong guess ${i}` },
        { ip: `198.51.100.${i + 1}` },
      );
      guesses.push(res.status);
    }
    expect(guesses.at(-1)).toBe(429);
    // A stranger with the right password is slowed down too (it could be a guess that happens to be right)...
    const stranger = await post("/signin", { email: "locked-owner@example.com", password: OWNER_PASSWORD });
    expect(stranger.status).toBe(429);
    // ...but the owner's browser, which has signed in before, goes through.
    const owner = await post(
      "/signin",
      { email: "locked-owner@example.com", password: OWNER_PASSWORD },
      { cookie: device, ip: "203.0.113.9" },
    );
    expect(owner.status).toBe(302);
  });
});
