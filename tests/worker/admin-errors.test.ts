import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_MESSAGES } from "~/domain/admin";
import { countRows, insertUser, post, signIn } from "./helpers";

const PASSWORD = "admin errors passphrase";

async function admin(email: string) {
  const id = await insertUser({ email, password: PASSWORD, role: "admin", credits: 500, plan: "Pro" });
  return { id, cookie: await signIn(email, PASSWORD) };
}

const clipForm = {
  name: "Late clip",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  start: "00:00",
  end: "00:30",
};

describe("the Create Clip modal on an expired session", () => {
  it("answers “You must be logged in to create a clip.” (not a sign-in redirect) and charges nothing", async () => {
    const { id, cookie } = await admin("expired-modal@example.com");
    // The session ends while the modal is open (expired, or signed out in another tab).
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(id).run();
    for (const asked of [{ cookie }, {}]) {
      const res = await post("/admin/create-clip", { ...clipForm, key: crypto.randomUUID() }, asked);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ ok: false, error: "You must be logged in to create a clip.", signIn: true });
    }
    expect(await countRows("SELECT count(*) AS n FROM clips WHERE user_id = ?", id)).toBe(0);
    const credits = await env.DB.prepare("SELECT credits FROM users WHERE id = ?")
      .bind(id)
      .first<{ credits: number }>();
    expect(credits?.credits).toBe(500);
  });

  it("a signed-in admin still creates the clip", async () => {
    const { cookie } = await admin("live-modal@example.com");
    const res = await post("/admin/create-clip", { ...clipForm, key: crypto.randomUUID() }, { cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
  });
});

describe("a failed ban", () => {
  const causes = ADMIN_MESSAGES.banFailedCauses.map((c) => c.replace(/'/g, "&#x27;"));

  it("shows the message and the likely causes under it", async () => {
    const { id, cookie } = await admin("ban-fails@example.com");
    const refusals = [
      { userId: crypto.randomUUID(), message: "User not found." }, // deleted meanwhile
      { userId: id, message: "You cannot ban yourself." },
    ];
    for (const { userId, message } of refusals) {
      const res = await post("/admin/users", { intent: "ban", userId }, { cookie });
      expect(res.status).toBeGreaterThanOrEqual(400);
      const html = await res.text();
      expect(html).toContain(`Failed to ban the user: ${message}`);
      expect(html).toContain("Likely causes:");
      for (const cause of causes) expect(html).toContain(cause);
    }
  });

  it("other failed actions show their message without the ban's causes", async () => {
    const { cookie } = await admin("unban-fails@example.com");
    const res = await post("/admin/users", { intent: "unban", userId: crypto.randomUUID() }, { cookie });
    const html = await res.text();
    expect(html).toContain("User not found.");
    expect(html).not.toContain("Likely causes:");
  });
});
