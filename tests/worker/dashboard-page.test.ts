import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RECENT_CLIPS_FAILED_MESSAGE } from "~/domain/messages";
import { get, insertUser, signIn } from "./helpers";

const PASSWORD = "dashboard page passphrase";

describe("/dashboard", () => {
  it("when the recent clips cannot be read, shows the page with the spec's error text, not a server error", async () => {
    await insertUser({ email: "no-recent@example.com", password: PASSWORD, credits: 40 });
    const cookie = await signIn("no-recent@example.com", PASSWORD);
    // The user's ledger has loaded (it answers who is signed in) before the table goes missing.
    expect((await get("/dashboard", { cookie })).status).toBe(200);
    // The clips table goes missing for this one request (this file has its own database).
    await env.DB.exec("ALTER TABLE clips RENAME TO clips_away");
    try {
      const res = await get("/dashboard", { cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(RECENT_CLIPS_FAILED_MESSAGE).toContain("An unexpected error occurred.");
      expect(html).toContain('role="alert"');
      expect(html).toContain(RECENT_CLIPS_FAILED_MESSAGE);
      expect(html).not.toContain("Unexpected Server Error");
      expect(html).not.toMatch(/no such table|SQLITE|clips_away/i);
      expect(html).toContain('data-testid="credit-balance"');
    } finally {
      await env.DB.exec("ALTER TABLE clips_away RENAME TO clips");
    }
  });

  it("lists the recent clips when they can be read", async () => {
    const userId = await insertUser({ email: "recent@example.com", password: PASSWORD, credits: 40 });
    await env.DB.prepare(
      "INSERT INTO clips (id, user_id, payer_id, name, video_url, start_time_seconds, end_time_seconds, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
      .bind("clip-recent-1", userId, userId, "Harbour sunset", "https://example.com/a.mp4", 0, 65, 3)
      .run();
    const html = await (await get("/dashboard", { cookie: await signIn("recent@example.com", PASSWORD) })).text();
    expect(html).toContain("Harbour sunset");
    expect(html).not.toContain(RECENT_CLIPS_FAILED_MESSAGE);
  });
});
