import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dayStats, growthSeries, listUsers, monthActivity, overviewTotals, planDistribution } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { reconcile } from "~/db/ledger.server";
import { userList } from "~/domain/admin";
import { ZERO_DURATION_MESSAGE } from "~/domain/credits";
import { csvCell, csvRow, parseCsv } from "~/domain/csv";
import { INVALID_VIDEO_URL } from "~/domain/video-link";
import { countRows, get, insertUser, post, signIn, expectNotice, outbox } from "./helpers";

const PASSWORD = "admin tests passphrase";
const db = getDb(env.DB);
const DAY = 86_400_000;

async function adminCookie(email: string) {
  await insertUser({ email, password: PASSWORD, role: "admin", credits: 500, plan: "Pro" });
  return signIn(email, PASSWORD);
}

async function insertClip(userId: string, at: number, cost: number, name = "Clip") {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost, created_at) VALUES (?1, ?2, ?2, ?3, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 0, 10, ?4, ?5)",
  )
    .bind(id, userId, name, cost, at)
    .run();
  return id;
}

const ADMIN_PAGES = [
  "/admin",
  "/admin/users",
  "/admin/users/export",
  "/admin/clips",
  "/admin/calendars",
  "/admin/analytics",
  "/admin/reports",
  "/admin/reports/export",
  "/admin/promotions",
  "/admin/payouts",
  "/admin/earnings",
  "/admin/reviews",
  "/admin/export/payouts",
  "/admin/settings",
  "/admin/ledger",
  "/admin/audit",
  "/admin/audit/export",
  "/admin/search?q=a",
  "/admin/create-clip",
];
const ADMIN_ACTIONS: [string, Record<string, string>][] = [
  ["/admin/users", { intent: "ban", userId: crypto.randomUUID() }],
  [
    "/admin/users",
    {
      intent: "add",
      fullName: "X",
      email: "x@example.com",
      role: "admin",
      plan: "Pro",
      credits: "9",
      key: "k".repeat(10),
    },
  ],
  ["/admin/clips", { intent: "delete", clipId: "x" }],
  [
    "/admin/create-clip",
    { name: "n", videoUrl: "https://example.com/", start: "00:00", end: "00:30", key: "k".repeat(10) },
  ],
  ["/admin/settings", { intent: "extension", extensionId: "a".repeat(32) }],
];

describe("admin guard", () => {
  it("every admin loader and action refuses anonymous visitors and non-admins, and changes nothing", async () => {
    await insertUser({ email: "plain@example.com", password: PASSWORD });
    const cookie = await signIn("plain@example.com", PASSWORD);
    for (const path of ADMIN_PAGES) {
      const anon = await get(path);
      expect(anon.status, path).toBe(302);
      expect(anon.headers.get("Location"), path).toMatch(/^\/signin/);
      const user = await get(path, { cookie });
      expect(user.status, path).toBe(302);
      expect(user.headers.get("Location"), path).toBe("/dashboard");
    }
    const before = await countRows(
      "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM clips) + (SELECT count(*) FROM settings) AS n",
    );
    for (const [path, fields] of ADMIN_ACTIONS) {
      const res = await post(path, fields, { cookie });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toBe("/dashboard");
    }
    const after = await countRows(
      "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM clips) + (SELECT count(*) FROM settings) AS n",
    );
    expect(after).toBe(before);
  });

  it("an admin reaches every screen", { timeout: 30_000 }, async () => {
    const cookie = await adminCookie("boss@example.com");
    for (const path of ADMIN_PAGES.filter((p) => p !== "/admin/create-clip")) {
      const res = await get(path, { cookie });
      expect([200, 302], path).toContain(res.status);
      await res.arrayBuffer();
    }
    // The display-only screens share one route: a name it does not know is the 404 page, not an empty screen.
    const unknown = await get("/admin/refunds", { cookie });
    expect(unknown.status).toBe(404);
    const html = await unknown.text();
    expect(html).toMatch(/<h1[^>]*>Page Not Found<\/h1>/);
    expect(html).not.toContain("An Error Occurred");
  });
});

describe("admin aggregates", () => {
  it("match hand-computed values on a fixture", async () => {
    const now = Date.UTC(2026, 5, 15, 12); // 15 June 2026, 12:00 UTC
    await env.DB.prepare("DELETE FROM users").run(); // a clean slate (the file shares one database)
    const ids: string[] = [];
    // Plans: 2 Free + 1 Plugin (counted as Free), 1 Basic, 1 Pro; statuses: 2 online.
    for (const [i, plan, status] of [
      [0, "Free", "online"],
      [1, "Free", "offline"],
      [2, "Plugin", "online"],
      [3, "Basic", "offline"],
      [4, "Pro", "Banned"],
    ] as const) {
      const id = await insertUser({ email: `agg${i}@example.com`, plan, status, credits: 100 });
      await env.DB.prepare("UPDATE users SET created_at = ?, last_seen = ? WHERE id = ?")
        .bind(now - i * DAY, now - 2 * DAY + 3_600_000, id)
        .run();
      ids.push(id);
    }
    const [a, b] = ids as [string, string];
    await insertClip(a, now - 1000, 3); // today
    await insertClip(a, now - DAY, 5); // yesterday
    await insertClip(b, now - DAY - 1000, 7); // yesterday
    await insertClip(b, Date.UTC(2026, 4, 20), 11); // May
    await insertClip(b, Date.UTC(2025, 0, 2), 13); // 17 months ago: outside Month range

    const totals = await overviewTotals(db);
    expect(totals).toMatchObject({ totalUsers: 5, totalClips: 5, creditsUsed: 39, activeUsers: 2, revenueCents: 0 });

    const plans = await planDistribution(db);
    expect(plans).toEqual([
      { plan: "Free", count: 3, percent: 60 },
      { plan: "Basic", count: 1, percent: 20 },
      { plan: "Advanced", count: 0, percent: 0 },
      { plan: "Pro", count: 1, percent: 20 },
    ]);

    const week = await growthSeries(db, "Week", now);
    expect(week).toHaveLength(7);
    expect(week.map((w) => w["Clips Created"])).toEqual([0, 0, 0, 0, 0, 2, 1]);
    expect(week.map((w) => w["New Users"])).toEqual([0, 0, 1, 1, 1, 1, 1]);
    const month = await growthSeries(db, "Month", now);
    expect(month).toHaveLength(12);
    expect(month.at(-1)).toMatchObject({ label: "Jun 26", "Clips Created": 3, "New Users": 5 });
    expect(month.at(-2)).toMatchObject({ label: "May 26", "Clips Created": 1 });
    expect(month.reduce((s, m) => s + m["Clips Created"], 0)).toBe(4);
    const day = await growthSeries(db, "Day", now);
    expect(day).toHaveLength(24);
    expect(day.reduce((s, d) => s + d["Clips Created"], 0)).toBe(1); // the last 24 whole hours: now-24h is outside
    const year = await growthSeries(db, "Year", now);
    expect(year.map((y) => [y.label, y["Clips Created"]])).toEqual([
      ["2025", 1],
      ["2026", 4],
    ]);

    const june = await monthActivity(db, 2026, 5);
    expect(june.clips.get("2026-06-15")).toBe(1);
    expect(june.clips.get("2026-06-14")).toBe(2);
    expect(june.users.get("2026-06-11")).toBe(1);
    const stats = await dayStats(db, Date.UTC(2026, 5, 14));
    expect(stats).toEqual({ clips: 2, creditsUsed: 12, activeUsers: 0, revenueCents: 0 });
    const seen = await dayStats(db, Date.UTC(2026, 5, 13));
    expect(seen.activeUsers).toBe(5);
  });

  it("lists users with search, filters, sort and pages of 10", async () => {
    for (let i = 0; i < 23; i++) {
      await insertUser({
        email: `list${String(i).padStart(2, "0")}@example.com`,
        credits: i * 10,
        plan: i % 2 ? "Basic" : "Free",
      });
    }
    const q = (s: string) => userList.parse(new URLSearchParams(s));
    const all = await listUsers(db, q("q=LIST&sort=credits&dir=desc"));
    expect(all.total).toBe(23);
    expect(all.pages).toBe(3);
    expect(all.rows.map((r) => r.credits)).toEqual([220, 210, 200, 190, 180, 170, 160, 150, 140, 130]);
    const last = await listUsers(db, q("q=list&sort=credits&dir=desc&page=3"));
    expect(last.rows.map((r) => r.credits)).toEqual([20, 10, 0]);
    const filtered = await listUsers(db, q("q=list&plan=Basic&min=50&max=150&sort=email"));
    expect(filtered.rows.map((r) => r.email)).toEqual(
      ["05", "07", "09", "11", "13", "15"].map((n) => `list${n}@example.com`),
    );
    // Bad values fall back to defaults instead of failing.
    expect(q("sort=evil&dir=sideways&page=-4&plan=Gold")).toMatchObject({ sort: "full_name", dir: "asc", page: 1 });
  });
});

describe("CSV", () => {
  it("escapes quotes, commas and newlines and neutralises formulas", () => {
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    for (const evil of ['=HYPERLINK("x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1"]) {
      expect(csvCell(evil).replace(/^"/, "")).toMatch(/^'/);
    }
    expect(csvCell(-5)).toBe("-5");
    const row = csvRow(["a,b", '=cmd|"/c calc"', 3]);
    expect(parseCsv(row)).toEqual([["a,b", `'=cmd|"/c calc"`, "3"]]);
  });

  it("users_export.csv streams the filtered users with neutralised cells", async () => {
    const cookie = await adminCookie("csv-admin@example.com");
    const id = await insertUser({ email: "evil@example.com" });
    await env.DB.prepare("UPDATE users SET full_name = ? WHERE id = ?")
      .bind('=HYPERLINK("http://x","y"), "z"', id)
      .run();
    await insertUser({ email: "other@example.com" });
    const res = await get("/admin/users/export?q=evil", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="users_export.csv"');
    expect(res.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const rows = parseCsv(await res.text());
    expect(rows).toEqual([
      ["ID", "Full Name", "Email", "Role", "Plan", "Credits", "Status"],
      [id, `'=HYPERLINK("http://x","y"), "z"`, "evil@example.com", "user", "Free", "100", "offline"],
    ]);
  });
});

describe("admin credit changes keep the ledger invariant", () => {
  it("editing credits writes one adjust row with the admin as actor and a reason, once per form", async () => {
    const cookie = await adminCookie("editor@example.com");
    const adminId = (await env.DB.prepare("SELECT id FROM users WHERE email = 'editor@example.com'").first<{
      id: string;
    }>())!.id;
    const userId = await insertUser({ email: "edited@example.com", credits: 100 });
    const form = {
      intent: "edit",
      userId,
      fullName: "Edited Person",
      role: "user",
      plan: "Basic",
      credits: "250",
      shownCredits: "100",
      reason: "Support goodwill",
      key: "form-key-123",
      currentPassword: PASSWORD, // step-up for a credit change
    };
    const first = await post("/admin/users", form, { cookie });
    expect(first.status).toBe(302);
    const second = await post("/admin/users", form, { cookie }); // double submit
    expect([200, 302]).toContain(second.status);
    const rows = await env.DB.prepare(
      "SELECT delta, kind, actor_id, description FROM credit_ledger WHERE user_id = ? AND kind = 'adjust'",
    )
      .bind(userId)
      .all<{ delta: number; kind: string; actor_id: string; description: string }>();
    expect(rows.results).toEqual([
      { delta: 150, kind: "adjust", actor_id: adminId, description: "Adjusted by an admin: Support goodwill" },
    ]);
    const user = await env.DB.prepare("SELECT credits, plan, full_name FROM users WHERE id = ?").bind(userId).first();
    expect(user).toEqual({ credits: 250, plan: "Basic", full_name: "Edited Person" });
    expect(await reconcile(db)).toEqual([]);
    // A credit change without a reason is refused and changes nothing.
    const noReason = await post(
      "/admin/users",
      { ...form, credits: "10", shownCredits: "250", reason: "", key: "form-key-456" },
      { cookie },
    );
    expect(noReason.status).toBe(400);
    expect(await countRows("SELECT credits AS n FROM users WHERE id = ?", userId)).toBe(250);
    expect(
      await countRows(
        "SELECT count(*) n FROM audit_log WHERE action = 'admin.credits_adjusted' AND subject_id = ?",
        userId,
      ),
    ).toBe(1);
  });

  it("adding a user sets their credits through the ledger and e-mails a set-password link", async () => {
    const cookie = await adminCookie("adder@example.com");
    const res = await post(
      "/admin/users",
      {
        intent: "add",
        fullName: "New Hire",
        email: "Hire@Example.com",
        role: "user",
        plan: "Free",
        credits: "",
        key: "add-key-0001",
        currentPassword: PASSWORD, // step-up: credits other than the default
      },
      { cookie },
    );
    expect(res.status).toBe(302);
    const user = await env.DB.prepare("SELECT id, credits, email FROM users WHERE email = 'hire@example.com'").first<{
      id: string;
      credits: number;
    }>();
    expect(user?.credits).toBe(0); // blank credits fall back to 0 (spec §5)
    expect(await reconcile(db)).toEqual([]);
    const mail = (await outbox()).find((m) => m.to === "hire@example.com");
    expect(mail?.links[0]).toMatch(/\/reset-password\//);
    const dup = await post(
      "/admin/users",
      {
        intent: "add",
        fullName: "Again",
        email: "hire@example.com",
        role: "user",
        plan: "Free",
        credits: "5",
        key: "add-key-0002",
      },
      { cookie },
    );
    expect(dup.status).toBe(409);
  });

  it("a clip created in the modal charges the admin once per key; deleting it with a refund balances", async () => {
    const cookie = await adminCookie("clipper@example.com");
    const adminId = (await env.DB.prepare("SELECT id FROM users WHERE email = 'clipper@example.com'").first<{
      id: string;
    }>())!.id;
    const form = {
      name: "Goal",
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      start: "00:10",
      end: "01:10",
      quality: "1080p",
      key: "modal-key-0001",
    };
    const [one, two] = await Promise.all([
      post("/admin/create-clip", form, { cookie }),
      post("/admin/create-clip", form, { cookie }),
    ]);
    const bodies = [await one.json(), await two.json()];
    expect(bodies).toEqual([
      { ok: true, cost: 12, message: 'Clip "Goal" created successfully! 12 credits were deducted.' },
      { ok: true, cost: 12, message: 'Clip "Goal" created successfully! 12 credits were deducted.' },
    ]);
    expect(await countRows("SELECT credits AS n FROM users WHERE id = ?", adminId)).toBe(488);
    const clipId = (await env.DB.prepare("SELECT id FROM clips WHERE user_id = ?")
      .bind(adminId)
      .first<{ id: string }>())!.id;

    const zero = await post("/admin/create-clip", { ...form, end: "00:10", key: "modal-key-0002" }, { cookie });
    expect(await zero.json()).toEqual({ ok: false, error: ZERO_DURATION_MESSAGE });
    const backwards = await post("/admin/create-clip", { ...form, end: "00:05", key: "modal-key-0004" }, { cookie });
    expect(await backwards.json()).toEqual({ ok: false, error: ZERO_DURATION_MESSAGE });
    const js = await post(
      "/admin/create-clip",
      { ...form, videoUrl: "javascript:alert(1)", key: "modal-key-0003" },
      { cookie },
    );
    expect(await js.json()).toMatchObject({ ok: false, error: INVALID_VIDEO_URL });
    expect(js.status).toBe(400);

    const del = await post("/admin/clips?q=clip", { intent: "delete", clipId, refund: "on" }, { cookie });
    expectNotice(del, "deleted");
    // The list it came from, and the notice its page shows (it survives a refresh by the live feed).
    const back = del.headers.get("Location") ?? "";
    expect(back).toMatch(/^\/admin\/clips\?q=clip&/);
    const cost = Number(new URL(back, "http://x").searchParams.get("refunded"));
    expect(cost).toBeGreaterThan(0);
    expect(await (await get(back, { cookie })).text()).toContain(`Clip deleted. ${cost} credits were refunded.`);
    expect(await countRows("SELECT count(*) n FROM clips WHERE id = ?", clipId)).toBe(0);
    expect(await countRows("SELECT credits AS n FROM users WHERE id = ?", adminId)).toBe(500);
    // The clip's charge row stays; the refund is a new row.
    expect(await countRows("SELECT count(*) n FROM credit_ledger WHERE clip_id = ?", clipId)).toBe(2);
    expect(await reconcile(db)).toEqual([]);
    expect((await post("/admin/clips", { intent: "delete", clipId, refund: "on" }, { cookie })).status).toBe(404);
  });
});

describe("settings", () => {
  it("saving the extension id upserts it, audits it and reaches a connected page socket", async () => {
    const cookie = await adminCookie("settings-admin@example.com");
    await insertUser({ email: "viewer@example.com", password: PASSWORD });
    const viewer = await signIn("viewer@example.com", PASSWORD);
    const res = await exports.default.fetch(
      new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: viewer } }),
    );
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const got = new Promise<unknown>((resolve) =>
      ws.addEventListener("message", (event) => {
        const msg = JSON.parse(String(event.data)) as { type: string };
        if (msg.type === "settings") resolve(msg);
      }),
    );
    ws.accept();
    ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
    // Presence marks the viewer online once the socket is up.
    await expect
      .poll(() => countRows("SELECT count(*) n FROM users WHERE email = 'viewer@example.com' AND status = 'online'"))
      .toBe(1);
    const id = "abcdefghijklmnopabcdefghijklmnop";
    const save = await post(
      "/admin/settings",
      { intent: "extension", extensionId: id, currentPassword: PASSWORD },
      { cookie },
    );
    expect(save.status).toBe(200);
    expect(await save.text()).toContain("Extension ID saved successfully.");
    const message = await Promise.race([got, new Promise((r) => setTimeout(() => r("timeout"), 3000))]);
    expect(message).toMatchObject({ v: 1, type: "settings", data: { extensionId: id } });
    expect(await env.DB.prepare("SELECT value FROM settings WHERE key = 'extension_id'").first()).toEqual({
      value: id,
    });
    expect(await countRows("SELECT count(*) n FROM audit_log WHERE action = 'admin.settings_updated'")).toBe(1);
    const bad = await post("/admin/settings", { intent: "extension", extensionId: "not-an-id" }, { cookie });
    expect(bad.status).toBe(400);
    ws.close();
  });
});
