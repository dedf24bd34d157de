import { exports } from "cloudflare:workers";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const fetchPage = (path: string, init?: RequestInit) =>
  exports.default.fetch(new Request(`http://localhost${path}`, init));

describe("public pages through the Worker", () => {
  it("serves the landing page with every security header", async () => {
    const res = await fetchPage("/");
    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline' 'nonce"); // no inline-script hole in script-src
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'(;|$)/);
    expect(res.headers.get("Strict-Transport-Security")).toContain("max-age=");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("Permissions-Policy")).toContain("camera=()");
    const html = await res.text();
    // Every inline script carries this response's nonce.
    const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs] of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
  });

  it("keeps anonymous public pages in the Worker's own cache only, never signed-in ones", async () => {
    const anon = await fetchPage("/pricing");
    expect(anon.headers.get("X-Page-Cache")).toMatch(/^(hit|miss)$/);
    // The HTML carries a per-response nonce: no shared cache downstream may keep it (see edge-cache.test.ts).
    expect(anon.headers.get("Cache-Control")).toBe("private, no-cache");
    const withCookie = await fetchPage("/pricing", { headers: { Cookie: "clipcut_session=abc" } });
    expect(withCookie.headers.get("Cache-Control")).toContain("no-store");
  });

  it("answers unknown paths with a real 404 and the Page Not Found page", async () => {
    const res = await fetchPage("/no/such/page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page Not Found");
    expect(html).toMatch(/href="\/"/);
  });

  it("renders the pricing toggle as links that work without JavaScript", async () => {
    const monthly = await (await fetchPage("/pricing")).text();
    expect(monthly).toContain("Annual (Save 33%)");
    expect(monthly).toContain("$29");
    const yearly = await (await fetchPage("/pricing?billing=yearly")).text();
    expect(yearly).toContain("$19");
    expect(yearly).toContain("$46");
    expect(yearly).not.toContain(">$69<");
  });
});

describe("contact form", () => {
  const post = (fields: Record<string, string>, ip = "203.0.113.7") =>
    fetchPage("/contact", {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "CF-Connecting-IP": ip, "Content-Type": "application/x-www-form-urlencoded" },
    });
  const valid = { name: "Ada", email: "ada@example.com", topic: "Billing", message: "Hello there, a question." };

  it("stores a valid message and confirms it", async () => {
    const res = await post(valid);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Your message has been sent");
    const row = await env.DB.prepare("SELECT name, email, topic FROM contact_messages").first();
    expect(row).toEqual({ name: "Ada", email: "ada@example.com", topic: "Billing" });
  });

  it("refuses invalid input with field messages and stores nothing", async () => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM contact_messages").first<{ n: number }>();
    const res = await post({ ...valid, email: "not-an-email", message: "short" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please enter a valid email address.");
    expect(html).toContain("Please write at least 10 characters.");
    const after = await env.DB.prepare("SELECT count(*) AS n FROM contact_messages").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("rate limits one IP address after five messages with 429 and Retry-After", async () => {
    // Five senders (one e-mail address has a lower limit of its own: inbox.test.ts).
    const from = (i: number) => ({ ...valid, email: `sender${i}@example.com` });
    for (let i = 0; i < 5; i++) expect((await post(from(i), "198.51.100.1")).status).toBe(200);
    const blocked = await post(from(5), "198.51.100.1");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await blocked.text()).toContain("Too many attempts");
    // Another IP address is not affected.
    expect((await post(from(6), "198.51.100.2")).status).toBe(200);
  });
});
