import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { CREDIT_HISTORY_FAILED_MESSAGE } from "~/domain/credits";
import { issueApiToken } from "~/services/api-tokens.server";
import { get, insertUser, signIn } from "./helpers";
import { textsOf, visibleText } from "./spec-texts";

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
    // The user's ledger has loaded (it answers who is signed in) before the table goes missing.
    expect((await get("/credits", { cookie })).status).toBe(200);
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

describe("/credits history and allowance bar", () => {
  it(`lists a clip's charge as “Clip Creation: "{name}"” with its negative amount and the balance after it`, async () => {
    const userId = await insertUser({ email: "charged@example.com", password: PASSWORD, credits: 100 });
    const cookie = await signIn("charged@example.com", PASSWORD);
    const token = await issueApiToken(getDb(env.DB), userId, "credits-page");
    const made = await exports.default.fetch(
      new Request("http://localhost/api/v1/clips", {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Idempotency-Key": crypto.randomUUID(),
        },
        // 15 s at 720p: 2 credits.
        body: JSON.stringify({
          name: "Goal of the season",
          videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
          startSeconds: 10,
          endSeconds: 25,
          format: "mp4",
          quality: "720p",
        }),
      }),
    );
    expect(made.status).toBe(201);

    const html = await (await get("/credits", { cookie })).text();
    const rows = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => textsOf(m[1] ?? "", "td"));
    const charge = rows.find((cells) => cells[1]?.startsWith("Clip Creation"));
    expect(charge?.slice(1)).toEqual(['Clip Creation: "Goal of the season"', "-2", "98"]);
    // The charge is drawn as a debit (red), the welcome grant as a credit (green, with a plus sign).
    expect(html).toMatch(/<td class="[^"]*text-red-700[^"]*">-2<\/td>/);
    expect(rows.find((cells) => cells[1] === "Welcome credits")?.slice(2)).toEqual(["+100", "100"]);
  });

  // The spec's allowances: Free 100, Basic 500, Advanced 2000, Pro 10000; the bar is the balance over it, capped.
  const cases = [
    { plan: "Free", credits: 40, allowance: "100", width: "40%", now: "40" },
    { plan: "Plugin", credits: 150, allowance: "100", width: "100%", now: "100" },
    { plan: "Basic", credits: 125, allowance: "500", width: "25%", now: "125" },
    { plan: "Advanced", credits: 300, allowance: "2,000", width: "15%", now: "300" },
    { plan: "Pro", credits: 1234, allowance: "10,000", width: "12%", now: "1234" },
  ];
  for (const { plan, credits, allowance, width, now } of cases) {
    it(`${plan} with ${credits} credits: the bar is ${width} of ${allowance}`, async () => {
      const email = `bar-${plan.toLowerCase()}@example.com`;
      await insertUser({ email, password: PASSWORD, credits, plan });
      const html = await (await get("/credits", { cookie: await signIn(email, PASSWORD) })).text();
      const bar = html.match(/<div[^>]*role="progressbar"[^>]*>\s*<div[^>]*style="([^"]*)"/);
      expect(bar?.[0]).toContain('aria-label="Credits against your plan allowance"');
      expect(bar?.[0]).toContain(`aria-valuemax="${allowance.replace(",", "")}"`);
      expect(bar?.[0]).toContain(`aria-valuenow="${now}"`);
      expect(bar?.[1]).toBe(`width:${width}`);
      expect(visibleText(html)).toContain(`${credits.toLocaleString("en-US")} of ${allowance} plan credits`);
    });
  }
});
