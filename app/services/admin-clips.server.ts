import { clipRefunded, findClip } from "~/db/admin.server";
import type { ClipRequest } from "~/domain/api";
import type { Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { audit } from "./audit.server";
import { busyHeaders, ledger } from "./ledger.server";

type Ctx = { env: AppEnv; db: Db; adminId: string; ip?: string };
export type AdminClipResult =
  { ok: true; refunded: number } | { ok: false; status: number; message: string | null; headers?: HeadersInit };

/**
 * An admin deletes a clip, through the ledger that paid for it (`clips.payer_id`: a team member's clip was paid by
 * the owner), in one operation: with a refund the cost goes back to the payer and the clip goes in the same batch;
 * without, the clip goes and its charge stays on the ledger.
 */
export async function deleteClipAsAdmin(
  ctx: Ctx,
  input: { clipId: string; refund: boolean },
): Promise<AdminClipResult> {
  const clip = await findClip(ctx.db, input.clipId);
  if (!clip?.payerId) return { ok: false, status: 404, message: null };
  const refund = input.refund && clip.cost > 0 && !(await clipRefunded(ctx.db, clip.id));
  const payer = ledger(ctx.env, clip.payerId);
  const result = refund
    ? await payer.refund({
        clipId: clip.id,
        amount: clip.cost,
        reason: `clip "${clip.name}" deleted by an admin`,
        actorId: ctx.adminId,
        deleteClip: true,
      })
    : await payer.deleteClip({ clipId: clip.id });
  if (!result.ok) return { ok: false, status: result.status, message: result.message, headers: busyHeaders(result) };
  const refunded = refund ? clip.cost : 0;
  if (refund)
    await audit(ctx.db, {
      action: "admin.clip_refunded",
      actorId: ctx.adminId,
      subjectId: clip.payerId,
      ip: ctx.ip,
      details: { clipId: clip.id, credits: clip.cost, creatorId: clip.userId },
    });
  await audit(ctx.db, {
    action: "admin.clip_deleted",
    actorId: ctx.adminId,
    subjectId: clip.userId,
    ip: ctx.ip,
    details: { clipId: clip.id, name: clip.name, refunded, payerId: clip.payerId },
  });
  return { ok: true, refunded };
}

/** An admin's own clip (the Create Clip modal), paid from the admin's ledger, idempotent on the form's key. */
export async function createClipAsAdmin(ctx: Ctx, input: { key: string; request: ClipRequest }) {
  const result = await ledger(ctx.env, ctx.adminId).charge({
    key: `admin-clip:${input.key}`,
    request: input.request,
    source: "admin",
    actorId: ctx.adminId,
  });
  if (result.ok && !result.replayed)
    await audit(ctx.db, {
      action: "admin.clip_created",
      actorId: ctx.adminId,
      subjectId: ctx.adminId,
      ip: ctx.ip,
      details: { clipId: result.value.clip.id, cost: result.value.clip.cost },
    });
  return result;
}
