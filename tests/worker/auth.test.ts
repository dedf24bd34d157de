import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hitRateLimit } from "~/services/rate-limit.server";
import { countRows, get, insertUser, outbox, post, sessionCookieOf, signIn, stableBody, expectNotice } from "./helpers";

const PASSWORD = "a long enough passphrase";

describe("sign-up and e-mail verification", () => {
  it("creates a Free user with 100 credits as one ledger row, and sends a verification link", async () => {
    const res = await post("/signup", {
      fullName: "Ada Lovelace",
      email: "Ada@Example.com",
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Sign-up successful! Please check your email to verify your account.");
    const user = await env.DB.prepare("SELECT * FROM users WHERE email = 'ada@example.com'").first<
      Record<string, unknown>
    >();
    expect(user).toMatchObject({
      full_name: "Ada Lovelace",
      plan: "Free",
      role: "user",
      credits: 100,
      email_verified_at: null,
    });
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE user_id = ?", user?.id)).toBe(1);
    // The password waits with the confirmation link until the address is confirmed.
    expect(user?.password_hash).toBeNull();
    const pending = await env.DB.prepare("SELECT password_hash FROM email_tokens WHERE user_id = ?")
      .bind(user?.id)
      .first<{ password_hash: string }>();
    expect(String(pending?.password_hash)).toMatch(/^pbkdf2-sha256\$100000\$/);
    const signupBrowser =
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith("clipcut_signup="))
        ?.split(";")[0] ?? "";
    expect(signupBrowser).toMatch(/^clipcut_signup=[\w-]{43}$/);
    const [mail] = await outbox();
    expect(mail?.to).toBe("ada@example.com");
    const link = new URL(mail?.links[0] ?? "");
    expect(link.pathname).toMatch(/^\/verify-email\/[\w-]{40,}$/);
    // Only the hash of the link's token is stored.
    const token = link.pathname.split("/").pop() ?? "";
    expect(await countRows("SELECT count(*) n FROM email_tokens WHERE token_hash = ?", token)).toBe(0);

    // Opening the link only shows the confirmation page; the browser that signed up confirms with a POST.
    expect((await get(link.pathname, { cookie: signupBrowser })).status).toBe(200);
    const verified = await post(link.pathname, {}, { cookie: signupBrowser });
    expect(verified.status).toBe(302);
    expect(verified.headers.get("Location")).toBe("/dashboard");
    const cookie = sessionCookieOf(verified);
    expect(cookie).toBeTruthy();
    expect((await get("/dashboard", { cookie: cookie ?? "" })).status).toBe(200);
    expect((await signIn("ada@example.com", PASSWORD)).length).toBeGreaterThan(0);
    // The link works once.
    const again = await post(link.pathname, {}, { cookie: signupBrowser });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("invalid or has expired");
  });

  it("refuses mismatched, short and common passwords without creating anyone", async () => {
    const base = { fullName: "Bo", email: "bo@example.com" };
    const mismatch = await post("/signup", { ...base, password: PASSWORD, confirmPassword: `${PASSWORD}!` });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match.");
    const common = await post("/signup", { ...base, password: "Password1234", confirmPassword: "Password1234" });
    expect(await common.text()).toContain("too common");
    const short = await post("/signup", { ...base, password: "abc", confirmPassword: "abc" });
    expect(await short.text()).toContain("at least 12 characters");
    expect(await countRows("SELECT count(*) n FROM users WHERE email = 'bo@example.com'")).toBe(0);
  });

  it("answers an existing address with the spec's message and creates no duplicate", async () => {
    await insertUser({ email: "taken@example.com", password: PASSWORD });
    const res = await post("/signup", {
      fullName: "X",
      email: "TAKEN@example.com",
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(
      "This email is already registered. Please check your inbox for the confirmation link.",
    );
    expect(await countRows("SELECT count(*) n FROM users WHERE email = 'taken@example.com'")).toBe(1);
  });

  it("keeps unverified users out until they confirm, and sends them a fresh link", async () => {
    await post("/signup", { fullName: "New", email: "new@example.com", password: PASSWORD, confirmPassword: PASSWORD });
    const res = await post("/signin", { email: "new@example.com", password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Email not confirmed");
    expect(sessionCookieOf(res)).toBeNull();
    expect((await outbox()).filter((m) => m.to === "new@example.com")).toHaveLength(2);
  });
});

describe("sign-in, sessions and cookies", () => {
  it("sets an HttpOnly, SameSite=Lax cookie with a 256-bit random id on plain-http localhost", async () => {
    await insertUser({ email: "c@example.com", password: PASSWORD });
    const res = await post("/signin", { email: "c@example.com", password: PASSWORD });
    expect(res.status).toBe(302);
    const header = res.headers.getSetCookie().find((c) => c.startsWith("clipcut_session=")) ?? "";
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).not.toMatch(/Secure/);
    const value = header.split(";")[0]?.split("=")[1] ?? "";
    expect(value).toMatch(/^[\w-]{43}$/);
    // The database keeps only a hash of it.
    expect(await countRows("SELECT count(*) n FROM sessions WHERE id = ?", value)).toBe(0);
  });

  it("uses a Secure __Host- cookie over https", async () => {
    await insertUser({ email: "s@example.com", password: PASSWORD });
    const res = await post("/signin", { email: "s@example.com", password: PASSWORD }, { base: "https://localhost" });
    const header = res.headers.getSetCookie().find((c) => c.startsWith("__Host-clipcut_session=")) ?? "";
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Domain=/);
  });

  it("gives the same answer for an unknown e-mail and a wrong password", async () => {
    await insertUser({ email: "known@example.com", password: PASSWORD });
    const unknown = await post("/signin", { email: "nobody@example.com", password: PASSWORD }, { ip: "192.0.2.50" });
    const wrong = await post(
      "/signin",
      { email: "known@example.com", password: "wrong password!" },
      { ip: "192.0.2.50" },
    );
    expect(unknown.status).toBe(wrong.status);
    expect(await stableBody(unknown)).toBe(await stableBody(wrong));
  });

  it("answers a sign-in sent with an empty field (a browser that skips its own checks) with the spec's message", async () => {
    for (const form of [
      { email: "", password: "" },
      { email: "someone@example.com", password: "" },
      { email: "", password: PASSWORD },
    ]) {
      const res = await post("/signin", form, { ip: "192.0.2.60" });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Please enter your email and password.");
    }
  });

  it("rotates the session at sign-in and revokes it at sign-out", async () => {
    await insertUser({ email: "r@example.com", password: PASSWORD });
    const first = await signIn("r@example.com", PASSWORD);
    const second = sessionCookieOf(
      await post("/signin", { email: "r@example.com", password: PASSWORD }, { cookie: first }),
    );
    expect(second).not.toBe(first);
    expect((await get("/dashboard", { cookie: first })).status).toBe(302); // the old id is gone
    expect((await get("/dashboard", { cookie: second ?? "" })).status).toBe(200);
    const out = await post("/signout", {}, { cookie: second ?? "" });
    expect(out.headers.get("Location")).toBe("/signin");
    expect((await get("/dashboard", { cookie: second ?? "" })).status).toBe(302);
  });

  it("refuses a POST from a foreign origin and changes nothing", async () => {
    const id = await insertUser({ email: "o@example.com", password: PASSWORD });
    const cookie = await signIn("o@example.com", PASSWORD);
    const res = await post(
      "/account",
      { intent: "profile", fullName: "Hacked" },
      { cookie, origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    const row = await env.DB.prepare("SELECT full_name FROM users WHERE id = ?").bind(id).first();
    expect(row).toEqual({ full_name: "Test Person" });
    const same = await post("/account", { intent: "profile", fullName: "Renamed" }, { cookie });
    expect(same.status).toBe(200);
  });
});

describe("rate limits", () => {
  it("locks an account after 10 failed sign-ins with 429 and Retry-After, even with the right password", async () => {
    await insertUser({ email: "l@example.com", password: PASSWORD });
    for (let i = 0; i < 10; i++) {
      expect(
        (await post("/signin", { email: "l@example.com", password: `nope-${i}-xxxx` }, { ip: `198.18.0.${i}` })).status,
      ).toBe(400);
    }
    const locked = await post("/signin", { email: "l@example.com", password: PASSWORD }, { ip: "198.18.1.1" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await locked.text()).toContain("Too many attempts");
  });

  it("limits reset e-mails per account to 3 an hour", async () => {
    await insertUser({ email: "rl@example.com", password: PASSWORD });
    for (let i = 0; i < 3; i++) expect((await post("/forgot-password", { email: "rl@example.com" })).status).toBe(200);
    const res = await post("/forgot-password", { email: "rl@example.com" });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBeTruthy();
  });

  it("opens again when the window has passed", async () => {
    const rule = { name: "test-window", limit: 2, windowMs: 60_000 };
    // An injected clock: three hits inside one window, then one in the next window.
    const windowStart = Math.floor(Date.now() / rule.windowMs) * rule.windowMs;
    expect((await hitRateLimit(env.DB, rule, "x", windowStart + 1)).ok).toBe(true);
    expect((await hitRateLimit(env.DB, rule, "x", windowStart + 2)).ok).toBe(true);
    const blocked = await hitRateLimit(env.DB, rule, "x", windowStart + 30_000);
    expect(blocked).toEqual({ ok: false, retryAfterSeconds: 30 });
    expect((await hitRateLimit(env.DB, rule, "x", windowStart + rule.windowMs)).ok).toBe(true);
    expect((await hitRateLimit(env.DB, rule, "y", windowStart + 59_999)).ok).toBe(true);
  });
});

describe("password reset", () => {
  it("/signin links “Forgot password?” to /forgot-password, which serves the reset form", async () => {
    const signin = await get("/signin");
    expect(signin.status).toBe(200);
    const html = await signin.text();
    // Inside the sign-in form, so a keyboard user meets it right after the password.
    const form = [...html.matchAll(/<form\b[\s\S]*?<\/form>/g)]
      .map((m) => m[0])
      .find((f) => f.includes('name="password"'));
    expect(form).toMatch(/<a[^>]*href="\/forgot-password"[^>]*>Forgot password\?<\/a>/);
    const forgot = await get("/forgot-password");
    expect(forgot.status).toBe(200);
    const page = await forgot.text();
    expect(page).toContain("Reset your password");
    expect(page).toMatch(/<input[^>]*name="email"/);
  });

  it("answers identically for known and unknown e-mails and says so when empty", async () => {
    await insertUser({ email: "k@example.com", password: PASSWORD });
    const known = await post("/forgot-password", { email: "k@example.com" }, { ip: "192.0.2.60" });
    const unknown = await post("/forgot-password", { email: "u@example.com" }, { ip: "192.0.2.60" });
    expect(known.status).toBe(unknown.status);
    const body = await stableBody(known);
    expect(body).toBe(await stableBody(unknown));
    expect(body).toContain("If an account with that email exists, we have sent password reset instructions.");
    const empty = await post("/forgot-password", { email: "" });
    expect(await empty.text()).toContain("Please enter your email address.");
  });

  it("sets a new password once per link and ends every other session", async () => {
    await insertUser({ email: "p@example.com", password: PASSWORD });
    const oldSession = await signIn("p@example.com", PASSWORD);
    await post("/forgot-password", { email: "p@example.com" });
    const link = (await outbox()).find((m) => m.to === "p@example.com")?.links[0] ?? "";
    const path = new URL(link).pathname;
    expect(path).toMatch(/^\/reset-password\//);
    const stored = await env.DB.prepare(
      "SELECT expires_at - created_at AS ttl FROM email_tokens WHERE purpose = 'reset'",
    ).first<{ ttl: number }>();
    expect(stored?.ttl).toBeLessThanOrEqual(60 * 60 * 1000);

    const done = await post(path, { password: "a brand new passphrase", confirmPassword: "a brand new passphrase" });
    expect(done.status).toBe(302);
    expect(sessionCookieOf(done)).toBeTruthy();
    expect((await get("/dashboard", { cookie: oldSession })).status).toBe(302);
    const reuse = await post(path, { password: "yet another passphrase", confirmPassword: "yet another passphrase" });
    expect(reuse.status).toBe(400);
    expect(await reuse.text()).toContain("invalid or has expired");
    await signIn("p@example.com", "a brand new passphrase");
    expect((await post("/signin", { email: "p@example.com", password: PASSWORD })).status).toBe(400);
  });
});

describe("guards, ban and extension tokens", () => {
  it("sends anonymous visitors of every signed-in page to /signin with a way back", async () => {
    for (const path of [
      "/dashboard",
      "/credits",
      "/billing/plan",
      "/billing",
      "/account",
      "/view-clip/abc",
      "/plugin-connect",
      "/admin",
      "/admin/users",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toBe(`/signin?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it("sends a signed-in non-admin away from /admin and logs the attempt; lets an admin in", async () => {
    const userId = await insertUser({ email: "nu@example.com", password: PASSWORD });
    const cookie = await signIn("nu@example.com", PASSWORD);
    const res = await get("/admin/users", { cookie });
    expect(res.headers.get("Location")).toBe("/dashboard");
    expect(
      await countRows("SELECT count(*) n FROM audit_log WHERE action = 'admin.access_denied' AND actor_id = ?", userId),
    ).toBe(1);
    const ban = await post("/admin/users", { intent: "ban", userId }, { cookie });
    expect(ban.status).toBe(302);
    expect(await countRows("SELECT count(*) n FROM users WHERE status = 'Banned'")).toBe(0);
    await insertUser({ email: "ad@example.com", password: PASSWORD, role: "admin" });
    expect((await get("/admin/users", { cookie: await signIn("ad@example.com", PASSWORD) })).status).toBe(200);
  });

  it("ban ends sessions and tokens at once and refuses sign-in with a clear message", async () => {
    const userId = await insertUser({ email: "b@example.com", password: PASSWORD });
    const cookie = await signIn("b@example.com", PASSWORD);
    const tokenRes = await post("/api/v1/token", {}, { cookie });
    expect(tokenRes.status).toBe(201);
    const { token } = (await tokenRes.json()) as { token: string };
    expect(token).toMatch(/^cc_[\w-]{43}$/);
    expect(await countRows("SELECT count(*) n FROM api_tokens WHERE token_hash = ?", token)).toBe(0);

    await insertUser({ email: "admin2@example.com", password: PASSWORD, role: "admin" });
    const admin = await signIn("admin2@example.com", PASSWORD);
    expectNotice(await post("/admin/users", { intent: "ban", userId }, { cookie: admin }), "banned");
    expect((await get("/dashboard", { cookie })).status).toBe(302);
    expect(await countRows("SELECT count(*) n FROM api_tokens WHERE user_id = ? AND revoked_at IS NULL", userId)).toBe(
      0,
    );
    const refused = await post("/signin", { email: "b@example.com", password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Your account has been banned");
    expect(
      await countRows("SELECT count(*) n FROM audit_log WHERE action = 'admin.user_banned' AND subject_id = ?", userId),
    ).toBe(1);
  });

  it("issues extension tokens only to a signed-in session from our own origin, and kills them at sign-out", async () => {
    expect((await post("/api/v1/token", {})).status).toBe(401);
    await insertUser({ email: "t@example.com", password: PASSWORD });
    const cookie = await signIn("t@example.com", PASSWORD);
    expect((await post("/api/v1/token", {}, { cookie, origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/api/v1/token", {}, { cookie })).status).toBe(201);
    await post("/signout", {}, { cookie });
    expect(await countRows("SELECT count(*) n FROM api_tokens WHERE revoked_at IS NULL")).toBe(0);
  });

  it("writes audit rows for sign-up, sign-in success and failure, sign-out and password change", async () => {
    await post("/signup", { fullName: "Al", email: "al@example.com", password: PASSWORD, confirmPassword: PASSWORD });
    await insertUser({ email: "au@example.com", password: PASSWORD });
    await post("/signin", { email: "au@example.com", password: "wrong password 1" });
    const cookie = await signIn("au@example.com", PASSWORD);
    await post(
      "/account",
      {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: "another fine phrase",
        confirmPassword: "another fine phrase",
      },
      { cookie },
    );
    await post("/signout", {}, { cookie });
    const actions = (await env.DB.prepare("SELECT action FROM audit_log").all<{ action: string }>()).results.map(
      (r) => r.action,
    );
    for (const action of [
      "auth.signup",
      "auth.signin_failed",
      "auth.signin",
      "auth.password_changed",
      "auth.signout",
    ]) {
      expect(actions).toContain(action);
    }
  });
});

describe("My Account", () => {
  it("changes the password only with the current one, with the spec's messages, ending other sessions", async () => {
    await insertUser({ email: "m@example.com", password: PASSWORD });
    const cookie = await signIn("m@example.com", PASSWORD);
    const other = await signIn("m@example.com", PASSWORD, "192.0.2.99");
    const change = (fields: Record<string, string>) => post("/account", { intent: "password", ...fields }, { cookie });
    expect(await (await change({ currentPassword: PASSWORD, newPassword: "", confirmPassword: "" })).text()).toContain(
      "Password cannot be empty.",
    );
    expect(
      await (
        await change({ currentPassword: PASSWORD, newPassword: "one phrase here", confirmPassword: "two phrase here" })
      ).text(),
    ).toContain("Passwords do not match.");
    expect(
      await (
        await change({
          currentPassword: "not it at all",
          newPassword: "good new phrase",
          confirmPassword: "good new phrase",
        })
      ).text(),
    ).toContain("Error: Current password is incorrect.");
    const ok = await change({
      currentPassword: PASSWORD,
      newPassword: "good new phrase",
      confirmPassword: "good new phrase",
    });
    expect(await ok.text()).toContain("Password updated successfully!");
    expect((await get("/dashboard", { cookie })).status).toBe(200);
    expect((await get("/dashboard", { cookie: other })).status).toBe(302);
  });

  it("saves the profile name and the low-credit preference", async () => {
    const id = await insertUser({ email: "pn@example.com", password: PASSWORD });
    const cookie = await signIn("pn@example.com", PASSWORD);
    const saved = await post("/account", { intent: "profile", fullName: "Grace Hopper" }, { cookie });
    expect(await saved.text()).toContain("Profile information saved successfully!");
    const failed = await post("/account", { intent: "profile", fullName: "   " }, { cookie });
    expect(await failed.text()).toContain("Failed to update profile. Please try again.");
    await post("/account", { intent: "alerts", lowCreditAlerts: "off" }, { cookie });
    const row = await env.DB.prepare("SELECT full_name, low_credit_alerts FROM users WHERE id = ?").bind(id).first();
    expect(row).toEqual({ full_name: "Grace Hopper", low_credit_alerts: 0 });
  });
});
