import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ledger } from "~/services/ledger.server";
import local from "../../workers/local";
import { insertUser, post, signIn } from "./helpers";

/**
 * "Who am I" is the user's ledger's answer: a signed-in page and `/api/v1/me` read plan, balance, limits and team
 * from it, and D1 only for the session (or the token's profile) and the page's own list. Counted here by running
 * the Worker with its D1 binding wrapped, so every statement the Worker itself runs is seen (the ledger objects
 * keep their own binding: their reads are theirs, and a warm ledger answers from memory).
 */
const PASSWORD = "who am i passphrase 1";

type Statement = D1PreparedStatement & { [REAL]?: D1PreparedStatement; [SQL]?: string };
const REAL = Symbol("real");
const SQL = Symbol("sql");

function counted(real: D1Database, log: string[]): D1Database {
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        if (prop === REAL) return target;
        if (prop === SQL) return sql;
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw")
          return (...args: unknown[]) => {
            log.push(sql);
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (prop === "batch")
        return (statements: Statement[]) => {
          for (const s of statements) log.push(s[SQL] ?? "?");
          return target.batch(statements.map((s) => s[REAL] ?? s));
        };
      if (prop === "exec")
        return (sql: string) => {
          log.push(sql);
          return target.exec(sql);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** One request through the local Worker with its D1 statements logged. */
async function fetchCounting(path: string, headers: Record<string, string>): Promise<{ res: Response; sql: string[] }> {
  const sql: string[] = [];
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, { headers, redirect: "manual" });
  const res = await local.fetch(request as never, { ...env, DB: counted(env.DB, sql) }, ctx);
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  return { res: new Response(body, res), sql };
}

async function extensionToken(cookie: string): Promise<string> {
  const res = await post("/api/v1/token", {}, { cookie });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

describe("the ledger answers who the signed-in person is", () => {
  it("/api/v1/me reads only the profile from D1: plan, credits, limits and team are the ledger's", async () => {
    await insertUser({ email: "me-count@example.com", password: PASSWORD, credits: 70 });
    const token = await extensionToken(await signIn("me-count@example.com", PASSWORD));
    const headers = { Authorization: `Bearer ${token}` };
    await fetchCounting("/api/v1/me", headers); // the token's owner and standing are remembered from here on
    const { res, sql } = await fetchCounting("/api/v1/me", headers);
    expect(res.status).toBe(200);
    const me = (await res.json()) as { credits: { balance: number }; user: { plan: string }; team: unknown };
    expect(me).toMatchObject({ credits: { balance: 70 }, user: { plan: "Free" }, team: null });
    expect(sql, sql.join("\n")).toHaveLength(1);
    expect(sql[0]).toMatch(/from "users"/i);
    console.log(`D1 statements for /api/v1/me: ${sql.length}`);
  });

  it("the dashboard shows the ledger's balance, reading D1 only for the session and the recent clips", async () => {
    const userId = await insertUser({ email: "layout-plan@example.com", password: PASSWORD, credits: 40 });
    const admin = await insertUser({ email: "layout-admin@example.com", role: "admin" });
    const headers = { Cookie: await signIn("layout-plan@example.com", PASSWORD) };
    await fetchCounting("/dashboard", headers);
    const adjusted = await ledger(env, userId).adjust({
      key: "who-am-i",
      newBalance: 1234,
      actorId: admin,
      reason: "t",
    });
    expect(adjusted.ok).toBe(true);
    // D1 says otherwise behind the ledger's back: the page shows the ledger's answer, so it never read it here.
    await env.DB.prepare("UPDATE users SET credits = 1 WHERE id = ?").bind(userId).run();
    const { res, sql } = await fetchCounting("/dashboard", headers);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/data-testid="credit-balance"[^>]*>1,234</);
    // The session (with its user's profile) and the page's own list, the recent clips; nothing else.
    console.log(`D1 statements for /dashboard: ${sql.length}\n${sql.join("\n")}`);
    expect(sql, sql.join("\n")).toHaveLength(2);
    expect(sql.filter((s) => /from "sessions"/i.test(s))).toHaveLength(1);
    expect(sql.filter((s) => /from "clips"/i.test(s))).toHaveLength(1);
  });
});
