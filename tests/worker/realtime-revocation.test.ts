import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { setPassword } from "~/services/accounts.server";
import { sha256Hex } from "~/utils/crypto";
import { pruneAuthState } from "../../workers/scheduled";
import { insertUser, post, signIn } from "./helpers";

/**
 * Every path that ends a session or an extension token closes exactly the sockets opened with it
 * (4001), and a socket whose session or token ended is closed when it says hello. The owner's own sockets stay open.
 */
const PASSWORD = "revocation passphrase 1";
const NEW_PASSWORD = "another revocation passphrase 2";

interface Socket {
  ws: WebSocket;
  closed: Promise<number>;
  messages: unknown[];
}

async function open(path: string, headers: Record<string, string>): Promise<Socket> {
  const res = await exports.default.fetch(
    new Request(`http://localhost${path}`, { headers: { Upgrade: "websocket", ...headers } }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket;
  if (!ws) throw new Error("no socket");
  const messages: unknown[] = [];
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (event) => resolve(event.code)));
  ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data))));
  ws.accept();
  return { ws, closed, messages };
}

const page = (cookie: string) => open("/realtime", { Cookie: cookie });
const adminFeed = (cookie: string) => open("/admin/realtime", { Cookie: cookie });
const extension = (token: string) => open("/api/v1/realtime", { Authorization: `Bearer ${token}` });

/** The close code, or "open" if the socket is still open after a while (a close comes at once: the bound only
 *  matters on a loaded machine; checks that a socket stays open pass 300 ms). */
const settle = (socket: Socket, ms = 5000) =>
  Promise.race([socket.closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))]);

const hello = (socket: Socket) => socket.ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));

async function mint(cookie: string): Promise<string> {
  const res = await post("/api/v1/token", {}, { cookie });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const sessionIdOf = (cookie: string) => sha256Hex(decodeURIComponent(cookie.split("=")[1] ?? ""));

describe("a stolen session or token loses its live socket when access ends", () => {
  it("password change on /account: the thief's page and extension sockets close, the owner's stay", async () => {
    await insertUser({ email: "pw-change@example.com", password: PASSWORD });
    const thief = await signIn("pw-change@example.com", PASSWORD);
    const owner = await signIn("pw-change@example.com", PASSWORD);
    const thiefPage = await page(thief);
    const thiefExtension = await extension(await mint(thief));
    const ownerPage = await page(owner);
    const res = await post(
      "/account",
      { intent: "password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { cookie: owner },
    );
    expect(res.status).toBe(200);
    expect(await settle(thiefPage)).toBe(4001);
    expect(await settle(thiefExtension)).toBe(4001);
    expect(await settle(ownerPage, 300)).toBe("open");
  });

  it("password reset: every socket of the account closes", async () => {
    const userId = await insertUser({ email: "pw-reset@example.com", password: PASSWORD });
    const thief = await signIn("pw-reset@example.com", PASSWORD);
    const sockets = [await page(thief), await extension(await mint(thief))];
    // The reset route's own call (reset-password.$token), without a session to keep.
    await setPassword(env, userId, NEW_PASSWORD);
    for (const socket of sockets) expect(await settle(socket)).toBe(4001);
  });

  it("ending one session on /account closes that session's page, extension and admin sockets only", async () => {
    await insertUser({ email: "one-session@example.com", password: PASSWORD, role: "admin" });
    const stolen = await signIn("one-session@example.com", PASSWORD);
    const mine = await signIn("one-session@example.com", PASSWORD);
    const stolenSockets = [await page(stolen), await extension(await mint(stolen)), await adminFeed(stolen)];
    const mineSockets = [await page(mine), await extension(await mint(mine)), await adminFeed(mine)];
    const res = await post(
      "/account/sessions",
      { intent: "revoke", sessionId: await sessionIdOf(stolen) },
      { cookie: mine },
    );
    expect(res.status).toBe(302);
    for (const socket of stolenSockets) expect(await settle(socket)).toBe(4001);
    for (const socket of mineSockets) expect(await settle(socket, 300)).toBe("open");
  });

  it("signing out closes this browser's page, extension and admin sockets", async () => {
    await insertUser({ email: "sign-out@example.com", password: PASSWORD, role: "admin" });
    const cookie = await signIn("sign-out@example.com", PASSWORD);
    const sockets = [await page(cookie), await extension(await mint(cookie)), await adminFeed(cookie)];
    expect((await post("/signout", {}, { cookie })).status).toBe(302);
    for (const socket of sockets) expect(await settle(socket)).toBe(4001);
  });

  it("a replaced extension token (the next hand-off) closes the old token's socket", async () => {
    await insertUser({ email: "replaced@example.com", password: PASSWORD });
    const cookie = await signIn("replaced@example.com", PASSWORD);
    const old = await extension(await mint(cookie));
    const fresh = await extension(await mint(cookie));
    expect(await settle(old)).toBe(4001);
    expect(await settle(fresh, 300)).toBe("open");
  });

  it("a session that ended without its sockets being told is closed on hello (pages and admin feed)", async () => {
    const userId = await insertUser({ email: "hello@example.com", password: PASSWORD, role: "admin" });
    const cookie = await signIn("hello@example.com", PASSWORD);
    const sockets = [await page(cookie), await adminFeed(cookie)];
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(userId).run();
    for (const socket of sockets) hello(socket);
    for (const socket of sockets) expect(await settle(socket)).toBe(4001);
  });

  it("a token revoked in D1 behind the ledger's back is closed on hello", async () => {
    const userId = await insertUser({ email: "hello-token@example.com", password: PASSWORD });
    const cookie = await signIn("hello-token@example.com", PASSWORD);
    const socket = await extension(await mint(cookie));
    hello(socket);
    // The first hello is answered (waited for, not assumed after a fixed delay: a loaded CI run took longer).
    await vi.waitFor(() => expect(socket.messages).toContainEqual(expect.objectContaining({ type: "snapshot" })), {
      timeout: 10_000,
    });
    await env.DB.prepare("UPDATE api_tokens SET revoked_at = ? WHERE user_id = ?").bind(Date.now(), userId).run();
    hello(socket);
    expect(await settle(socket)).toBe(4001);
  });

  it("pruning an idle session revokes its tokens and closes their sockets", async () => {
    const userId = await insertUser({ email: "pruned@example.com", password: PASSWORD });
    const cookie = await signIn("pruned@example.com", PASSWORD);
    const token = await mint(cookie);
    const sockets = [await page(cookie), await extension(token)];
    await env.DB.prepare("UPDATE sessions SET last_active_at = ? WHERE user_id = ?")
      .bind(Date.now() - 8 * 24 * 60 * 60 * 1000, userId)
      .run();
    await pruneAuthState(env);
    const revoked = await env.DB.prepare("SELECT revoked_at FROM api_tokens WHERE user_id = ?")
      .bind(userId)
      .first<{ revoked_at: number | null }>();
    expect(revoked?.revoked_at).not.toBeNull();
    for (const socket of sockets) expect(await settle(socket)).toBe(4001);
    const me = await exports.default.fetch(
      new Request("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${token}` } }),
    );
    expect(me.status).toBe(401);
  });
});
