import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { insertUser, post, signIn } from "./helpers";

const PASSWORD = "account page passphrase";
const NEW_PASSWORD = "a brand new account passphrase 42";

const row = (email: string) =>
  env.DB.prepare("SELECT full_name AS fullName, password_hash AS hash FROM users WHERE email = ?")
    .bind(email)
    .first<{ fullName: string; hash: string }>();

/** Makes every write of one users column fail in D1 while `run` runs (this file has its own database). */
async function whileColumnWritesFail(column: string, run: () => Promise<void>) {
  await env.DB.exec(
    `CREATE TRIGGER fail_${column} BEFORE UPDATE OF ${column} ON users BEGIN SELECT RAISE(ABORT, 'write refused'); END;`,
  );
  try {
    await run();
  } finally {
    await env.DB.exec(`DROP TRIGGER fail_${column}`);
  }
}

describe("/account when the database refuses a save", () => {
  it("a failed profile save says the spec's text and changes nothing", async () => {
    await insertUser({ email: "profile-fail@example.com", password: PASSWORD });
    const cookie = await signIn("profile-fail@example.com", PASSWORD);
    const before = await row("profile-fail@example.com");
    await whileColumnWritesFail("full_name", async () => {
      const res = await post("/account", { intent: "profile", fullName: "Someone Else" }, { cookie });
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toMatch(/role="alert"[^>]*>Failed to update profile\. Please try again\.</);
      expect(html).not.toMatch(/write refused|SQLITE|Unexpected Server Error/);
    });
    expect(await row("profile-fail@example.com")).toEqual(before);
  });

  it("a failed password save answers 'Error: {message}' and keeps the old password", async () => {
    await insertUser({ email: "password-fail@example.com", password: PASSWORD });
    const cookie = await signIn("password-fail@example.com", PASSWORD);
    const before = await row("password-fail@example.com");
    await whileColumnWritesFail("password_hash", async () => {
      const res = await post(
        "/account",
        { intent: "password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        { cookie },
      );
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toMatch(/role="alert"[^>]*>Error: Your password could not be saved\. Please try again\.</);
      expect(html).not.toMatch(/write refused|SQLITE|Unexpected Server Error/);
    });
    expect(await row("password-fail@example.com")).toEqual(before);
    // The old password still signs in.
    expect(await signIn("password-fail@example.com", PASSWORD)).toMatch(/clipcut_session=/);
  });
});

describe("/account forms without JavaScript", () => {
  it("a plain profile post answers with the page showing the saved message", async () => {
    await insertUser({ email: "nojs-profile@example.com", password: PASSWORD });
    const cookie = await signIn("nojs-profile@example.com", PASSWORD);
    const res = await post("/account", { intent: "profile", fullName: "Plain Form" }, { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/role="status"[^>]*>Profile information saved successfully!</);
    expect((await row("nojs-profile@example.com"))?.fullName).toBe("Plain Form");
    // The page after the post shows the saved name, not the one read before it.
    expect(html).toMatch(/name="fullName"[^>]*value="Plain Form"|value="Plain Form"[^>]*name="fullName"/);
  });

  it("a plain password post shows its error under the password form", async () => {
    await insertUser({ email: "nojs-password@example.com", password: PASSWORD });
    const cookie = await signIn("nojs-password@example.com", PASSWORD);
    const res = await post(
      "/account",
      { intent: "password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: "different" },
      { cookie },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/role="alert"[^>]*>Passwords do not match\.</);
    // Only the form that was sent shows it.
    expect(html.match(/>Passwords do not match\.</g)).toHaveLength(1);
  });

  it("a plain notification post shows that the preference was saved", async () => {
    await insertUser({ email: "nojs-alerts@example.com", password: PASSWORD });
    const cookie = await signIn("nojs-alerts@example.com", PASSWORD);
    const res = await post("/account", { intent: "alerts", lowCreditAlerts: "off" }, { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/role="status"[^>]*>Notification preference saved\.</);
    expect(html).toMatch(/<button[^>]*role="switch"[^>]*aria-checked="false"/);
  });
});
