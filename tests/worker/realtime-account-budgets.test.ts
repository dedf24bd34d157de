import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_FEED_NAME } from "~/services/realtime-control.server";
import { ACCOUNT_FRAME_BUDGETS, MAX_SOCKETS_PER_USER, POLICY_VIOLATION } from "../../workers/socket-budget";
import { insertUser, signIn } from "./helpers";

/**
 * Frame budgets belong to the account, not to the socket: a new socket does not start with a fresh budget, so a
 * reconnect loop is held to the account's rate, while every socket of an honest account (tabs and extension,
 * reconnecting together after a deploy) is served.
 */
const PASSWORD = "account budgets passphrase";
const HELLO = JSON.stringify({ v: 1, type: "hello", lastSeq: null });
const PING = JSON.stringify({ v: 1, type: "ping" });

interface Socket {
  ws: WebSocket;
  closed: Promise<number>;
  messages: { type: string }[];
}

async function open(path: string, cookie: string): Promise<Socket> {
  const res = await exports.default.fetch(
    new Request(`http://localhost${path}`, { headers: { Upgrade: "websocket", Cookie: cookie } }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket;
  if (!ws) throw new Error("no socket");
  const messages: { type: string }[] = [];
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (event) => resolve(event.code)));
  ws.addEventListener("message", (event) => {
    messages.push(JSON.parse(String(event.data)) as { type: string });
  });
  ws.accept();
  return { ws, closed, messages };
}

/** The close code, or "open" if the socket is still open after `ms` (a close comes at once). */
const settle = (socket: Socket, ms = 300) =>
  Promise.race([socket.closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))]);
const count = (socket: Socket, type: string) => socket.messages.filter((m) => m.type === type).length;

async function account(role: "user" | "admin" = "user") {
  const email = `${crypto.randomUUID()}@example.com`;
  await insertUser({ email, password: PASSWORD, role });
  return signIn(email, PASSWORD);
}

/**
 * A loop of sockets, each saying hello 3 times (within its own socket's budget), well past the account's burst:
 * the old per-socket budgets answered every one.
 */
const PER_SOCKET = 3;
const LOOP_SOCKETS = Math.ceil((ACCOUNT_FRAME_BUDGETS.hello.burst + 18) / PER_SOCKET);

/** Hellos an account may have answered in `elapsedMs`: its burst and what refilled meanwhile. */
const helloAllowance = (elapsedMs: number) =>
  ACCOUNT_FRAME_BUDGETS.hello.burst + Math.floor(elapsedMs / ACCOUNT_FRAME_BUDGETS.hello.refillMs) + 1;

describe("a user's frame budget is shared by all their sockets", () => {
  it("a user who opens and closes sockets in a loop gets at most the account's snapshots, then a 1008 close", async () => {
    const cookie = await account();
    const started = Date.now();
    let snapshots = 0;
    const codes: (number | "open")[] = [];
    for (let i = 0; i < LOOP_SOCKETS; i++) {
      const socket = await open("/realtime", cookie);
      for (let h = 0; h < PER_SOCKET; h++) socket.ws.send(HELLO);
      await expect
        .poll(async () => count(socket, "snapshot") === PER_SOCKET || (await settle(socket, 10)) !== "open", {
          timeout: 5000,
        })
        .toBe(true);
      snapshots += count(socket, "snapshot");
      codes.push(await settle(socket, 10));
      socket.ws.close(1000, "loop");
    }
    expect(snapshots).toBeLessThanOrEqual(helloAllowance(Date.now() - started));
    expect(codes.at(-1)).toBe(POLICY_VIOLATION);
  });

  it(`${MAX_SOCKETS_PER_USER} sockets of one user, each with hello and ping, are all served, and again after they all reconnect`, async () => {
    const cookie = await account();
    for (let round = 0; round < 2; round++) {
      const sockets = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_USER }, () => open("/realtime", cookie)));
      for (const socket of sockets) {
        socket.ws.send(HELLO);
        socket.ws.send(PING);
      }
      for (const [i, socket] of sockets.entries()) {
        await expect.poll(() => [count(socket, "snapshot"), count(socket, "pong")], { timeout: 5000 }).toEqual([1, 1]);
        expect(await settle(socket, 50), `round ${round + 1}, socket ${i + 1}`).toBe("open");
      }
      // A deploy closes every socket; they all reconnect at once.
      for (const socket of sockets) socket.ws.close(1000, "deploy");
      await Promise.all(sockets.map((s) => s.closed));
    }
  });
});

describe("an admin's frame budget on the admin feed is shared by all their sockets", () => {
  /**
   * An admin socket answers nothing to a hello it accepts (it re-checks the session), and closes one over budget
   * with 1008 at once; the client's close after them is echoed with 1000. So a socket's close code says whether
   * all its hellos were accepted.
   */
  async function hellosThenClose(cookie: string): Promise<number> {
    const socket = await open("/admin/realtime", cookie);
    for (let h = 0; h < PER_SOCKET; h++) socket.ws.send(HELLO);
    socket.ws.close(1000, "loop");
    return socket.closed;
  }

  it("an admin who opens and closes feed sockets in a loop is served at most the account's hellos, then closed 1008", async () => {
    const cookie = await account("admin");
    const started = Date.now();
    const codes: number[] = [];
    for (let i = 0; i < LOOP_SOCKETS; i++) codes.push(await hellosThenClose(cookie));
    const servedInFull = codes.filter((c) => c !== POLICY_VIOLATION).length;
    expect(servedInFull * PER_SOCKET).toBeLessThanOrEqual(helloAllowance(Date.now() - started));
    expect(codes.at(-1)).toBe(POLICY_VIOLATION);
  });

  it(`${MAX_SOCKETS_PER_USER} feed sockets of one admin, each saying hello, are all served, and again after they all reconnect`, async () => {
    const cookie = await account("admin");
    const feed = env.ADMIN_FEED.get(env.ADMIN_FEED.idFromName(ADMIN_FEED_NAME));
    for (let round = 0; round < 2; round++) {
      const sockets = await Promise.all(
        Array.from({ length: MAX_SOCKETS_PER_USER }, () => open("/admin/realtime", cookie)),
      );
      for (const socket of sockets) socket.ws.send(HELLO);
      expect(await Promise.all(sockets.map((s) => settle(s))), `round ${round + 1}`).toEqual(sockets.map(() => "open"));
      await feed.pushSettings({ extensionId: `round-${round}` });
      for (const socket of sockets) await expect.poll(() => count(socket, "settings"), { timeout: 5000 }).toBe(1);
      for (const socket of sockets) socket.ws.close(1000, "deploy");
      await Promise.all(sockets.map((s) => s.closed));
    }
  });
});
