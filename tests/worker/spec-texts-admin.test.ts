import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { ADMIN_MESSAGES } from "~/domain/admin";
import { MESSAGES } from "~/domain/messages";
import { describe, expect, it, onTestFinished } from "vitest";
import { get, insertUser, post, signIn } from "./helpers";
import { attributeValues, breadcrumb, textsOf, visibleText } from "./spec-texts";
import worker from "../../workers/local";

// The spec's own words for the admin screens, written out here on purpose (never imported from the app): a changed
// character in the app must fail these tests.

const PASSWORD = "spec texts admin passphrase";
const ALLOWED_EXTENSION_ID = "abcdefghijklmnopabcdefghijklmnop";

let admins = 0;
async function adminCookie() {
  const email = `spec-texts-admin-${++admins}@example.com`;
  await insertUser({ email, password: PASSWORD, role: "admin", plan: "Pro", credits: 500 });
  return signIn(email, PASSWORD);
}

async function page(path: string, cookie: string) {
  const res = await get(path, { cookie });
  const html = await res.text();
  return { status: res.status, html, text: visibleText(html) };
}

/** Later tests read this file's database as empty of clips: a test that adds some takes them away again. */
async function removeUserAndClips(userId: string) {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM clips WHERE user_id = ?").bind(userId),
    env.DB.prepare("DELETE FROM users WHERE id = ?").bind(userId),
  ]);
}

/** Label → value of each stat card, in order. */
function statCards(html: string): [string, string][] {
  const re =
    /<p class="text-sm font-medium text-slate-600">([\s\S]*?)<\/p><p class="mt-2 text-xl[^"]*"[^>]*>([\s\S]*?)<\/p>/g;
  return [...html.matchAll(re)].map((m) => [visibleText(m[1] ?? ""), visibleText(m[2] ?? "")]);
}

describe("the admin screens say the spec's words", () => {
  it("Overviews: breadcrumb, cards and panels", async () => {
    const { status, html } = await page("/admin", await adminCookie());
    expect(status).toBe(200);
    expect(breadcrumb(html)).toBe("Home / Overviews");
    expect(statCards(html).map(([label]) => label)).toEqual([
      "Total Users",
      "Total Clips",
      "Total Credits Used",
      "Total Revenue",
    ]);
    // Nothing was paid: the revenue reads $0.
    expect(statCards(html)[3]).toEqual(["Total Revenue", "$0"]);
    expect(textsOf(html, "h2")).toEqual(
      expect.arrayContaining(["Growth Metrics", "Plan Distribution", "Recent User Signups"]),
    );
    for (const range of ["Month", "Week", "Day"]) expect(visibleText(html)).toContain(range);
    expect(textsOf(html, "th")).toEqual(expect.arrayContaining(["Name", "Email", "Plan", "Status", "Joined On"]));
  });

  it("Overviews that cannot be read: “An Error Occurred” with the message", async () => {
    const cookie = await adminCookie();
    // The admin's ledger has loaded (it answers who is signed in) before the table goes missing.
    expect((await page("/admin", cookie)).status).toBe(200);
    await env.DB.exec("ALTER TABLE clips RENAME TO clips_away");
    try {
      const { status, html } = await page("/admin", cookie);
      expect(status).toBe(500);
      expect(textsOf(html, "h1")).toContain("An Error Occurred");
      expect(visibleText(html)).toContain(
        "An Error Occurred Failed to load dashboard data: the database did not answer. Please try again.",
      );
    } finally {
      await env.DB.exec("ALTER TABLE clips_away RENAME TO clips");
    }
  });

  it("Calendars: breadcrumb, buttons, day cards, chart and the empty day", async () => {
    const { html, text } = await page("/admin/calendars?day=2026-01-15", await adminCookie());
    expect(breadcrumb(html)).toBe("Home / Calendars");
    expect(text).toContain("Generate Reports");
    expect(text).toContain("Create Clip");
    expect(statCards(html)).toEqual([
      ["Clips on Selected Day", "0"],
      ["Credits Used This Day", "0"],
      ["Active Users This Day", "0"],
      ["Revenue This Day", "$0.00"],
    ]);
    expect(textsOf(html, "h2")).toEqual(
      expect.arrayContaining(["Daily Activity for January 2026", "Clips for Jan 15, 2026"]),
    );
    expect(text).toContain("No activity for this period.");
    expect(textsOf(html, "th")).toEqual(
      expect.arrayContaining(["Clip Name", "Created By", "Time", "Status", "Credits Used"]),
    );
    expect(text).toContain("No clips were created on this day.");
  });

  it("Calendars: a 42-cell month grid, six weeks of seven days, Monday first", async () => {
    const cookie = await adminCookie();
    // February 2026 starts on a Sunday, June 2026 on a Monday, February 2021 is four whole weeks from a Monday.
    const months = [
      { day: "2026-02-10", first: "2026-01-26", last: "2026-03-08" },
      { day: "2026-06-30", first: "2026-06-01", last: "2026-07-12" },
      { day: "2021-02-01", first: "2021-02-01", last: "2021-03-14" },
    ];
    for (const { day, first, last } of months) {
      const { html } = await page(`/admin/calendars?day=${day}`, cookie);
      const grid = html.match(/<div[^>]*role="grid"[\s\S]*?(?=<\/div><\/div><\/div>)/)?.[0] ?? "";
      expect(textsOf(grid, "div", 'role="columnheader"'), day).toEqual([
        "Mon",
        "Tue",
        "Wed",
        "Thu",
        "Fri",
        "Sat",
        "Sun",
      ]);
      expect(grid.match(/role="row"/g), day).toHaveLength(7); // the weekday names and six weeks
      const cells = [...grid.matchAll(/role="gridcell"[\s\S]*?data-day="([^"]+)"/g)].map((m) => m[1] ?? "");
      expect(cells, day).toHaveLength(42);
      expect([cells[0], cells[41]], day).toEqual([first, last]);
      // One day after another, and every cell in the first column a Monday.
      for (let i = 1; i < 42; i++)
        expect(Date.parse(cells[i] ?? "") - Date.parse(cells[i - 1] ?? ""), day).toBe(86_400_000);
      for (let i = 0; i < 42; i += 7) expect(new Date(cells[i] ?? "").getUTCDay(), day).toBe(1);
    }
  });

  it("Calendars: a day whose stats cannot be read shows zeros, and the rest of the page still shows", async () => {
    const cookie = await adminCookie();
    const owner = await insertUser({ email: `calendar-${++admins}@example.com` });
    onTestFinished(() => removeUserAndClips(owner));
    await env.DB.prepare(
      "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost, created_at) VALUES (?1, ?2, ?2, 'Stats-less clip', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 0, 10, 6, ?3)",
    )
      .bind(crypto.randomUUID(), owner, Date.UTC(2025, 2, 12, 9))
      .run();
    const before = await page("/admin/calendars?day=2025-03-12", cookie);
    expect(statCards(before.html).slice(0, 2)).toEqual([
      ["Clips on Selected Day", "1"],
      ["Credits Used This Day", "6"],
    ]);
    // The day's stats read the payments table; without it only they fail.
    await env.DB.exec("ALTER TABLE billing_payments RENAME TO billing_payments_away");
    try {
      const { status, html, text } = await page("/admin/calendars?day=2025-03-12", cookie);
      expect(status).toBe(200);
      expect(statCards(html)).toEqual([
        ["Clips on Selected Day", "0"],
        ["Credits Used This Day", "0"],
        ["Active Users This Day", "0"],
        ["Revenue This Day", "$0.00"],
      ]);
      expect(text).not.toContain("An Error Occurred");
      expect(textsOf(html, "h2")).toContain("Clips for Mar 12, 2025");
      expect(text).toContain("Stats-less clip");
    } finally {
      await env.DB.exec("ALTER TABLE billing_payments_away RENAME TO billing_payments");
    }
  });

  it("Analytics: the four cards with the totals they hold, and the growth chart", async () => {
    const cookie = await adminCookie();
    const owner = await insertUser({ email: `analytics-${++admins}@example.com`, status: "online" });
    onTestFinished(() => removeUserAndClips(owner));
    for (const cost of [3, 4])
      await env.DB.prepare(
        "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost, created_at) VALUES (?1, ?2, ?2, 'Card clip', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 0, 10, ?3, ?4)",
      )
        .bind(crypto.randomUUID(), owner, cost, Date.now())
        .run();
    // Counted here in plain SQL, apart from the app's queries.
    const totals = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM clips) AS clips, (SELECT coalesce(sum(cost), 0) FROM clips) AS used, (SELECT count(*) FROM users WHERE status = 'online') AS online",
    ).first<{ clips: number; used: number; online: number }>();
    expect(totals?.clips).toBeGreaterThanOrEqual(2);
    const { status, html } = await page("/admin/analytics", cookie);
    expect(status).toBe(200);
    expect(breadcrumb(html)).toBe("Home / Analytics");
    expect(statCards(html)).toEqual([
      ["Total Clips Created", String(totals?.clips)],
      ["Total Revenue", "$0"],
      ["Active Users", String(totals?.online)],
      ["Credits Used", String(totals?.used)],
    ]);
    expect(textsOf(html, "h2")).toContain("Growth Overview");
    for (const range of ["Day", "Week", "Month", "Year"]) expect(visibleText(html)).toContain(range);
  });

  it("Clip Management's search box has the spec's placeholder", async () => {
    const { html } = await page("/admin/clips", await adminCookie());
    expect(attributeValues(html, "placeholder")).toContain("Search by clip name, user name, or email...");
    expect(textsOf(html, "th")).toEqual(expect.arrayContaining(["Clip Name", "Created By", "Date", "Cost", "Actions"]));
  });

  it("Promotions, Payouts, Earnings and Reviews: search placeholders, cards, columns and empty lists", async () => {
    const cookie = await adminCookie();
    const promotions = await page("/admin/promotions", cookie);
    expect(promotions.text).toContain("Add Promotion");
    expect(attributeValues(promotions.html, "placeholder")).toContain("Search code...");
    expect(statCards(promotions.html).map(([label]) => label)).toEqual([
      "Discount Codes Active",
      "Referral Links Created",
      "Sales from Promotions",
    ]);
    expect(textsOf(promotions.html, "th")).toEqual(["No", "Code", "Discount", "Used", "Expiry Date", "Status"]);
    expect(promotions.text).toContain("No promotions found.");

    const payouts = await page("/admin/payouts", cookie);
    expect(payouts.text).toContain("Export CSV");
    expect(attributeValues(payouts.html, "placeholder")).toContain("Search affiliate...");
    expect(statCards(payouts.html).map(([label]) => label)).toEqual([
      "Total Payouts",
      "Pending Requests",
      "Approved This Month",
      "Rejected Requests",
    ]);
    expect(textsOf(payouts.html, "th")).toEqual([
      "No",
      "Affiliate",
      "Amount",
      "Requested On",
      "Status",
      "Processed On",
      "Actions",
    ]);
    expect(payouts.text).toContain("No payouts found.");

    const earnings = await page("/admin/earnings", cookie);
    expect(earnings.text).toContain("Request Payout");
    expect(statCards(earnings.html)).toEqual([
      ["Total Revenue", "$0"],
      ["Total Payouts", "$0"],
      ["Pending Payouts", "$0"],
      ["Available Balance", "$0"],
    ]);
    expect(textsOf(earnings.html, "th")).toEqual([
      "Event Name",
      "Tickets Sold",
      "Revenue",
      "Platform Fee",
      "Net Earnings",
      "Status",
    ]);
    expect(earnings.text).toContain("No earnings data available.");

    const reviews = await page("/admin/reviews", cookie);
    expect(reviews.text).toContain("Export CSV");
    expect(statCards(reviews.html)).toEqual([
      ["Average Rating", "0 / 5"],
      ["Total Reviews", "0"],
      ["Positive Reviews", "0"],
      ["Negative Reviews", "0"],
    ]);
    expect(textsOf(reviews.html, "th")).toEqual([
      "Attendee Name",
      "Event Name",
      "Rating",
      "Review",
      "Date",
      "Visibility",
    ]);
    expect(reviews.text).toContain("No reviews found.");
  });

  it("Usage Reports: cards, the transactions table and its empty text", async () => {
    const { html, text } = await page("/admin/reports", await adminCookie());
    expect(text).toContain("Export CSV");
    expect(statCards(html)).toEqual([
      ["Total Revenue", "$0"],
      ["Clips Created", "0"],
      ["Credits Used", "0"],
      ["Total Payouts", "$0"],
    ]);
    expect(textsOf(html, "h2")).toContain("Recent Transactions (Clips)");
    expect(textsOf(html, "th")).toEqual(
      expect.arrayContaining(["Clip Name", "User", "Credits Used", "Date", "Status"]),
    );
    expect(text).toContain("No transactions found.");
  });
});

describe("Users and Clip Management say the spec's words", () => {
  it("the header's “Super Admin”, “No users found.” and the pager's line for a search that finds nobody", async () => {
    const { html, text } = await page("/admin/users?q=nobody-has-this-name", await adminCookie());
    expect(textsOf(html, "span")).toContain("Super Admin");
    expect(text).toContain("No users found.");
    expect(text).toContain("Showing 0 to 0 of 0 results");
  });

  it("a delete that cannot be done says “Failed to delete clip.”", async () => {
    const res = await post("/admin/clips", { intent: "delete", clipId: "" }, { cookie: await adminCookie() });
    expect(res.status).toBe(400);
    expect(textsOf(await res.text(), "p", 'role="alert"')).toEqual(["Failed to delete clip."]);
  });
});

// Shown only by the browser (a confirm() dialog) or only on failures a request cannot cause: the texts themselves.
describe("Users when the list cannot be read", () => {
  it("shows “An Error Occurred” with the spec's message and a 500, inside the admin layout", async () => {
    const cookie = await adminCookie();
    // D1 answers the list's count with a real error (its table name is changed on the way); every other query of the
    // request (the session, the layout) reaches the real table.
    const failingDb = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare")
          return (query: string) =>
            target.prepare(
              query.replace(/^select count\(\*\) from "users"/, 'select count(*) from "users_unreadable"'),
            );
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request("http://localhost/admin/users", { headers: { Cookie: cookie } }) as Parameters<
        typeof worker.fetch
      >[0],
      { ...env, DB: failingDb },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(textsOf(html, "h1")).toEqual(["An Error Occurred"]);
    expect(visibleText(html)).toContain(
      "An Error Occurred Failed to load user data. Please ensure the database functions are set up correctly.",
    );
    expect(html).not.toContain("users_unreadable"); // no database detail reaches the page
    expect(html).toMatch(/href="\/admin\/calendars"/); // the admin sidebar is still there
    // The same request against the real database lists the users.
    expect((await get("/admin/users", { cookie })).status).toBe(200);
  });
});

describe("Usage Reports when its transactions cannot be read", () => {
  it("logs it and shows the page with an empty transactions table, not an error page", async () => {
    const cookie = await adminCookie();
    const owner = await insertUser({ email: `reports-${++admins}@example.com` });
    onTestFinished(() => removeUserAndClips(owner));
    await env.DB.prepare(
      "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost, created_at) VALUES (?1, ?2, ?2, 'Listed transaction', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 0, 10, 2, ?3)",
    )
      .bind(crypto.randomUUID(), owner, Date.now())
      .run();
    const before = await page("/admin/reports", cookie);
    expect(before.text).toContain("Listed transaction");
    // Only the transactions list reads a clip's status: without that column only it fails.
    await env.DB.exec("ALTER TABLE clips RENAME COLUMN status TO status_away");
    try {
      const { status, html, text } = await page("/admin/reports", cookie);
      expect(status).toBe(200);
      expect(text).not.toContain("An Error Occurred");
      expect(textsOf(html, "h2")).toEqual(
        expect.arrayContaining(["Credit Usage by Month", "Recent Transactions (Clips)"]),
      );
      expect(text).toContain("No transactions found.");
      expect(text).not.toContain("Listed transaction");
      expect(statCards(html).map(([label]) => label)).toEqual([
        "Total Revenue",
        "Clips Created",
        "Credits Used",
        "Total Payouts",
      ]);
    } finally {
      await env.DB.exec("ALTER TABLE clips RENAME COLUMN status_away TO status");
    }
  });
});

describe("the catalogue's texts that only the browser or a rare failure shows", () => {
  it("are the spec's words", () => {
    expect(ADMIN_MESSAGES.deleteClipConfirm).toBe(
      "Are you sure you want to delete this clip? This action cannot be undone.",
    );
    expect(ADMIN_MESSAGES.banConfirm("Ada Lovelace")).toBe(
      "Are you sure you want to ban Ada Lovelace? This will mark their account as 'Banned'.",
    );
    expect(ADMIN_MESSAGES.clipError).toBe("An error occurred while processing your clip. Please try again.");
    expect(ADMIN_MESSAGES.usersLoadFailed).toBe(
      "Failed to load user data. Please ensure the database functions are set up correctly.",
    );
    expect(MESSAGES.signupFailed).toBe("An unexpected error occurred during sign up. Please try again.");
  });
});

describe("Settings says the spec's words", () => {
  it("tabs, buttons, the extension card and the account form", async () => {
    const { html, text } = await page("/admin/settings", await adminCookie());
    const buttons = textsOf(html, "button");
    expect(buttons).toEqual(
      expect.arrayContaining([
        "General",
        "Plan & Pricing",
        "My Account",
        "Payment & Billing",
        "Tax & Duties",
        "Link Account",
        "Time & Language",
        "Password",
        "Notifications",
        "Cancel",
        "Save Change",
        "Save Changes",
      ]),
    );
    expect(textsOf(html, "h2")).toEqual(expect.arrayContaining(["Extension Configuration", "Account Details"]));
    expect(textsOf(html, "label")).toEqual(
      expect.arrayContaining([
        "Chrome Extension ID",
        "Company Name *",
        "Payment Method *",
        "Currency *",
        "Address Name *",
        "Country or Region *",
        "City *",
        "Address *",
        "Postal Code *",
      ]),
    );
    expect(textsOf(html, "option")).toEqual(expect.arrayContaining(["US Dollar", "United States"]));
    expect(text).not.toContain("Database Setup Required");
  });

  it("a saved extension ID answers the spec's success text", async () => {
    const res = await post(
      "/admin/settings",
      { intent: "extension", extensionId: ALLOWED_EXTENSION_ID, currentPassword: PASSWORD },
      { cookie: await adminCookie() },
    );
    expect(res.status).toBe(200);
    expect(textsOf(await res.text(), "p", 'role="status"')).toContain(
      "Extension ID saved successfully. The app will now use this ID for new user sessions.",
    );
  });

  it("a refused save says “Failed to save extension ID: …” with the spec's advice", async () => {
    const cookie = await adminCookie();
    await env.DB.exec(
      "CREATE TRIGGER spec_texts_refuse_settings BEFORE INSERT ON settings BEGIN SELECT RAISE(ABORT, 'refused by test'); END",
    );
    try {
      const res = await post(
        "/admin/settings",
        { intent: "extension", extensionId: ALLOWED_EXTENSION_ID, currentPassword: PASSWORD },
        { cookie },
      );
      expect(res.status).toBe(500);
      expect(textsOf(await res.text(), "p", 'role="alert"')).toContain(
        "Failed to save extension ID: the database refused the change. Ensure your 'settings' table has appropriate RLS policies configured for admins.",
      );
    } finally {
      await env.DB.exec("DROP TRIGGER spec_texts_refuse_settings");
    }
  });

  it("a settings table that cannot be read says “Failed to load extension ID.”", async () => {
    const cookie = await adminCookie();
    // A view that fails when read (SQLite's abs() of the smallest integer overflows): a read error, not a missing table.
    await env.DB.exec("ALTER TABLE settings RENAME TO settings_away");
    await env.DB.exec(
      "CREATE VIEW settings AS SELECT key, value, updated_at FROM settings_away WHERE abs(-9223372036854775807 - 1) > 0",
    );
    try {
      const { html, text } = await page("/admin/settings", cookie);
      expect(textsOf(html, "p", 'role="alert"')).toContain("Failed to load extension ID.");
      expect(text).not.toContain("Database Setup Required");
    } finally {
      await env.DB.exec("DROP VIEW settings");
      await env.DB.exec("ALTER TABLE settings_away RENAME TO settings");
    }
  });

  it("a missing settings table shows “Database Setup Required” with the script, Copy and a refresh link", async () => {
    const cookie = await adminCookie();
    await env.DB.exec("ALTER TABLE settings RENAME TO settings_away");
    try {
      const { html } = await page("/admin/settings", cookie);
      expect(textsOf(html, "h2")).toContain("Database Setup Required");
      expect(visibleText(html)).toContain("CREATE TABLE IF NOT EXISTS settings");
      expect(textsOf(html, "button")).toContain("Copy");
      expect(html).toMatch(/<a href="\/admin\/settings"[^>]*>Refresh<\/a>/);
    } finally {
      await env.DB.exec("ALTER TABLE settings_away RENAME TO settings");
    }
  });
});
