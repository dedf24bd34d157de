import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseCsv } from "~/domain/csv";
import { SITE } from "~/domain/site";
import { countRows, expectNotice, get, insertUser, ORIGIN, outbox, post, signIn } from "./helpers";

// The contact form and "Notify Me" sign-ups reach someone: stored, support e-mailed, an admin Inbox that replies.
const PASSWORD = "inbox tests passphrase";

const message = (changes: Record<string, string> = {}) => ({
  name: "Ada Lovelace",
  email: "ada@example.com",
  topic: "Billing",
  message: "My invoice shows the wrong plan.\nCould you check it?",
  ...changes,
});

const contact = (fields: Record<string, string>, ip: string) => post("/contact", fields, { ip });
const notify = (email: string, ip: string) => post("/download", { email }, { ip });

async function admin(email: string) {
  await insertUser({ email, password: PASSWORD, role: "admin" });
  return signIn(email, PASSWORD);
}

const idOf = async (email: string) =>
  (
    await env.DB.prepare("SELECT id FROM contact_messages WHERE email = ? ORDER BY created_at DESC")
      .bind(email)
      .first<{ id: string }>()
  )?.id ?? "";
const statusOf = async (id: string) =>
  (await env.DB.prepare("SELECT status FROM contact_messages WHERE id = ?").bind(id).first<{ status: string }>())
    ?.status;

/** A page's text as a reader sees it (React escapes quotes). */
const text = async (res: Response) =>
  (await res.text())
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

describe("a contact message", () => {
  it("is stored as new and e-mailed to support with the words and a link to it in the Inbox", async () => {
    const res = await contact(message({ email: "stored@example.com" }), "203.0.113.10");
    expect(res.status).toBe(200);
    const id = await idOf("stored@example.com");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await statusOf(id)).toBe("new");
    const mail = (await outbox()).find((m) => m.to === SITE.supportEmail && m.text.includes("stored@example.com"));
    expect(mail?.subject).toBe("[Contact] Billing from Ada Lovelace");
    expect(mail?.text).toContain("My invoice shows the wrong plan.\nCould you check it?");
    expect(mail?.links).toEqual([`${ORIGIN}/admin/inbox/${id}`]);
  });

  it("is refused with the form's field messages when invalid: nothing stored, nobody e-mailed", async () => {
    const before = (await outbox()).length;
    const res = await contact(message({ email: "bad@", message: "short" }), "203.0.113.11");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please enter a valid email address.");
    expect(html).toContain("Please write at least 10 characters.");
    expect(await countRows("SELECT count(*) AS n FROM contact_messages WHERE email = 'bad@'")).toBe(0);
    expect((await outbox()).length).toBe(before);
  });

  it("is limited per e-mail address too: the same address from many IPs gets 429 after three", async () => {
    const email = "many-ips@example.com";
    for (let i = 0; i < 3; i++) expect((await contact(message({ email }), `198.51.100.${20 + i}`)).status).toBe(200);
    const blocked = await contact(message({ email }), "198.51.100.30");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await blocked.text()).toContain("Too many attempts");
    expect(await countRows("SELECT count(*) AS n FROM contact_messages WHERE email = ?", email)).toBe(3);
    expect((await outbox()).filter((m) => m.to === SITE.supportEmail && m.text.includes(email))).toHaveLength(3);
    // Another address from that IP still goes through.
    expect((await contact(message({ email: "other@example.com" }), "198.51.100.30")).status).toBe(200);
  });
});

describe("Notify Me sign-ups", () => {
  it("are stored once per address and limited per address across IPs", async () => {
    const email = "safari-fan@example.com";
    for (let i = 0; i < 3; i++) expect((await notify(email, `198.51.100.${40 + i}`)).status).toBe(200);
    expect(await countRows("SELECT count(*) AS n FROM notify_requests WHERE email = ?", email)).toBe(1);
    const blocked = await notify(email, "198.51.100.50");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await notify("another-fan@example.com", "198.51.100.50")).status).toBe(200);
  });

  it("export as CSV for admins: every address, oldest first, spreadsheet formulas defused", async () => {
    const cookie = await admin("csv-admin@example.com");
    await notify("+csv-first@example.com", "198.51.100.60");
    await notify("csv-second@example.com", "198.51.100.61");
    const res = await get("/admin/inbox/notify-export", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="notify_me_signups.csv"');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual(["Email", "Product", "Signed Up (UTC)"]);
    const emails = rows.slice(1).map((r) => r[0]);
    expect(emails).toContain("'+csv-first@example.com");
    expect(emails.indexOf("'+csv-first@example.com")).toBeLessThan(emails.indexOf("csv-second@example.com"));
    expect(rows.slice(1).every((r) => r[1] === "safari" && !Number.isNaN(Date.parse(r[2] ?? "")))).toBe(true);
  });
});

describe("the admin Inbox", () => {
  it("is for admins only: signed out to /signin, a creator to /dashboard, and a creator's reply changes nothing", async () => {
    await contact(message({ email: "guarded@example.com" }), "203.0.113.20");
    const id = await idOf("guarded@example.com");
    await insertUser({ email: "creator-inbox@example.com", password: PASSWORD });
    const creator = await signIn("creator-inbox@example.com", PASSWORD);
    for (const path of ["/admin/inbox", `/admin/inbox/${id}`, "/admin/inbox/notify-export"]) {
      const anonymous = await get(path);
      expect(anonymous.status, path).toBe(302);
      expect(new URL(anonymous.headers.get("Location") ?? "", ORIGIN).pathname, path).toBe("/signin");
      const user = await get(path, { cookie: creator });
      expect(user.status, path).toBe(302);
      expect(user.headers.get("Location"), path).toBe("/dashboard");
    }
    const before = (await outbox()).length;
    const res = await post(`/admin/inbox/${id}`, { intent: "reply", body: "Sneaky reply" }, { cookie: creator });
    expect(res.headers.get("Location")).toBe("/dashboard");
    expect((await outbox()).length).toBe(before);
    expect(await statusOf(id)).toBe("new");
  });

  it("lists messages newest first with their status, filters by status, and opens one as a page", async () => {
    const cookie = await admin("list-admin@example.com");
    await contact(message({ name: "First Sender", email: "first@example.com" }), "203.0.113.30");
    await contact(message({ name: "Second Sender", email: "second@example.com", topic: "Feedback" }), "203.0.113.31");
    const html = await text(await get("/admin/inbox", { cookie }));
    expect(html).toContain("<h1");
    expect(html.indexOf("Second Sender")).toBeLessThan(html.indexOf("First Sender"));
    expect(html).toMatch(/href="\/admin\/inbox\/[0-9a-f-]{36}"/);
    expect(html).toContain(">New</span>");
    expect(html).toContain('href="/admin/inbox"'); // the sidebar's entry
    const id = await idOf("first@example.com");
    await env.DB.prepare("UPDATE contact_messages SET status = 'closed' WHERE id = ?").bind(id).run();
    const closed = await text(await get("/admin/inbox?status=closed", { cookie }));
    expect(closed).toContain("First Sender");
    expect(closed).not.toContain("Second Sender");
    const page = await text(await get(`/admin/inbox/${id}`, { cookie }));
    expect(page).toContain("My invoice shows the wrong plan.\nCould you check it?");
    // A plain form: it works without JavaScript.
    expect(page).toMatch(/<form method="post" action="\/admin\/inbox\/[0-9a-f-]{36}"/);
    expect(page).toMatch(/<label for="reply-body" class="label">Your reply to (<!-- -->)?first@example.com<\/label>/);
    expect((await get(`/admin/inbox/${crypto.randomUUID()}`, { cookie })).status).toBe(404);
    expect((await get("/admin/inbox/not-an-id", { cookie })).status).toBe(404);
  });

  it("a reply is e-mailed to the sender, recorded, marks the message answered and goes into the audit log", async () => {
    const cookie = await admin("reply-admin@example.com");
    await contact(message({ email: "asker@example.com" }), "203.0.113.40");
    const id = await idOf("asker@example.com");
    const res = await post(`/admin/inbox/${id}`, { intent: "reply", body: "Fixed: you are on Basic now." }, { cookie });
    expectNotice(res, "replied");
    expect(new URL(res.headers.get("Location") ?? "", ORIGIN).pathname).toBe(`/admin/inbox/${id}`);
    const mail = (await outbox()).find((m) => m.to === "asker@example.com");
    expect(mail?.subject).toBe("Re: your message to ClipCut (Billing)");
    expect(mail?.text).toContain("Fixed: you are on Basic now.");
    expect(mail?.text).toContain("> My invoice shows the wrong plan.\n> Could you check it?");
    expect(await statusOf(id)).toBe("answered");
    expect(await countRows("SELECT count(*) AS n FROM contact_replies WHERE message_id = ?", id)).toBe(1);
    expect(
      await countRows(
        "SELECT count(*) AS n FROM audit_log a JOIN users u ON u.id = a.actor_id WHERE a.action = 'admin.contact_replied' AND a.subject_id = ? AND u.email = 'reply-admin@example.com'",
        id,
      ),
    ).toBe(1);
    const page = await text(await get(`/admin/inbox/${id}?notice=replied`, { cookie }));
    expect(page).toContain("Reply sent to asker@example.com. The message is marked answered.");
    expect(page).toContain("Fixed: you are on Basic now.");
    expect(page).toContain(">Answered</span>");
  });

  it("refuses an empty reply or an unknown message with a 4xx: nothing sent, nothing changed", async () => {
    const cookie = await admin("refuse-admin@example.com");
    await contact(message({ email: "refused@example.com" }), "203.0.113.50");
    const id = await idOf("refused@example.com");
    const before = (await outbox()).length;
    const empty = await post(`/admin/inbox/${id}`, { intent: "reply", body: "   " }, { cookie });
    expect(empty.status).toBe(400);
    expect(await text(empty)).toContain("Please write a reply.");
    const unknown = await post(`/admin/inbox/${crypto.randomUUID()}`, { intent: "reply", body: "Hello" }, { cookie });
    expect(unknown.status).toBe(404);
    const bad = await post(`/admin/inbox/${id}`, { intent: "delete" }, { cookie });
    expect(bad.status).toBe(400);
    expect((await outbox()).length).toBe(before);
    expect(await statusOf(id)).toBe("new");
    expect(await countRows("SELECT count(*) AS n FROM audit_log WHERE subject_id = ?", id)).toBe(0);
  });

  it("closes and reopens a message (back to new, or answered once replied), each in the audit log", async () => {
    const cookie = await admin("close-admin@example.com");
    await contact(message({ email: "closer@example.com" }), "203.0.113.60");
    const id = await idOf("closer@example.com");
    expectNotice(await post(`/admin/inbox/${id}`, { intent: "close" }, { cookie }), "closed");
    expect(await statusOf(id)).toBe("closed");
    expect((await post(`/admin/inbox/${id}`, { intent: "close" }, { cookie })).status).toBe(409);
    expectNotice(await post(`/admin/inbox/${id}`, { intent: "reopen" }, { cookie }), "reopened");
    expect(await statusOf(id)).toBe("new");
    await post(`/admin/inbox/${id}`, { intent: "reply", body: "Answered now." }, { cookie });
    await post(`/admin/inbox/${id}`, { intent: "close" }, { cookie });
    await post(`/admin/inbox/${id}`, { intent: "reopen" }, { cookie });
    expect(await statusOf(id)).toBe("answered");
    const actions = await env.DB.prepare("SELECT action FROM audit_log WHERE subject_id = ? ORDER BY created_at, rowid")
      .bind(id)
      .all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual([
      "admin.contact_closed",
      "admin.contact_reopened",
      "admin.contact_replied",
      "admin.contact_closed",
      "admin.contact_reopened",
    ]);
  });
});
