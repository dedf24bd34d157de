import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~/utils/crypto";
import { FRAME_BUDGETS, MAX_SOCKETS_PER_USER, POLICY_VIOLATION } from "../../workers/socket-budget";
import { countRows, get, insertUser, post, signIn } from "./helpers";

/**
 * Nothing is free to flood. Socket frames have a budget (beyond it: close 1008), pings write
 * last_seen at most once a minute, a user holds at most 10 sockets, API v1 answers 429 rate_limited with
 * Retry-After, and a refused admin visit is audited once per hour.
 */
const PASSWORD = "limits passphrase 1";

interface Socket {
  ws: WebSocket;
  closed: Promise<number>;
  messages: { type: string }[];
}

async function page(cookie: string, extra: Record<string, string> = {}): Promise<Socket> {
  const res = await exports.default.fetch(
    new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: cookie, ...extra } }),
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket;
  if (!ws) throw new Error("no socket");
  const messages: { type: string }[] = [];
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (event) => resolve(event.code)));
  ws.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data)) as { type: string }));
  ws.accept();
  return { ws, closed, messages };
}

const settle = (socket: Socket, ms = 5000) =>
  Promise.race([socket.closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))]);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The Rate Limiting binding counts in fixed windows aligned to the clock (miniflare: floor(now / 60 s)) and takes no
 * clock of ours. A burst that straddles a window's end is counted twice over, so a burst starts with at least 15 s of
 * its window left (a burst here takes under 2 s alone, ~2 s beside the browser suites).
 */
async function freshWindow(periodMs = 60_000, needMs = 15_000) {
  const left = periodMs - (Date.now() % periodMs);
  if (left < needMs) await wait(left + 100);
}

async function signedIn(email: string) {
  const userId = await insertUser({ email, password: PASSWORD });
  return { userId, cookie: await signIn(email, PASSWORD) };
}

const api = (path: string, token: string, ip: string, init: RequestInit = {}) =>
  exports.default.fetch(
    new Request(`http://localhost${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": ip, ...init.headers },
    }),
  );

describe("socket frame budgets", () => {
  it("a burst of 300 pings is answered within the budget, then the socket is closed with 1008", async () => {
    const { cookie } = await signedIn("ping-flood@example.com");
    const socket = await page(cookie);
    for (let i = 0; i < 300; i++) socket.ws.send(JSON.stringify({ v: 1, type: "ping" }));
    expect(await settle(socket)).toBe(POLICY_VIOLATION);
    const pongs = socket.messages.filter((m) => m.type === "pong").length;
    expect(pongs).toBeGreaterThan(0);
    expect(pongs).toBeLessThanOrEqual(FRAME_BUDGETS.ping.burst);
  });

  it("a hello flood gets a few snapshots and a close, not one D1 read each", async () => {
    const { cookie } = await signedIn("hello-flood@example.com");
    const socket = await page(cookie);
    for (let i = 0; i < 50; i++) socket.ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
    expect(await settle(socket)).toBe(POLICY_VIOLATION);
    expect(socket.messages.filter((m) => m.type === "snapshot").length).toBeLessThanOrEqual(FRAME_BUDGETS.hello.burst);
  });

  it("a garbage flood is closed too", async () => {
    const { cookie } = await signedIn("junk-flood@example.com");
    const socket = await page(cookie);
    for (let i = 0; i < 50; i++) socket.ws.send("not json");
    expect(await settle(socket)).toBe(POLICY_VIOLATION);
    expect(socket.messages.length).toBeLessThanOrEqual(FRAME_BUDGETS.other.burst);
  });

  it("an honest client (hello, then a ping a minute) is never closed", async () => {
    const { cookie } = await signedIn("honest@example.com");
    const socket = await page(cookie);
    socket.ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
    socket.ws.send(JSON.stringify({ v: 1, type: "ping" }));
    expect(await settle(socket, 300)).toBe("open");
    // The hello re-reads the session first, so the pong may come first.
    expect(socket.messages.map((m) => m.type).sort()).toEqual(["pong", "snapshot"]);
  });

  it("pings write last_seen at most once a minute", async () => {
    const { userId, cookie } = await signedIn("last-seen@example.com");
    const socket = await page(cookie);
    const lastSeen = async () =>
      (await env.DB.prepare("SELECT last_seen FROM users WHERE id = ?").bind(userId).first<{ last_seen: number }>())
        ?.last_seen;
    await env.DB.prepare("UPDATE users SET last_seen = 1 WHERE id = ?").bind(userId).run();
    // The ledger writes last_seen before it answers the ping: each check waits for its pong, not for a fixed time
    // (200 ms was too short beside the browser suites).
    const pongs = () => socket.messages.filter((m) => m.type === "pong").length;
    socket.ws.send(JSON.stringify({ v: 1, type: "ping" }));
    await expect.poll(pongs, { timeout: 5000 }).toBe(1);
    expect(await lastSeen()).toBeGreaterThan(1);
    await env.DB.prepare("UPDATE users SET last_seen = 1 WHERE id = ?").bind(userId).run();
    socket.ws.send(JSON.stringify({ v: 1, type: "ping" }));
    await expect.poll(pongs, { timeout: 5000 }).toBe(2);
    expect(await lastSeen()).toBe(1);
  });
});

describe("sockets per user", () => {
  it(`the ${MAX_SOCKETS_PER_USER + 1}th socket of one user is refused with 429`, async () => {
    const { cookie } = await signedIn("many-tabs@example.com");
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) await page(cookie);
    const res = await exports.default.fetch(
      new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: cookie } }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("API v1 answers 429 rate_limited with Retry-After", () => {
  it("guessing bearer tokens from one IPv6 /64 is cut off after 30, other networks are not", async () => {
    await freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      // Every guess from another address of the same /64.
      statuses.push((await api("/api/v1/me", `cc_guess${i}`, `2001:db8:77:1::${i + 1}`)).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    const last = await api("/api/v1/me", "cc_guess-last", "2001:db8:77:1:ffff::9");
    expect(last.status).toBe(429);
    expect(((await last.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await api("/api/v1/me", "cc_guess-elsewhere", "2001:db8:77:2::1")).status).toBe(401);
  });

  it("POST /api/v1/token: 60 in a row mint 5 tokens, and the session keeps only the newest", async () => {
    await freshWindow();
    const { userId, cookie } = await signedIn("mint-loop@example.com");
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await post("/api/v1/token", {}, { cookie })).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
    expect(await countRows("SELECT count(*) n FROM api_tokens WHERE user_id = ? AND revoked_at IS NULL", userId)).toBe(
      1,
    );
  });

  it("a token past its budget gets 429 and moves no credit", async () => {
    await freshWindow();
    const { cookie } = await signedIn("token-budget@example.com");
    const minted = await post("/api/v1/token", {}, { cookie });
    const { token } = (await minted.json()) as { token: string };
    expect((await api("/api/v1/me", token, "192.0.2.44")).status).toBe(200);
    // Spend the rest of the budget on the very limiter the API uses (3000 requests would make a slow test).
    const key = await sha256Hex(token);
    while ((await env.API_TOKEN_LIMITER.limit({ key })).success) {
      // spending
    }
    const res = await api("/api/v1/clips", token, "192.0.2.44", {
      method: "POST",
      headers: { "Idempotency-Key": "budget-1", "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Over budget",
        videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        startSeconds: 0,
        endSeconds: 10,
        format: "mp4",
        quality: "720p",
      }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("60");
    expect(await countRows("SELECT count(*) n FROM clips WHERE name = 'Over budget'")).toBe(0);
  });
});

describe("odds and ends", () => {
  it("a non-admin looping on /admin leaves one audit row an hour, not one per visit", async () => {
    const { userId, cookie } = await signedIn("curious@example.com");
    for (let i = 0; i < 5; i++) expect((await get("/admin", { cookie })).status).toBe(302);
    expect(
      await countRows("SELECT count(*) n FROM audit_log WHERE action = 'admin.access_denied' AND actor_id = ?", userId),
    ).toBe(1);
  });

  it("client-sent X-ClipCut-* headers never reach the Durable Object", async () => {
    const { cookie } = await signedIn("header-smuggler@example.com");
    const res = await exports.default.fetch(
      new Request("http://localhost/realtime", {
        headers: {
          Upgrade: "websocket",
          Cookie: cookie,
          "X-ClipCut-Protocol": "smuggled",
          "X-ClipCut-Socket": "extension",
        },
      }),
    );
    expect(res.status).toBe(101);
    expect(res.headers.get("Sec-WebSocket-Protocol")).toBeNull();
    res.webSocket?.accept();
    res.webSocket?.close();
  });
});
