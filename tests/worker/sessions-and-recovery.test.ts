import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { action as forgotPassword } from "~/routes/_auth.forgot-password";
import { findOrCreateGoogleUser, GoogleSignInError } from "~/services/google.server";
import { sha256Hex } from "~/utils/crypto";
import { redactUrl } from "~/utils/redact";
import { pruneAuthState } from "../../workers/scheduled";
import { countRows, get, insertUser, outbox, post, signIn } from "./helpers";

const PASSWORD = "hardening passphrase";
const db = getDb(env.DB);
const DAY = 24 * 60 * 60 * 1000;

const sessionIdOf = async (cookie: string) => sha256Hex(cookie.split("=")[1] ?? "");
const lastActive = async (id: string) =>
  (await env.DB.prepare("SELECT last_active_at t FROM sessions WHERE id = ?").bind(id).first<{ t: number }>())?.t;

describe("sessions: idle timeout and the sessions list", () => {
  it("a session unused for 7 days ends, even inside its 30-day lifetime", async () => {
    await insertUser({ email: "idle@example.com", password: PASSWORD });
    const cookie = await signIn("idle@example.com", PASSWORD);
    expect((await get("/dashboard", { cookie })).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET last_active_at = ?")
      .bind(Date.now() - 8 * DAY)
      .run();
    const res = await get("/dashboard", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/signin/);
  });

  it("reading pages writes 'last used' at most once an hour per session", async () => {
    await insertUser({ email: "touch@example.com", password: PASSWORD });
    const cookie = await signIn("touch@example.com", PASSWORD);
    const id = await sessionIdOf(cookie);
    const recent = Date.now() - 10 * 60 * 1000;
    await env.DB.prepare("UPDATE sessions SET last_active_at = ? WHERE id = ?").bind(recent, id).run();
    for (let i = 0; i < 3; i++) await get("/dashboard", { cookie });
    expect(await lastActive(id)).toBe(recent);
    const old = Date.now() - 2 * 60 * 60 * 1000;
    await env.DB.prepare("UPDATE sessions SET last_active_at = ? WHERE id = ?").bind(old, id).run();
    await get("/dashboard", { cookie });
    await vi.waitFor(async () => expect(await lastActive(id)).toBeGreaterThan(old));
  });

  it("/account lists where you're signed in, and signs out one session or every other one", async () => {
    await insertUser({ email: "many@example.com", password: PASSWORD });
    const here = await signIn("many@example.com", PASSWORD);
    const laptop = await signIn("many@example.com", PASSWORD, "198.51.100.20");
    const phone = await signIn("many@example.com", PASSWORD, "198.51.100.21");
    const page = await (await get("/account", { cookie: here })).text();
    expect(page).toContain("Where you&#x27;re signed in");
    expect(page).toContain("This browser");
    expect(page).toContain("Sign out everywhere else");

    // Someone else's session id changes nothing.
    await insertUser({ email: "stranger@example.com", password: PASSWORD });
    const stranger = await signIn("stranger@example.com", PASSWORD);
    await post("/account/sessions", { intent: "revoke", sessionId: await sessionIdOf(laptop) }, { cookie: stranger });
    expect((await get("/dashboard", { cookie: laptop })).status).toBe(200);

    const one = await post(
      "/account/sessions",
      { intent: "revoke", sessionId: await sessionIdOf(laptop) },
      { cookie: here },
    );
    expect(one.headers.get("Location")).toBe("/account");
    expect((await get("/dashboard", { cookie: laptop })).status).toBe(302);
    expect((await get("/dashboard", { cookie: phone })).status).toBe(200);

    expect((await post("/api/v1/token", {}, { cookie: here })).status).toBe(201);
    expect((await post("/api/v1/token", {}, { cookie: phone })).status).toBe(201);
    await post("/account/sessions", { intent: "others" }, { cookie: here });
    expect((await get("/dashboard", { cookie: phone })).status).toBe(302);
    expect((await get("/dashboard", { cookie: here })).status).toBe(200);
    // This browser's extension token survives; the phone's does not.
    expect(
      await countRows(
        "SELECT count(*) n FROM api_tokens WHERE revoked_at IS NULL AND session_id = ?",
        await sessionIdOf(here),
      ),
    ).toBe(1);
    expect(await countRows("SELECT count(*) n FROM api_tokens WHERE revoked_at IS NULL")).toBe(1);
  });
});

describe("rate limiting the current password on /account", () => {
  it("a stolen session cannot guess the password faster than sign-in allows", async () => {
    await insertUser({ email: "guess-acct@example.com", password: PASSWORD });
    const cookie = await signIn("guess-acct@example.com", PASSWORD);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(
          "/account",
          {
            intent: "password",
            currentPassword: `wrong ${i}`,
            newPassword: "a brand new passphrase",
            confirmPassword: "a brand new passphrase",
          },
          { cookie },
        ),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
  });
});

describe("Google linking", () => {
  it("never overwrites a different Google identity already linked to the address", async () => {
    const userId = await insertUser({ email: "linked@example.com", password: PASSWORD });
    await env.DB.prepare("UPDATE users SET google_sub = 'google-original' WHERE id = ?").bind(userId).run();
    await expect(
      findOrCreateGoogleUser(db, { sub: "google-other", email: "linked@example.com", email_verified: true }),
    ).rejects.toBeInstanceOf(GoogleSignInError);
    expect(
      await env.DB.prepare("SELECT google_sub g FROM users WHERE id = ?").bind(userId).first<{ g: string }>(),
    ).toEqual({ g: "google-original" });
    const same = await findOrCreateGoogleUser(db, {
      sub: "google-original",
      email: "linked@example.com",
      email_verified: true,
    });
    expect(same.user.id).toBe(userId);
  });

  it("an account that cannot be written sends the creator to /signin with “Failed to create your profile…”", async () => {
    // A real D1 failure on the insert (not a unique-key race, which finds the other callback's account instead).
    await env.DB.prepare(
      "CREATE TRIGGER refuse_users BEFORE INSERT ON users BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    ).run();
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const failed = await findOrCreateGoogleUser(db, {
        sub: "google-new",
        email: "new-google@example.com",
        email_verified: true,
      }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(GoogleSignInError);
      expect((failed as GoogleSignInError).code).toBe("profile_create_failed");
    } finally {
      quiet.mockRestore();
      await env.DB.prepare("DROP TRIGGER refuse_users").run();
    }
    expect(await countRows("SELECT COUNT(*) n FROM users WHERE email = ?", "new-google@example.com")).toBe(0);
    const page = await (await get("/signin?error=profile_create_failed")).text();
    expect(page).toContain("Failed to create your profile. Please contact support.");
  });
});

describe("forgot password", () => {
  it("answers the same, just as fast, when the account exists and the e-mail provider fails", async () => {
    await insertUser({ email: "exists@example.com", password: PASSWORD });
    const failing = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("down", { status: 503 }));
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const production = {
      ...env,
      APP_MODE: "production",
      EMAIL_API_URL: "https://mail.example/send",
      EMAIL_API_KEY: "k",
      EMAIL_FROM: "ClipCut <no-reply@clipcut.example>",
    } as AppEnv;
    try {
      const answers = [];
      for (const email of ["exists@example.com", "nobody@example.com"]) {
        const ctx = createExecutionContext();
        const request = new Request("https://clipcut.example/forgot-password", {
          method: "POST",
          body: new URLSearchParams({ email }),
          headers: { "CF-Connecting-IP": `192.0.2.${answers.length + 50}` },
        });
        const result = await forgotPassword({
          request,
          params: {},
          context: { cloudflare: { env: production, ctx }, nonce: "" },
        } as Parameters<typeof forgotPassword>[0]);
        answers.push(JSON.stringify(result));
        await waitOnExecutionContext(ctx);
      }
      expect(answers[0]).toBe(answers[1]);
      expect(answers[0]).toContain("If an account with that email exists");
      expect(failing).toHaveBeenCalledTimes(1); // the send was attempted, after the answer, and its failure logged
      expect(errors.mock.calls.some((call) => String(call[0]).includes("reset e-mail failed"))).toBe(true);
    } finally {
      failing.mockRestore();
      errors.mockRestore();
    }
  });
});

describe("logs and e-mails", () => {
  it("logged URLs never hold a reset or verification token", () => {
    expect(redactUrl("https://clipcut.example/reset-password/AbC_123-xyz?x=1")).toBe(
      "https://clipcut.example/reset-password/[redacted]?x=1",
    );
    expect(redactUrl("http://localhost/verify-email/tok3n.data")).toBe("http://localhost/verify-email/[redacted]");
    expect(redactUrl("http://localhost/dashboard")).toBe("http://localhost/dashboard");
  });

  it("the verification e-mail does not carry the name (and its URLs) typed at sign-up", async () => {
    const fullName = "Claim your prize at https://evil.example/win";
    await post("/signup", {
      fullName,
      email: "named@example.com",
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    const mail = (await outbox()).find((m) => m.to === "named@example.com") as
      { text: string; html: string; links: string[] } | undefined;
    expect(mail).toBeTruthy();
    expect(mail?.text).not.toContain("evil.example");
    expect(mail?.html).not.toContain("evil.example");
    expect(mail?.links.every((l) => l.startsWith("http://localhost/verify-email/"))).toBe(true);
  });
});

describe("housekeeping", () => {
  it("the scheduled run deletes expired and idle sessions, dead tokens and closed rate-limit windows", async () => {
    const userId = await insertUser({ email: "prune@example.com", password: PASSWORD });
    const live = await signIn("prune@example.com", PASSWORD);
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at, last_active_at) VALUES ('expired', ?, ?, ?)").bind(
        userId,
        now - 1000,
        now - 2000,
      ),
      env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at, last_active_at) VALUES ('idle', ?, ?, ?)").bind(
        userId,
        now + 20 * DAY,
        now - 8 * DAY,
      ),
      env.DB.prepare(
        "INSERT INTO api_tokens (id, user_id, token_hash, expires_at, revoked_at) VALUES ('t1', ?, 'h1', ?, NULL), ('t2', ?, 'h2', ?, ?)",
      ).bind(userId, now - 1000, userId, now + DAY, now - 2 * DAY),
      env.DB.prepare(
        "INSERT INTO email_tokens (id, user_id, purpose, token_hash, expires_at) VALUES ('e1', ?, 'reset', 'eh1', ?)",
      ).bind(userId, now - 1000),
      env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES ('old:x', ?, 3), ('new:x', ?, 1)").bind(
        now - 3 * 60 * 60 * 1000,
        now,
      ),
    ]);
    const pruned = await pruneAuthState(env, now);
    expect(pruned.sessions).toBeGreaterThanOrEqual(2);
    expect(await countRows("SELECT count(*) n FROM sessions WHERE user_id = ?", userId)).toBe(1);
    expect(await countRows("SELECT count(*) n FROM api_tokens WHERE id IN ('t1', 't2')")).toBe(0);
    expect(await countRows("SELECT count(*) n FROM email_tokens WHERE id = 'e1'")).toBe(0);
    expect(await countRows("SELECT count(*) n FROM rate_limits WHERE key = 'old:x'")).toBe(0);
    expect((await get("/dashboard", { cookie: live })).status).toBe(200);
    expect(await countRows("SELECT count(*) n FROM rate_limits WHERE key = 'new:x'")).toBe(1);
  });
});
