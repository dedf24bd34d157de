import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reconcile } from "~/db/ledger.server";
import { getDb } from "~/db/client.server";
import { ZERO_DURATION_MESSAGE } from "~/domain/credits";
import { signinWithNotice } from "~/domain/signin-messages";
import { INVALID_VIDEO_URL } from "~/domain/video-link";
import { countRows, get, insertUser, ORIGIN, post, signIn } from "./helpers";

// The Create Clip dialog as a plain HTML form (no JavaScript): a link opens it, the page's own action takes the post.
const PASSWORD = "create clip form passphrase";

async function admin(email: string, credits = 500) {
  const id = await insertUser({ email, password: PASSWORD, role: "admin", credits, plan: "Pro" });
  return { id, cookie: await signIn(email, PASSWORD) };
}

const form = (key: string, changes: Record<string, string> = {}) => ({
  intent: "create",
  name: "Form goal",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  start: "00:10",
  end: "01:10",
  quality: "1080p",
  key,
  ...changes,
});

/** The text of a page as a reader sees it (React escapes quotes in text). */
const text = async (res: Response) =>
  (await res.text())
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

const credits = (id: string) => countRows("SELECT credits AS n FROM users WHERE id = ?", id);
const clipsOf = (id: string) => countRows("SELECT count(*) AS n FROM clips WHERE user_id = ?", id);

describe("the admin Create Clip form without JavaScript", () => {
  it("opens from a link as a labelled form that posts to the page itself", async () => {
    const { cookie } = await admin("form-open@example.com");
    const list = await text(await get("/admin/clips?q=goal", { cookie }));
    expect(list).toMatch(/<a[^>]*href="\/admin\/clips\?q=goal&modal=create"[^>]*>Create Clip<\/a>/);
    expect(list).not.toContain('role="dialog"');
    const html = await text(await get("/admin/clips?q=goal&modal=create", { cookie }));
    expect(html).toContain('role="dialog"');
    expect(html).toMatch(/<form method="post" action="\/admin\/clips\?q=goal&modal=create"/);
    for (const [id, label] of [
      ["clip-name", "Clip Name"],
      ["clip-url", "YouTube Video URL"],
      ["clip-start", "Start Time (mm:ss)"],
      ["clip-end", "End Time (mm:ss)"],
      ["clip-quality", "Quality"],
    ])
      expect(html).toContain(`<label for="${id}" class="label">${label}</label>`);
    expect(html).toMatch(/<input type="hidden" name="intent" value="create"\/>/);
    // Rendered on the server, the button is enabled: there is no script to enable it later.
    expect(html).toContain('<button type="submit" class="btn-primary">Confirm & Create Clip</button>');
  });

  it("creates the clip through the ledger, once per key, and comes back to the dialog with what was charged", async () => {
    const { id, cookie } = await admin("form-create@example.com");
    const first = await post("/admin/clips?q=goal&modal=create", form("form-key-0001"), { cookie });
    expect(first.status).toBe(302);
    const location = new URL(first.headers.get("Location") ?? "", ORIGIN);
    expect(location.pathname).toBe("/admin/clips");
    expect(location.searchParams.get("q")).toBe("goal");
    expect(location.searchParams.get("modal")).toBe("create");
    const clipId = location.searchParams.get("created");
    expect(await countRows("SELECT count(*) AS n FROM clips WHERE id = ? AND user_id = ?", clipId, id)).toBe(1);
    // 60 s at 1080p: ceil(60 × 0.2) = 12.
    expect(await credits(id)).toBe(488);
    // The same form posted again (a double submit, a reload of the post) charges nothing more.
    const again = await post("/admin/clips?q=goal&modal=create", form("form-key-0001"), { cookie });
    expect(again.status).toBe(302);
    expect(await credits(id)).toBe(488);
    expect(await clipsOf(id)).toBe(1);
    expect(await countRows("SELECT count(*) AS n FROM credit_ledger WHERE clip_id = ?", clipId)).toBe(1);
    expect(await reconcile(getDb(env.DB))).toEqual([]);

    const page = await text(await get(location.pathname + location.search, { cookie }));
    expect(page).toContain('Clip "Form goal" created successfully! 12 credits were deducted.');
    // Listed in the table: the name heads its cell, above what the file is.
    expect(page).toMatch(/<td[^>]*><span[^>]*>Form goal<\/span>/);
  });

  it("the Calendars page takes the same form and charges the same way", async () => {
    const { id, cookie } = await admin("form-calendar@example.com");
    const res = await post("/admin/calendars?modal=create", form("form-key-0002", { quality: "720p" }), { cookie });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location") ?? "", ORIGIN);
    expect(location.pathname).toBe("/admin/calendars");
    expect(await credits(id)).toBe(494); // 60 s at 720p: 6
    const page = await text(await get(location.pathname + location.search, { cookie }));
    expect(page).toContain('Clip "Form goal" created successfully! 6 credits were deducted.');
  });

  it("refuses bad input with a 4xx, the message in the dialog and the fields kept, and changes nothing", async () => {
    const { id, cookie } = await admin("form-invalid@example.com");
    const cases: [Record<string, string>, number, string][] = [
      [{ end: "00:10" }, 422, ZERO_DURATION_MESSAGE],
      [{ end: "00:05" }, 422, ZERO_DURATION_MESSAGE],
      [{ videoUrl: "javascript:alert(1)" }, 400, INVALID_VIDEO_URL],
      [{ name: "   " }, 400, "Clip name is required."],
      [{ key: "short" }, 400, "Please reopen the form and try again."],
    ];
    for (const [changes, status, message] of cases) {
      const res = await post("/admin/clips?modal=create", form(crypto.randomUUID(), changes), { cookie });
      expect(res.status, message).toBe(status);
      const html = await text(res);
      expect(html).toMatch(new RegExp(`role="alert"[^>]*>${message.replace(/[.()]/g, "\\$&")}`));
      expect(html).toContain('role="dialog"');
      if (changes.videoUrl) expect(html).toContain('value="javascript:alert(1)"'); // kept as text, never a link
    }
    expect(await credits(id)).toBe(500);
    expect(await clipsOf(id)).toBe(0);
  });

  it("without enough credits: the spec's message and an Upgrade Plan link; nothing charged", async () => {
    const { id, cookie } = await admin("form-poor@example.com", 3);
    const res = await post("/admin/clips?modal=create", form(crypto.randomUUID()), { cookie });
    expect(res.status).toBe(402);
    const html = await text(res);
    expect(html).toContain("You do not have enough credits to create this clip.");
    expect(html).toMatch(/<a[^>]*href="\/pricing"[^>]*>Upgrade Plan<\/a>/);
    expect(await credits(id)).toBe(3);
    expect(await clipsOf(id)).toBe(0);
  });

  it("a signed-in non-admin is refused and nothing is created", async () => {
    const id = await insertUser({ email: "form-plain@example.com", password: PASSWORD, credits: 500 });
    const cookie = await signIn("form-plain@example.com", PASSWORD);
    for (const path of ["/admin/clips?modal=create", "/admin/calendars?modal=create"]) {
      const res = await post(path, form(crypto.randomUUID()), { cookie });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toBe("/dashboard");
    }
    expect(await credits(id)).toBe(500);
    expect(await clipsOf(id)).toBe(0);
  });

  it("an ended session is told “You must be logged in to create a clip.” on the sign-in page, which leads back", async () => {
    const { id, cookie } = await admin("form-expired@example.com");
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(id).run();
    const res = await post("/admin/clips?modal=create", form(crypto.randomUUID()), { cookie });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location") ?? "", ORIGIN);
    expect(location.pathname).toBe("/signin");
    expect(location.searchParams.get("redirectTo")).toBe("/admin/clips?modal=create");
    const signin = await text(await get(location.pathname + location.search));
    expect(signin).toContain("You must be logged in to create a clip.");
    expect(await clipsOf(id)).toBe(0);
    expect(await credits(id)).toBe(500);
  });

  it("the same post from the enhanced dialog goes to the same sign-in notice, not a message that a reload drops", async () => {
    const { id, cookie } = await admin("form-expired-js@example.com");
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(id).run();
    // The request Remix's client sends for a form (single fetch: the page's URL with .data); a hydrated dialog
    // used to add js=1 and got the message in place, then the page's reload sent it to /signin with no word.
    for (const path of ["/admin/clips.data?modal=create", "/admin/calendars.data?modal=create"]) {
      const res = await post(path, { ...form(crypto.randomUUID()), js: "1" }, { cookie });
      expect(res.status, path).not.toBe(401);
      // Single fetch answers a redirect as data (202) the client follows.
      const body = await res.text();
      const back = path.replace(".data", "");
      expect(body, path).toContain(signinWithNotice("clip_signed_out", back));
    }
    expect(await clipsOf(id)).toBe(0);
    expect(await credits(id)).toBe(500);
  });

  it("the success line shows only for the admin's own clip (a link cannot make one up)", async () => {
    const { cookie } = await admin("form-link@example.com");
    const other = await admin("form-other@example.com");
    const res = await post("/admin/clips?modal=create", form(crypto.randomUUID()), { cookie: other.cookie });
    const created = new URL(res.headers.get("Location") ?? "", ORIGIN).searchParams.get("created");
    expect(created).toBeTruthy();
    const html = await text(await get(`/admin/clips?modal=create&created=${created}`, { cookie }));
    expect(html).not.toContain("created successfully");
    expect(html).toContain('name="intent" value="create"');
  });
});
