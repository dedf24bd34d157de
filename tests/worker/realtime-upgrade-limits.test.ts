import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { insertUser, post, signIn } from "./helpers";

const PASSWORD = "upgrade limits passphrase";
const PER_USER = 30; // SOCKET_USER_LIMITER in wrangler.toml
const PER_IP = 60; // SOCKET_IP_LIMITER: upgrades refused for their credentials

const upgrade = (path: string, ip: string, headers: Record<string, string> = {}) =>
  exports.default.fetch(
    new Request(`http://localhost${path}`, { headers: { Upgrade: "websocket", "CF-Connecting-IP": ip, ...headers } }),
  );

/** The Rate Limiting binding counts in clock-aligned minutes: a burst starts with at least 15 s of its window left. */
// A test that may wait for the next window gets that wait on top of the usual 30 s (a loaded CI timed them out).
const WINDOW_TEST_MS = 30_000 + 15_000;
async function freshWindow() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 100));
}

async function expectRefusedByWorker(res: Response) {
  expect(res.status).toBe(429);
  // The Worker's answer (the ledger object's own socket cap says Retry-After 30 and has no error code).
  expect(res.headers.get("Retry-After")).toBe("60");
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
}

describe("socket upgrades are limited in the Worker, before the Durable Object is reached", () => {
  it(
    `one account reconnecting in a loop gets ${PER_USER} upgrades a minute, then 429 on pages and extension alike`,
    async () => {
      await insertUser({ email: "loop@example.com", password: PASSWORD });
      const cookie = await signIn("loop@example.com", PASSWORD);
      const minted = await post("/api/v1/token", {}, { cookie });
      const { token } = (await minted.json()) as { token: string };
      await freshWindow();
      // From many addresses, so only the per-user budget can refuse.
      for (let i = 0; i < PER_USER; i++) {
        const res = await upgrade("/realtime", `198.51.100.${i + 1}`, { Cookie: cookie });
        expect(res.status, `upgrade ${i + 1}`).toBe(101);
        res.webSocket?.accept();
        res.webSocket?.close(1000, "done"); // closed at once: the object's cap of open sockets never applies
      }
      await expectRefusedByWorker(await upgrade("/realtime", "198.51.100.200", { Cookie: cookie }));
      await expectRefusedByWorker(
        await upgrade("/api/v1/realtime", "198.51.100.201", { Authorization: `Bearer ${token}` }),
      );
      // Another account is not affected.
      await insertUser({ email: "calm@example.com", password: PASSWORD });
      const calm = await upgrade("/realtime", "198.51.100.202", { Cookie: await signIn("calm@example.com", PASSWORD) });
      expect(calm.status).toBe(101);
      calm.webSocket?.accept();
      calm.webSocket?.close(1000, "done");
    },
    WINDOW_TEST_MS,
  );

  it(
    `one network (an IPv6 /64) gets ${PER_IP} refused upgrades a minute, then 429 before any lookup`,
    async () => {
      await freshWindow();
      for (let i = 0; i < PER_IP; i++) {
        const res = await upgrade("/realtime", `2001:db8:1:2::${(i + 1).toString(16)}`);
        expect(res.status, `upgrade ${i + 1}`).toBe(401); // no cookie: refused, but counted first
      }
      await expectRefusedByWorker(await upgrade("/realtime", "2001:db8:1:2:ffff::1"));
      // Blocked before its credentials are looked at: even a forged session cookie costs no D1 read now.
      await expectRefusedByWorker(
        await upgrade("/admin/realtime", "2001:db8:1:2::abcd", { Cookie: "clipcut_session=forged" }),
      );
      expect((await upgrade("/realtime", "2001:db8:1:3::1")).status).toBe(401);
    },
    WINDOW_TEST_MS,
  );
});
