import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { UNVERIFIED_OWNER_MESSAGE } from "~/domain/teams";
import { invite, resend, revoke } from "~/services/teams.server";
import { withStandIns } from "../../workers/local";
import { insertUser } from "./helpers";
import { standIn } from "./stand-in";

/** Invitation e-mails are a way to make ClipCut send mail to anyone: limited, and naming the sender only by a fact. */
const db = getDb(env.DB);
// The e-mail goes to the local outbox, as the local entry composes it.
const ctx = { env: withStandIns(env, "http://localhost", createExecutionContext()), db, origin: "http://localhost" };

async function owner(opts: { fullName?: string; verified?: boolean } = {}) {
  const email = `owner-${crypto.randomUUID()}@example.com`;
  const id = await insertUser({ email, plan: "Pro", verified: opts.verified });
  const fullName = opts.fullName ?? "Test Person";
  await env.DB.prepare("UPDATE users SET full_name = ? WHERE id = ?").bind(fullName, id).run();
  return { id, email, fullName, plan: "Pro" };
}
const address = () => `to-${crypto.randomUUID()}@example.com`;
const invitationId = async (ownerId: string, email: string) =>
  (await env.DB.prepare("SELECT id FROM team_invitations WHERE owner_id = ? AND email = ?")
    .bind(ownerId, email)
    .first<{ id: string }>())!.id;
const mailsTo = async (to: string) =>
  (await standIn().outbox()).filter((m) => m.to === to).map(({ text, html }) => ({ text, html }));

describe("team invitation e-mails", () => {
  it("an owner cannot send more than 10 invitations an hour by inviting and revoking in a loop", async () => {
    const o = await owner();
    for (let i = 0; i < 10; i++) {
      const to = address();
      expect(await invite(ctx, o, to)).toMatchObject({ ok: true });
      expect(await revoke(ctx, o.id, await invitationId(o.id, to))).toMatchObject({ ok: true });
    }
    const to = address();
    const refused = await invite(ctx, o, to);
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(refused.message).toContain("You have sent 10 invitations in an hour, the most allowed.");
    expect(await mailsTo(to)).toEqual([]);
  });

  it("one address gets at most one invitation e-mail an hour: resending at once is refused and sends nothing", async () => {
    const o = await owner();
    const to = address();
    expect(await invite(ctx, o, to)).toMatchObject({ ok: true });
    const again = await resend(ctx, o, await invitationId(o.id, to));
    expect(again).toMatchObject({ ok: false, status: 429 });
    expect(again.message).toContain(`An invitation was sent to ${to} less than an hour ago.`);
    // Another owner cannot mail that address either.
    expect(await invite(ctx, await owner(), to)).toMatchObject({ ok: false, status: 429 });
    expect(await mailsTo(to)).toHaveLength(1);
  });

  it("the e-mail names the owner by their confirmed address, never by the free-text name they chose", async () => {
    const o = await owner({ fullName: "Your bank: confirm your card at https://evil.example" });
    const to = address();
    expect(await invite(ctx, o, to)).toMatchObject({ ok: true });
    const [mail] = await mailsTo(to);
    expect(mail?.text).toContain(`The ClipCut account ${o.email} invites you`);
    expect(mail?.text).not.toContain("evil.example");
    expect(mail?.html).not.toContain("evil.example");
  });

  it("an owner whose address is not confirmed cannot send invitations", async () => {
    const o = await owner({ verified: false });
    const to = address();
    expect(await invite(ctx, o, to)).toEqual({ ok: false, status: 403, message: UNVERIFIED_OWNER_MESSAGE });
    expect(await mailsTo(to)).toEqual([]);
  });
});
