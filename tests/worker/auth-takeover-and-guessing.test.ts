import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, outbox, post, sessionCookieOf, signIn } from "./helpers";

const VICTIM_PASSWORD = "victim's own passphrase";
const ATTACKER_PASSWORD = "attacker knows this one";

const signup = (email: string, password: string, opts: { cookie?: string; ip?: string } = {}) =>
  post("/signup", { fullName: "Someone", email, password, confirmPassword: password }, opts);

/** "clipcut_signup=…" set by a sign-up response: the marker of the browser that signed up. */
const browserOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith("clipcut_signup="))
    ?.split(";")[0] ?? "";

/** Path of the newest confirmation link sent to the address. */
async function latestLink(to: string): Promise<string> {
  const mail = (await outbox()).find((m) => m.to === to && m.subject.startsWith("Confirm"));
  if (!mail?.links[0]) throw new Error(`no confirmation mail for ${to}`);
  return new URL(mail.links[0]).pathname;
}

const verifiedAt = async (email: string) =>
  (await env.DB.prepare("SELECT email_verified_at v FROM users WHERE email = ?").bind(email).first<{ v: number }>())
    ?.v ?? null;

describe("an unverified sign-up cannot be taken over by a second sign-up", () => {
  it("a second sign-up for an unverified address cannot keep the first password", async () => {
    const email = "victim1@example.com";
    expect((await signup(email, ATTACKER_PASSWORD, { ip: "198.51.100.9" })).status).toBe(200);
    const victim = await signup(email, VICTIM_PASSWORD);
    expect(victim.status).toBe(409);
    const confirmed = await post(await latestLink(email), {}, { cookie: browserOf(victim) });
    expect(confirmed.status).toBe(302);
    expect(sessionCookieOf(confirmed)).toBeTruthy();

    const attacker = await post("/signin", { email, password: ATTACKER_PASSWORD }, { ip: "198.51.100.9" });
    expect(attacker.status).toBe(400);
    expect(sessionCookieOf(attacker)).toBeNull();
    expect(await signIn(email, VICTIM_PASSWORD)).toBeTruthy();
  });

  it("the owner opening the first sign-up's link cannot confirm it with a password they did not set", async () => {
    const email = "victim2@example.com";
    await signup(email, ATTACKER_PASSWORD, { ip: "198.51.100.10" });
    const link = await latestLink(email);
    // The owner (another browser, no password of theirs on this link) opens it and presses confirm.
    expect((await get(link)).status).toBe(200);
    const refused = await post(link, {});
    expect(refused.status).toBe(400);
    const guessed = await post(link, { password: VICTIM_PASSWORD });
    expect(guessed.status).toBe(400);
    expect(sessionCookieOf(guessed)).toBeNull();
    expect(await verifiedAt(email)).toBeNull();
    // And the attacker's password is no way in while the address is unconfirmed.
    const attacker = await post("/signin", { email, password: ATTACKER_PASSWORD }, { ip: "198.51.100.10" });
    expect(sessionCookieOf(attacker)).toBeNull();
  });
});

describe("the verification link is not a login link", () => {
  it("opening a verification link (an e-mail scanner) neither uses it up nor signs anyone in", async () => {
    const email = "scanned@example.com";
    const res = await signup(email, VICTIM_PASSWORD);
    const link = await latestLink(email);
    for (let i = 0; i < 3; i++) {
      const scanned = await get(link);
      expect(scanned.status).toBe(200);
      expect(sessionCookieOf(scanned)).toBeNull();
    }
    expect(await verifiedAt(email)).toBeNull();
    const confirmed = await post(link, {}, { cookie: browserOf(res) });
    expect(confirmed.headers.get("Location")).toBe("/dashboard");
    expect(sessionCookieOf(confirmed)).toBeTruthy();
  });

  it("a link sent to someone else's browser does not sign that browser in to the sender's account (login CSRF)", async () => {
    const email = "attacker-own@example.com";
    await signup(email, ATTACKER_PASSWORD, { ip: "198.51.100.11" });
    const link = await latestLink(email);
    // The victim's browser has no sign-up marker and does not know the password.
    const victim = await post(link, {});
    expect(victim.status).toBe(400);
    expect(sessionCookieOf(victim)).toBeNull();
    expect(await verifiedAt(email)).toBeNull();
    const page = await (await get(link)).text();
    expect(page).toContain('type="password"');
    // The owner on another device can confirm with the password they chose.
    const owner = await post(link, { password: ATTACKER_PASSWORD });
    expect(owner.status).toBe(302);
    expect(sessionCookieOf(owner)).toBeTruthy();
    expect(await verifiedAt(email)).not.toBeNull();
  });
});

describe("parallel password guesses are capped", () => {
  it("40 parallel wrong passwords: at most 10 are ever checked, the rest are refused unchecked", async () => {
    const email = "guessed@example.com";
    const confirm = await signup(email, VICTIM_PASSWORD);
    await post(await latestLink(email), {}, { cookie: browserOf(confirm) });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post("/signin", { email, password: `wrong guess number ${i}` }, { ip: `203.0.113.${i + 1}` }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    const right = await post("/signin", { email, password: VICTIM_PASSWORD }, { ip: "203.0.113.99" });
    expect(right.status).toBe(429);
  }, 30_000); // 40 PBKDF2-bound requests: over 5 s on a loaded 2-core machine

  it("right passwords do not use up the limit", async () => {
    const email = "regular@example.com";
    const confirm = await signup(email, VICTIM_PASSWORD);
    await post(await latestLink(email), {}, { cookie: browserOf(confirm) });
    for (let i = 0; i < 12; i++) expect(await signIn(email, VICTIM_PASSWORD)).toBeTruthy();
  });
});
