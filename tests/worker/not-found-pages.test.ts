import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, insertUser, signIn } from "./helpers";
import { textsOf, visibleText } from "./spec-texts";

// The 404 page as the spec words it ("Page Not Found" with a link home), under the header a visitor's session calls
// for: "Go to Dashboard" when signed in, "Sign in" / "Try for Free" when not. Texts are written out on purpose.

const PASSWORD = "not found pages passphrase";

let people = 0;
async function cookieFor(role: "user" | "admin" = "user") {
  const email = `not-found-${++people}@example.com`;
  await insertUser({ email, password: PASSWORD, role, plan: role === "admin" ? "Pro" : "Free" });
  return signIn(email, PASSWORD);
}

async function page(path: string, cookie?: string) {
  const res = await get(path, { cookie });
  const html = await res.text();
  return { status: res.status, html, text: visibleText(html), header: headerText(html) };
}

function headerText(html: string): string {
  return visibleText(html.match(/<header\b[\s\S]*?<\/header>/)?.[0] ?? "");
}

function expectNotFoundPage(html: string) {
  expect(textsOf(html, "h1")).toEqual(["Page Not Found"]);
  expect(html).toMatch(/<a[^>]*href="\/"[^>]*>\s*Go back home\s*<\/a>/);
  expect(textsOf(html, "title")).toEqual(["Page Not Found | ClipCut"]);
}

describe("the 404 page for an unknown path", () => {
  it("signed out: a real 404 with the signed-out header and no dashboard link", async () => {
    const res = await page("/no-such-page");
    expect(res.status).toBe(404);
    expectNotFoundPage(res.html);
    expect(res.header).toContain("Sign in");
    expect(res.header).toContain("Try for Free");
    expect(res.text).not.toContain("Go to Dashboard");
  });

  for (const path of ["/no-such-page", "/dashboard/x", "/view-clip/a/b"]) {
    it(`signed in: ${path} is a real 404 under the signed-in header, with "Go to Dashboard"`, async () => {
      const cookie = await cookieFor();
      const res = await page(path, cookie);
      expect(res.status).toBe(404);
      expectNotFoundPage(res.html);
      expect(res.html).toMatch(/<a[^>]*href="\/dashboard"[^>]*>\s*Go to Dashboard\s*<\/a>/);
      expect(res.header).toContain("Go to Dashboard");
      expect(res.header).not.toContain("Sign in");
      expect(res.header).not.toContain("Try for Free");
    });
  }

  it("a cookie whose session is unknown counts as signed out", async () => {
    const res = await page("/no-such-page", "clipcut_session=not-a-session");
    expect(res.status).toBe(404);
    expectNotFoundPage(res.html);
    expect(res.header).toContain("Sign in");
    expect(res.header).not.toContain("Go to Dashboard");
  });
});

describe("an unknown admin screen", () => {
  it("shows an admin the 404 page (heading and link home) inside the admin layout, with a 404 status", async () => {
    const cookie = await cookieFor("admin");
    for (const path of ["/admin/refunds", "/admin/no-such-screen"]) {
      const res = await page(path, cookie);
      expect(res.status, path).toBe(404);
      expect(textsOf(res.html, "h1"), path).toEqual(["Page Not Found"]);
      expect(res.html, path).toMatch(/<a[^>]*href="\/"[^>]*>\s*Go back home\s*<\/a>/);
      expect(res.text, path).not.toContain("An Error Occurred");
      expect(textsOf(res.html, "title"), path).toEqual(["Page Not Found | Admin | ClipCut"]);
      // Still the admin layout around it (its sidebar), not the public header.
      expect(res.html, path).toMatch(/href="\/admin\/users"/);
      expect(res.header, path).not.toContain("Try for Free");
    }
  });

  it("keeps the admin error box for a screen that fails for another reason", async () => {
    const cookie = await cookieFor("admin");
    // Earnings reads the payments table; without it the screen's loader fails (the layout's reads still work).
    await env.DB.prepare("ALTER TABLE billing_payments RENAME TO billing_payments_away").run();
    try {
      const res = await page("/admin/earnings", cookie);
      expect(res.status).toBe(500);
      expect(textsOf(res.html, "h1")).toEqual(["An Error Occurred"]);
      expect(res.text).toContain("Something went wrong while loading this page. Please try again.");
      expect(res.text).not.toContain("Page Not Found");
    } finally {
      await env.DB.prepare("ALTER TABLE billing_payments_away RENAME TO billing_payments").run();
    }
  });

  it("keeps the admin guard first: a signed-in non-admin goes to /dashboard, a visitor to /signin", async () => {
    const cookie = await cookieFor();
    const user = await get("/admin/refunds", { cookie });
    expect(user.status).toBe(302);
    expect(user.headers.get("Location")).toBe("/dashboard");
    const anon = await get("/admin/refunds");
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/signin/);
  });
});
