import { ledger as ledgerClient } from "~/services/ledger.server";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, insertUser, signIn } from "./helpers";

const PASSWORD = "page reads passphrase 1";
const clip = {
  name: "c",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 0,
  endSeconds: 10,
  format: "mp4" as const,
  quality: "360p" as const,
};

describe("a signed-in page shows the credits its user's ledger holds", () => {
  it("shows credits reserved by live holds, and stops counting a hold once it is released", async () => {
    const userId = await insertUser({ email: "holds-page@example.com", password: PASSWORD, credits: 50 });
    const cookie = await signIn("holds-page@example.com", PASSWORD);
    const held = await ledgerClient(env, userId).reserve({ key: "api:page-reads-hold", request: clip });
    if (!held.ok) throw new Error(held.message);
    const amount = held.value.hold.amount;
    const page = await (await get("/dashboard", { cookie })).text();
    // React separates the number from the text with a comment in server HTML.
    expect(page).toMatch(new RegExp(`>${amount}(<!-- -->)? reserved for clips in progress`));

    expect((await ledgerClient(env, userId).release({ holdId: held.value.hold.id })).ok).toBe(true);
    const later = await (await get("/dashboard", { cookie })).text();
    expect(later).not.toContain("reserved for clips in progress");
  });
});
