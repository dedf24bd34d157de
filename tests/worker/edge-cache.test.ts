import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import * as build from "remix-server-build";
import { describe, expect, it } from "vitest";
import {
  NONCE_PLACEHOLDER,
  PageMemory,
  pageKey,
  pageMemory,
  servePublicPage,
  storedPage,
  type StoredPage,
} from "../../workers/edge-cache";
import worker from "../../workers/app";
import { get, insertUser, ORIGIN, signIn } from "./helpers";

/** The nonce the CSP header allows, and every nonce attribute in the page. */
async function nonces(response: Response) {
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  const header = /'nonce-([^']+)'/.exec(csp)?.[1];
  const html = await response.text();
  const attributes = [...html.matchAll(/\bnonce="([^"]*)"/g)].map((m) => m[1]);
  return { header, attributes, html };
}

describe("edge cache for public pages", () => {
  it("serves the second anonymous visit from the cache, each with a fresh nonce matching its CSP", async () => {
    const first = await get("/about");
    const second = await get("/about");
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Page-Cache")).toBe("miss");
    expect(second.headers.get("X-Page-Cache")).toBe("hit");
    const a = await nonces(first);
    const b = await nonces(second);
    for (const page of [a, b]) {
      expect(page.header).toBeTruthy();
      expect(page.attributes.length).toBeGreaterThan(0);
      expect(new Set(page.attributes)).toEqual(new Set([page.header]));
      expect(page.html).not.toContain(NONCE_PLACEHOLDER);
    }
    expect(a.header).not.toBe(b.header);
    // No shared cache downstream may keep HTML that carries a nonce.
    expect(second.headers.get("Cache-Control")).toBe("private, no-cache");
  });

  it("never reads or writes the cache for a request with a session cookie", async () => {
    await insertUser({ email: "cache@example.com", password: "cache passphrase 1" });
    const cookie = await signIn("cache@example.com", "cache passphrase 1");
    // Signed in first: nothing may be stored for the anonymous visitor who comes next.
    const signedIn = await get("/terms", { cookie });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("X-Page-Cache")).toBeNull();
    expect(await signedIn.text()).toContain("Dashboard");
    expect((await get("/terms")).headers.get("X-Page-Cache")).toBe("miss");
    expect((await get("/terms")).headers.get("X-Page-Cache")).toBe("hit");
    // A stored page exists now; the signed-in visitor still gets their own render.
    const again = await get("/terms", { cookie });
    expect(again.headers.get("X-Page-Cache")).toBeNull();
    const page = await nonces(again);
    expect(new Set(page.attributes)).toEqual(new Set([page.header]));
  });

  it("does not cache pages outside the public list or answers that set a cookie", async () => {
    expect((await get("/signin")).headers.get("X-Page-Cache")).toBeNull();
    expect((await get("/dashboard")).headers.get("X-Page-Cache")).toBeNull();
  });

  it("gives each of five answers from memory a new nonce, in every nonce attribute and in the CSP", async () => {
    const rendered = await nonces(await get("/"));
    // Remix's inline scripts; every one must carry the answer's own nonce, none the placeholder or an old one.
    expect(rendered.attributes.length).toBeGreaterThanOrEqual(5);
    const seen = new Set([rendered.header]);
    for (let i = 0; i < 5; i++) {
      const response = await get("/");
      expect(response.headers.get("X-Page-Cache")).toBe("hit");
      expect(response.headers.get("X-Page-Cache-Tier")).toBe("memory");
      const length = Number(response.headers.get("Content-Length"));
      const page = await nonces(response);
      expect(length).toBe(new TextEncoder().encode(page.html).length);
      expect(page.attributes).toHaveLength(rendered.attributes.length);
      expect(new Set(page.attributes)).toEqual(new Set([page.header]));
      expect(page.html).not.toContain(NONCE_PLACEHOLDER);
      seen.add(page.header);
    }
    expect(seen.size).toBe(6);
  });

  it("fills a fresh isolate's memory from the Workers cache, still with a new nonce", async () => {
    await (await get("/help")).text();
    // A new isolate starts with empty memory; the Workers cache copy outlives the old one.
    pageMemory.clear();
    const fromCache = await get("/help");
    expect(fromCache.headers.get("X-Page-Cache-Tier")).toBe("cache");
    const fromMemory = await get("/help");
    expect(fromMemory.headers.get("X-Page-Cache-Tier")).toBe("memory");
    const a = await nonces(fromCache);
    const b = await nonces(fromMemory);
    for (const page of [a, b]) expect(new Set(page.attributes)).toEqual(new Set([page.header]));
    expect(a.header).not.toBe(b.header);
    expect(b.html).toBe(a.html.replaceAll(a.header ?? "", b.header ?? ""));
  });

  it("never serves a page stored under another build version", async () => {
    const request = () => new Request(`${ORIGIN}/features?build-switch`);
    const page = (text: string) => async (placeholder: string) =>
      new Response(`<html><script nonce="${placeholder}"></script>${text}</html>`, {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    const serve = async (version: string, text: string) => {
      const ctx = createExecutionContext();
      const response = await servePublicPage(request(), ctx, version, crypto.randomUUID(), page(text));
      await waitOnExecutionContext(ctx);
      return { tier: response.headers.get("X-Page-Cache-Tier"), html: await response.text() };
    };
    expect(await serve("build-old", "old page")).toMatchObject({ tier: null });
    expect(await serve("build-old", "never rendered")).toMatchObject({
      tier: "memory",
      html: expect.stringContaining("old page"),
    });
    // The deploy: the old page is in memory and in the Workers cache, and neither may answer.
    const deployed = await serve("build-new", "new page");
    expect(deployed.tier).toBeNull();
    expect(deployed.html).toContain("new page");
    expect(deployed.html).not.toContain("old page");
    pageMemory.clear();
    expect(await serve("build-new", "never rendered")).toMatchObject({
      tier: "cache",
      html: expect.stringContaining("new page"),
    });
  });

  it("never reads or fills the memory store for a signed-in visitor", async () => {
    await insertUser({ email: "memory@example.com", password: "memory passphrase 1" });
    const cookie = await signIn("memory@example.com", "memory passphrase 1");
    const key = pageKey(new Request(`${ORIGIN}/privacy`), build.assets.version);
    pageMemory.clear();
    const signedIn = await get("/privacy", { cookie });
    expect(await signedIn.text()).toContain("Dashboard");
    expect(pageMemory.size).toBe(0);
    // A page planted in memory answers anonymous visitors but never reaches a signed-in one.
    const planted = storedPage(
      `<html><script nonce="${NONCE_PLACEHOLDER}"></script>planted anonymous copy</html>`,
      200,
      new Headers({ "Content-Type": "text/html; charset=utf-8" }),
      Date.now() + 60_000,
    );
    pageMemory.set(key, planted);
    expect(await (await get("/privacy")).text()).toContain("planted anonymous copy");
    const again = await get("/privacy", { cookie });
    expect(again.headers.get("X-Page-Cache")).toBeNull();
    const html = await again.text();
    expect(html).not.toContain("planted anonymous copy");
    expect(html).toContain("Dashboard");
  });

  it("never serves a page rendered for another Host to our visitors (the embed origin on /clip)", async () => {
    const path = "/clip?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DdQw4w9WgXcQ";
    // The production Worker, as a request with a foreign Host reaches it: the page it renders names that host.
    const foreignVisit = async () => {
      const ctx = createExecutionContext();
      const foreign = await worker.fetch(
        new Request(`http://attacker.example${path}`) as Parameters<typeof worker.fetch>[0],
        env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(foreign.status).toBe(200);
      expect(await foreign.text()).toContain("attacker.example");
    };
    // Memory first; then a fresh isolate, whose memory fills from the Workers cache.
    for (const tier of ["memory", "cache"]) {
      pageMemory.clear();
      await foreignVisit();
      if (tier === "cache") pageMemory.clear();
      const page = await get(path);
      expect(page.status, tier).toBe(200);
      const html = await page.text();
      expect(html, tier).not.toContain("attacker.example");
      expect(html, tier).toContain(`origin=${encodeURIComponent(ORIGIN)}`);
    }
  });

  it("keeps at most one page per public page and blog post, dropping the one served least recently", async () => {
    pageMemory.clear();
    const cap = pageMemory.cap;
    for (let i = 0; i <= cap; i++) await (await get(`/contact?variant=${i}`)).text();
    expect(pageMemory.size).toBe(cap);
    expect((await get("/contact?variant=0")).headers.get("X-Page-Cache-Tier")).not.toBe("memory");
    expect((await get(`/contact?variant=${cap}`)).headers.get("X-Page-Cache-Tier")).toBe("memory");
  });
});

describe("the memory store", () => {
  const page = (expiresAt: number): StoredPage => ({ parts: [], bytes: 0, status: 200, headers: [], expiresAt });

  it("drops the page served least recently once over its cap", () => {
    const memory = new PageMemory(2);
    memory.set("a", page(Infinity));
    memory.set("b", page(Infinity));
    expect(memory.get("a")).toBeDefined();
    memory.set("c", page(Infinity));
    expect([memory.has("a"), memory.has("b"), memory.has("c")]).toEqual([true, false, true]);
    expect(memory.size).toBe(2);
  });

  it("does not serve a page past its lifetime", () => {
    const memory = new PageMemory(2);
    memory.set("a", page(1_000));
    expect(memory.get("a", 999)).toBeDefined();
    expect(memory.get("a", 1_000)).toBeUndefined();
    expect(memory.has("a")).toBe(false);
  });
});
