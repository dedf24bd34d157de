import { exports } from "cloudflare:workers";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { hashPassword } from "~/services/password.server";
import { LOCAL_SESSION_COOKIE, SESSION_TTL_MS } from "~/services/session-cookie.server";
import { randomToken, sha256Hex } from "~/utils/crypto";

export const ORIGIN = "http://localhost";

export interface PostOptions {
  cookie?: string;
  origin?: string | null;
  ip?: string;
  base?: string;
}

export function get(path: string, { cookie, base = ORIGIN }: { cookie?: string; base?: string } = {}) {
  return exports.default.fetch(
    new Request(`${base}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" }),
  );
}

export function post(
  path: string,
  fields: Record<string, string>,
  { cookie, origin, ip = "192.0.2.1", base = ORIGIN }: PostOptions = {},
) {
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    "CF-Connecting-IP": ip,
    Host: new URL(base).host,
  };
  if (origin !== null) headers.Origin = origin ?? base;
  if (cookie) headers.Cookie = cookie;
  return exports.default.fetch(
    new Request(`${base}${path}`, { method: "POST", body: new URLSearchParams(fields), headers, redirect: "manual" }),
  );
}

/** An admin form that succeeded: back to its list with the notice in the URL (not to /dashboard or /signin). */
export function expectNotice(response: Response, notice: string) {
  expect(response.status, "an admin action's answer").toBe(302);
  expect(new URL(response.headers.get("Location") ?? "", ORIGIN).searchParams.get("notice")).toBe(notice);
}

/** "name=value" of the session cookie a response sets. */
export function sessionCookieOf(response: Response): string | null {
  const setCookie = response.headers.getSetCookie().find((c) => /clipcut_session=/.test(c));
  return setCookie ? (setCookie.split(";")[0] ?? null) : null;
}

/** HTML with per-response nonces blanked, so two responses can be compared. */
export async function stableBody(response: Response): Promise<string> {
  return (await response.text()).replace(/nonce="[^"]*"/g, 'nonce=""');
}

export async function outbox(): Promise<{ to: string; subject: string; text: string; links: string[] }[]> {
  const res = await get("/dev/outbox");
  const body = (await res.json()) as { messages: { to: string; subject: string; text: string; links: string[] }[] };
  return body.messages;
}

export async function insertUser(opts: {
  email: string;
  password?: string;
  role?: "user" | "admin";
  verified?: boolean;
  status?: "online" | "offline" | "Banned";
  credits?: number;
  plan?: string;
}): Promise<string> {
  const id = crypto.randomUUID();
  const credits = opts.credits ?? 100;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO users (id, email, password_hash, full_name, role, plan, credits, status, email_verified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).bind(
      id,
      opts.email,
      opts.password ? await hashPassword(opts.password) : null,
      "Test Person",
      opts.role ?? "user",
      opts.plan ?? "Free",
      credits,
      opts.status ?? "offline",
      opts.verified === false ? null : Date.now(),
    ),
    env.DB.prepare(
      "INSERT INTO credit_ledger (id, user_id, delta, balance_after, kind, description, idempotency_key, request_hash) VALUES (?, ?, ?, ?, 'signup', 'Welcome credits', 'signup', 'signup')",
    ).bind(crypto.randomUUID(), id, credits, credits),
  ]);
  return id;
}

/** Signs in through the real form and returns the session cookie. */
export async function signIn(email: string, password: string, ip?: string): Promise<string> {
  const res = await post("/signin", { email, password }, { ip });
  const cookie = sessionCookieOf(res);
  if (res.status !== 302 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

/**
 * A signed-in browser's session cookie ("name=value") for `userId`, its session written straight to D1 as sign-in
 * writes it. For fixtures whose test is not about signing in: the form's password check is a PBKDF2 per account,
 * seconds on a loaded machine.
 */
export async function sessionFor(userId: string): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO sessions (id, user_id, created_at, expires_at, last_active_at) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(await sha256Hex(token), userId, now, now + SESSION_TTL_MS, now)
    .run();
  return `${LOCAL_SESSION_COOKIE}=${token}`;
}

export async function countRows(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A session of `adminId` whose password was confirmed just now (step-up), as the ledger's admin edits need. */
export async function steppedUpSession(adminId: string): Promise<{ sessionId: string }> {
  const sessionId = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, step_up_at) VALUES (?, ?, ?, ?, ?)")
    .bind(sessionId, adminId, now, now + 3_600_000, now)
    .run();
  return { sessionId };
}

/** An API v1 call with the extension's token: GET without a body, POST (with a fresh idempotency key) with one. */
export function apiAs(token: string, path: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(
    new Request(`http://localhost${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        "Idempotency-Key": crypto.randomUUID(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}
