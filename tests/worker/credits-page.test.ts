import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CREDIT_HISTORY_FAILED_MESSAGE } from "~/domain/credits";
import { get, insertUser, signIn } from "./helpers";

const PASSWORD = "credits page passphrase";

describe("/credits", () => {
  it("shows the balance and the history", async () => {
    await insertUser({ email: "history@example.com", password: PASSWORD, credits: 120 });
    const res = await get("/credits", { cookie: await signIn("history@example.com", PASSWORD) });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Welcome credits");
    expect(html).not.toContain(CREDIT_HISTORY_FAILED_MESSAGE);
  });

  it("when the history cannot be read, still shows the page with the error box, not an error page", async () => {
    await insertUser({ email: "no-history@example.com", password: PASSWORD, credits: 120 });
    const cookie = await signIn("no-history@example.com", PASSWORD);
    // The history's table goes missing for this one request (this file has its own database).
    await env.DB.exec("ALTER TABLE credit_ledger RENAME TO credit_ledger_away");
    try {
      const res = await get("/credits", { cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/role="alert"[^>]*>Your credit history could not be loaded\. Please reload the page/);
      expect(html).toContain('data-testid="credit-balance"');
      expect(html).toContain("Buy More Credits");
    } finally {
      await env.DB.exec("ALTER TABLE credit_ledger_away RENAME TO credit_ledger");
    }
  });
});
