import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { issueApiToken } from "~/services/api-tokens.server";
import { safeRedirect } from "~/services/session.server";
import { httpsRedirect } from "../../workers/security-headers";
import { countRows, get, insertUser, ORIGIN, post, signIn } from "./helpers";

const PASSWORD = "http tests passphrase";
const db = getDb(env.DB);

/** Where a browser would really go: it drops tabs and newlines and reads "\" as "/" before resolving. */
function browserTarget(location: string | null): string {
  const cleaned = (location ?? "").replace(/[\t\n\r]/g, "").replace(/\\/g, "/");
  return new URL(cleaned, ORIGIN).origin;
}

const HOSTILE_REDIRECTS = [
  "/\t/evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "//evil.example",
  "/.//evil.example",
  "/\n/evil.example",
  "/%0d%0aSet-Cookie:x=1",
  "/\r\nSet-Cookie: x=1",
  "javascript:alert(1)",
  "https://evil.example/",
  `/${"a".repeat(9000)}`,
  "/\u0000/evil.example",
  "/\u00a0/evil.example",
];

describe("redirectTo with control characters cannot leave the site", () => {
  it("a redirectTo with a tab or backslash cannot send a signed-in visitor of /signin to another site", async () => {
    await insertUser({ email: "redir@example.com", password: PASSWORD });
    const cookie = await signIn("redir@example.com", PASSWORD);
    for (const to of ["/%09/evil.example", "/%09%5C/evil.example", "/%5C%5Cevil.example", "/%0A/evil.example"]) {
      const res = await get(`/signin?redirectTo=${to}`, { cookie });
      expect(res.status).toBe(302);
      expect(browserTarget(res.headers.get("Location"))).toBe(ORIGIN);
    }
  });

  it("a hostile redirectTo on the sign-in form never leaves the site and never causes a 5xx", async () => {
    await insertUser({ email: "redir2@example.com", password: PASSWORD });
    for (const redirectTo of HOSTILE_REDIRECTS) {
      const res = await post("/signin", { email: "redir2@example.com", password: PASSWORD, redirectTo });
      expect(res.status, JSON.stringify(redirectTo.slice(0, 40))).toBe(302);
      expect(browserTarget(res.headers.get("Location"))).toBe(ORIGIN);
    }
    const kept = await post("/signin", { email: "redir2@example.com", password: PASSWORD, redirectTo: "/credits?x=1" });
    expect(kept.headers.get("Location")).toBe("/credits?x=1");
  });

  it("safeRedirect (also used for the Google return cookie) keeps only same-origin paths", () => {
    for (const to of HOSTILE_REDIRECTS) expect(browserTarget(safeRedirect(to))).toBe(ORIGIN);
    expect(safeRedirect("/billing/plan#top")).toBe("/billing/plan#top");
    expect(safeRedirect(null)).toBe("/dashboard");
  });

  it("a malformed cookie (the Google return cookie, the session cookie) is ignored, not a server error", async () => {
    for (const [path, cookie] of [
      ["/auth/google/callback?error=access_denied", "clipcut_return=%E0%A4%A"],
      ["/", "clipcut_session=%E0%A4%A"],
      ["/dashboard", "clipcut_session=%"],
    ]) {
      const res = await exports.default.fetch(
        new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie ?? "" }, redirect: "manual" }),
      );
      expect(res.status, path).toBeLessThan(500);
    }
  });
});

describe("path variants cannot bypass the origin check", () => {
  const variants = [
    "/api/v1/TOKEN",
    "/api/v1/token/",
    "/api/v1/%74oken",
    "/api/v1/token.data",
    "/API/V1/Token",
    "/api//v1/token",
  ];

  it("path variants of /api/v1/token from a foreign origin are refused and issue no token", async () => {
    await insertUser({ email: "csrf@example.com", password: PASSWORD });
    const cookie = await signIn("csrf@example.com", PASSWORD);
    for (const path of variants) {
      const res = await post(path, {}, { cookie, origin: "https://evil.example" });
      expect(res.status, path).toBe(403);
    }
    expect(await countRows("SELECT count(*) n FROM api_tokens")).toBe(0);
  });

  it("a lowercase or unusual method from a foreign origin counts as a write", async () => {
    await insertUser({ email: "csrf2@example.com", password: PASSWORD });
    const cookie = await signIn("csrf2@example.com", PASSWORD);
    for (const method of ["patch", "PATCH", "put", "PROPFIND"]) {
      const res = await exports.default.fetch(
        new Request(`${ORIGIN}/account`, {
          method,
          headers: {
            Cookie: cookie,
            Origin: "https://evil.example",
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: "intent=profile&fullName=Pwned",
          redirect: "manual",
        }),
      );
      expect(res.status, method).toBe(403);
    }
    expect(await countRows("SELECT count(*) n FROM users WHERE full_name = 'Pwned'")).toBe(0);
  });

  it("Bearer calls to API v1 from the extension's origin still work", async () => {
    const userId = await insertUser({ email: "ext@example.com" });
    const token = await issueApiToken(db, userId, "s");
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/v1/me`, {
        method: "GET",
        headers: { Authorization: `Bearer ${token}`, Origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop" },
      }),
    );
    expect(res.status).toBe(200);
  });
});

describe("only http(s) video URLs are accepted or linked", () => {
  const body = (videoUrl: string) => ({
    name: "Clip",
    videoUrl,
    startSeconds: 0,
    endSeconds: 10,
    format: "mp4",
    quality: "720p",
  });
  const clipPost = (token: string, videoUrl: string, key: string) =>
    exports.default.fetch(
      new Request(`${ORIGIN}/api/v1/clips`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": key },
        body: JSON.stringify(body(videoUrl)),
      }),
    );

  it("a clip with a javascript:, data: or file: URL is refused with 422 and charges nothing", async () => {
    const userId = await insertUser({ email: "js@example.com", credits: 100 });
    const token = await issueApiToken(db, userId, "s");
    const hostile = [
      "javascript:alert(1)",
      "JavaScript:alert(document.cookie)//https://youtube.com",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "vbscript:msgbox(1)",
      "https://user:secret@www.youtube.com/watch?v=dQw4w9WgXcQ",
      " javascript:alert(1)",
    ];
    for (const [i, url] of hostile.entries()) {
      const res = await clipPost(token, url, `hostile-url-${i}`);
      expect(res.status, url).toBe(422);
      const error = (await res.json()) as { error: { message: string } };
      expect(error.error.message).toContain("YouTube link");
    }
    expect(await countRows("SELECT count(*) n FROM clips WHERE user_id = ?", userId)).toBe(0);
    expect(await countRows("SELECT credits n FROM users WHERE id = ?", userId)).toBe(100);
    expect((await clipPost(token, "https://youtu.be/dQw4w9WgXcQ", "fine-url-1")).status).toBe(201);
  });

  it("a stored non-http URL is rendered as text, never as a link", async () => {
    const userId = await insertUser({ email: "old@example.com", password: PASSWORD });
    await env.DB.prepare(
      "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost) VALUES ('old-clip', ?1, ?1, 'Old', 'javascript:alert(1)', 0, 10, 1)",
    )
      .bind(userId)
      .run();
    const page = await (await get("/view-clip/old-clip", { cookie: await signIn("old@example.com", PASSWORD) })).text();
    expect(page).toContain("javascript:alert(1)");
    expect(page).not.toMatch(/href="\s*javascript:/i);
  });
});

describe("signed-in pages are never cached", () => {
  it("every page rendered for a session is sent private, no-store", async () => {
    await insertUser({ email: "cache@example.com", password: PASSWORD, role: "admin" });
    const cookie = await signIn("cache@example.com", PASSWORD);
    for (const path of [
      "/dashboard",
      "/credits",
      "/account",
      "/admin",
      "/admin/users",
      "/billing/plan",
      "/",
      "/pricing",
      "/dashboard.data",
    ]) {
      const res = await get(path, { cookie });
      expect(res.status, path).toBeLessThan(400);
      expect(res.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
  });
});

describe("transport and CSP", () => {
  it("pages may connect only to their own origin (connect-src 'self')", async () => {
    const csp = (await get("/")).headers.get("Content-Security-Policy") ?? "";
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).not.toMatch(/connect-src[^;]*wss?:/);
  });

  it("outside local mode plain http is redirected to https", () => {
    const res = httpsRedirect(new Request("http://clipcut.example/dashboard?x=1"), "production");
    expect(res?.status).toBe(308);
    expect(res?.headers.get("Location")).toBe("https://clipcut.example/dashboard?x=1");
    expect(httpsRedirect(new Request("https://clipcut.example/"), "production")).toBeNull();
    expect(httpsRedirect(new Request("http://localhost:8787/"), "local")).toBeNull();
  });
});
