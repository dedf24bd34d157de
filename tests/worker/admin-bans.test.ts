import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { setUserRole, signOutEverywhere } from "~/services/user-moderation.server";
import { insertUser, post, signIn, expectNotice } from "./helpers";

const PASSWORD = "sockets passphrase 1";
const db = getDb(env.DB);

async function openSocket(path: string, cookie: string) {
  const res = await exports.default.fetch(
    new Request(`http://localhost${path}`, { headers: { Upgrade: "websocket", Cookie: cookie } }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket;
  if (!ws) throw new Error("no socket");
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (event) => resolve(event.code)));
  ws.accept();
  return { ws, closed };
}

/** Resolves with the close code, or "open" if the socket is still open after a while. */
const settle = (closed: Promise<number>) =>
  Promise.race([closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 1500))]);

const status = async (userId: string) =>
  (await env.DB.prepare("SELECT status FROM users WHERE id = ?").bind(userId).first<{ status: string }>())?.status;

describe("a ban cannot be undone by presence, and ends live sockets", () => {
  it("a presence write racing a ban cannot set a banned user back online", async () => {
    const userId = await insertUser({ email: "race@example.com", password: PASSWORD });
    const stub = env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));
    await runInDurableObject(stub, async (instance) => {
      // Let the ban land exactly between presence's read of the user and its write, as a concurrent admin would.
      const real = env.DB;
      const banFirst = async () => {
        await real.prepare("UPDATE users SET status = 'Banned' WHERE id = ?").bind(userId).run();
      };
      const wrapStatement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement =>
        new Proxy(stmt, {
          get(target, prop) {
            const value = Reflect.get(target, prop);
            if (prop === "bind")
              return (...args: unknown[]) =>
                wrapStatement((value as D1PreparedStatement["bind"]).apply(target, args), sql);
            if (typeof value === "function" && ["run", "all", "raw", "first"].includes(String(prop))) {
              return async (...args: unknown[]) => {
                if (/^update "users" set "status"/i.test(sql)) await banFirst();
                return (value as (...a: unknown[]) => unknown).apply(target, args);
              };
            }
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
      const racingDb = new Proxy(real, {
        get(target, prop) {
          if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), sql);
          const value = Reflect.get(target, prop);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const inner = instance as unknown as { env: typeof env; presence(id: string, on: boolean): Promise<void> };
      inner.env = { ...env, DB: racingDb };
      try {
        await inner.presence(userId, true);
      } finally {
        inner.env = env;
      }
    });
    expect(await status(userId)).toBe("Banned");
  });

  it("banning a user closes the pages they have open", async () => {
    const userId = await insertUser({ email: "open@example.com", password: PASSWORD });
    const page = await openSocket("/realtime", await signIn("open@example.com", PASSWORD));
    await insertUser({ email: "banner@example.com", password: PASSWORD, role: "admin" });
    const admin = await signIn("banner@example.com", PASSWORD);
    expectNotice(await post("/admin/users", { intent: "ban", userId }, { cookie: admin }), "banned");
    expect(await settle(page.closed)).not.toBe("open");
    expect(await status(userId)).toBe("Banned");
  });

  it("a demoted admin's live admin feed is closed at once", async () => {
    const userId = await insertUser({ email: "demoted@example.com", password: PASSWORD, role: "admin" });
    const feed = await openSocket("/admin/realtime", await signIn("demoted@example.com", PASSWORD));
    const actorId = await insertUser({ email: "boss@example.com", password: PASSWORD, role: "admin" });
    const result = await setUserRole({ env, db, actorId, userId, role: "user" });
    expect(result).toEqual({ ok: true, changed: true });
    expect(await settle(feed.closed)).not.toBe("open");
    expect(
      await env.DB.prepare("SELECT count(*) n FROM audit_log WHERE action = 'admin.role_changed' AND subject_id = ?")
        .bind(userId)
        .first<{ n: number }>(),
    ).toEqual({ n: 1 });
  });

  it("sign out everywhere ends every session and token and closes the user's sockets", async () => {
    const userId = await insertUser({ email: "every@example.com", password: PASSWORD });
    const cookie = await signIn("every@example.com", PASSWORD);
    const page = await openSocket("/realtime", cookie);
    expect((await post("/api/v1/token", {}, { cookie })).status).toBe(201);
    const result = await signOutEverywhere({ env, db, actorId: "admin-x", userId });
    expect(result.ok).toBe(true);
    expect(await settle(page.closed)).not.toBe("open");
    const live = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM sessions WHERE user_id = ?1) s, (SELECT count(*) FROM api_tokens WHERE user_id = ?1 AND revoked_at IS NULL) t",
    )
      .bind(userId)
      .first();
    expect(live).toEqual({ s: 0, t: 0 });
  });
});
