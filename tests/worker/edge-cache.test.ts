import { describe, expect, it } from "vitest";
import { NONCE_PLACEHOLDER } from "../../workers/edge-cache";
import { get, insertUser, signIn } from "./helpers";

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
});
