import { ledger as ledgerClient } from "~/services/ledger.server";
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { banUser, signOutEverywhere } from "~/services/user-moderation.server";
import { TOKEN_RECHECK_MS } from "../../workers/token-checks";
import type { UserLedger } from "../../workers/user-ledger";
import { insertUser, post, signIn } from "./helpers";

/**
 * API tokens are checked by the owner's UserLedger from memory (decision 010). Whatever revokes a token must make
 * the very next request fail, even right after the token was used (and so remembered).
 */
const PASSWORD = "token checks passphrase 1";
const db = getDb(env.DB);

const me = (token: string) =>
  exports.default.fetch(new Request("http://localhost/api/v1/me", { headers: { Authorization: `Bearer ${token}` } }));

async function connected(email: string) {
  const userId = await insertUser({ email, password: PASSWORD });
  const cookie = await signIn(email, PASSWORD);
  const res = await post("/api/v1/token", {}, { cookie });
  expect(res.status).toBe(201);
  const { token } = (await res.json()) as { token: string };
  // Used once, so the ledger remembers it as accepted.
  expect((await me(token)).status).toBe(200);
  return { userId, cookie, token };
}

const ledgerOf = (userId: string) => env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));

describe("a remembered token check never outlives a revocation", () => {
  it("sign-out of the session that issued it", async () => {
    const { cookie, token } = await connected("out@example.com");
    await post("/signout", {}, { cookie });
    expect((await me(token)).status).toBe(401);
  });

  it("ending that session from another browser (Account → sessions)", async () => {
    const { token, userId } = await connected("other@example.com");
    const laptop = await signIn("other@example.com", PASSWORD);
    const row = await env.DB.prepare("SELECT session_id FROM api_tokens WHERE user_id = ?")
      .bind(userId)
      .first<{ session_id: string }>();
    const res = await post(
      "/account/sessions",
      { intent: "revoke", sessionId: row?.session_id ?? "" },
      { cookie: laptop },
    );
    expect(res.status).toBe(302);
    expect((await me(token)).status).toBe(401);
  });

  it("a password change elsewhere", async () => {
    const { token } = await connected("pw@example.com");
    const laptop = await signIn("pw@example.com", PASSWORD);
    const res = await post(
      "/account",
      {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: "a brand new passphrase 2",
        confirmPassword: "a brand new passphrase 2",
      },
      { cookie: laptop },
    );
    expect(res.status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it("sign out everywhere and a ban", async () => {
    const a = await connected("every-tok@example.com");
    await signOutEverywhere({ env, db, actorId: a.userId, userId: a.userId });
    expect((await me(a.token)).status).toBe(401);

    const b = await connected("ban-tok@example.com");
    expect((await banUser({ env, db, actorId: "admin-x", userId: b.userId })).ok).toBe(true);
    expect((await me(b.token)).status).toBe(401);
  });

  it("a revocation written to D1 behind the ledger's back is seen within TOKEN_RECHECK_MS", async () => {
    const { token, userId } = await connected("behind@example.com");
    await env.DB.prepare("UPDATE api_tokens SET revoked_at = ? WHERE user_id = ?").bind(Date.now(), userId).run();
    // Still remembered as accepted: this is the window the explicit forget calls close.
    expect((await me(token)).status).toBe(200);
    await runInDurableObject(ledgerOf(userId), (instance: UserLedger) => {
      const checks = (instance as unknown as { tokens: { tokens: Map<string, { checkedAt: number }> } }).tokens;
      const tokens = checks.tokens;
      for (const entry of tokens.values()) entry.checkedAt -= TOKEN_RECHECK_MS + 1;
    });
    expect((await me(token)).status).toBe(401);
  });

  it("an expired token and a token of another user are refused", async () => {
    const { token, userId } = await connected("exp@example.com");
    await env.DB.prepare("UPDATE api_tokens SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, userId)
      .run();
    await ledgerOf(userId).forgetTokens();
    expect((await me(token)).status).toBe(401);
    // Asking another user's ledger about this token: it is not theirs.
    const other = await insertUser({ email: "not-owner@example.com", password: PASSWORD });
    const fresh = await connected("exp2@example.com");
    const hash = await env.DB.prepare("SELECT token_hash h FROM api_tokens WHERE user_id = ?")
      .bind(fresh.userId)
      .first<{ h: string }>();
    expect(await ledgerOf(other).authenticate({ userId: other, tokenHash: hash?.h ?? "" })).toBeNull();
  });

  it("/api/v1/me answers the ledger's credits, holds included", async () => {
    const { token, userId } = await connected("credits-tok@example.com");
    const before = (await (await me(token)).json()) as { credits: { balance: number; held: number } };
    const held = await ledgerClient(env, userId).reserve({
      key: "api:hold-for-me-test",
      request: {
        name: "c",
        videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        startSeconds: 0,
        endSeconds: 10,
        format: "mp4",
        quality: "360p",
      },
    });
    expect(held.ok).toBe(true);
    const after = (await (await me(token)).json()) as { credits: { balance: number; held: number } };
    expect(after.credits.balance).toBe(before.credits.balance);
    expect(after.credits.held).toBeGreaterThan(0);
  });
});
