import { exports } from "cloudflare:workers";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "./helpers";

/** The local Worker (wrangler.local.toml's main, workers/local.ts), as `npm start` and e2e serve it. */
const send = (url: string, init: RequestInit = {}) =>
  exports.default.fetch(new Request(url, { redirect: "manual", ...init }));

const fixtureUser = (base: string, email: string, headers: Record<string, string> = {}, plan = "Free") =>
  send(`${base}/dev/users`, {
    method: "POST",
    body: new URLSearchParams({ email, password: "Local-guard-1", plan }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });

const userRow = (email: string) =>
  env.DB.prepare("SELECT plan, role FROM users WHERE email = ?").bind(email).first<{ plan: string; role: string }>();

describe("the local server's /dev routes", () => {
  it("refuse a write from another site on every /dev path, before any route runs", async () => {
    // Today's routes, the one being added and any later one: the check sits at the /dev dispatch.
    const paths = ["/dev/users", "/dev/stripe/checkout/cs_test_x", "/dev/stripe/advance", "/dev/a-route-added-later"];
    const foreign: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
    ];
    for (const path of paths) {
      for (const headers of foreign) {
        const res = await send(`${ORIGIN}${path}`, {
          method: "POST",
          body: new URLSearchParams({ email: "csrf-admin@example.com", role: "admin" }),
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(await userRow("csrf-admin@example.com")).toBeNull();
  });

  it("still serve our own pages' posts and a test client's (no Origin), and the stand-in's webhooks get through", async () => {
    const own = await fixtureUser(ORIGIN, "own-origin@example.com", { Origin: ORIGIN });
    expect(own.status, await own.clone().text()).toBe(200);
    // Playwright's request client sends no Origin (tests/e2e/helpers.ts). A paid plan is applied by the stand-in's
    // signed events, posted to /webhooks/stripe through this Worker.
    const client = await fixtureUser("http://localhost:8790", "test-client@example.com", {}, "Basic");
    expect(client.status, await client.clone().text()).toBe(200);
    expect(await userRow("test-client@example.com")).toMatchObject({ plan: "Basic" });
  });
});

describe("the local server's hosts", () => {
  it("answers localhost, 127.0.0.1 and [::1] on any port", async () => {
    for (const base of ["http://localhost", "http://localhost:8787", "http://127.0.0.1:8790", "http://[::1]:8787"]) {
      expect((await send(`${base}/dev/outbox`)).status, base).toBe(200);
      expect((await send(`${base}/about`)).status, base).toBe(200);
    }
  });

  it("answers no other name: a rebound name can neither read the outbox nor post as its own origin", async () => {
    const names = [
      "http://attacker.example:8787",
      "http://localhost.attacker.example:8787",
      "http://127.0.0.1.nip.io:8787",
      "http://192.168.1.20:8787",
      "http://[::ffff:7f00:1]:8787",
    ];
    for (const base of names) {
      const outbox = await send(`${base}/dev/outbox`);
      expect(outbox.status, base).toBe(421);
      expect(await outbox.text(), base).not.toContain("messages");
      expect((await send(`${base}/signin`)).status, base).toBe(421);
      // Same-origin to itself: the Origin check alone would let it through.
      expect((await fixtureUser(base, "rebound@example.com", { Origin: base })).status, base).toBe(421);
    }
    expect(await userRow("rebound@example.com")).toBeNull();
  });
});
