import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { findClip } from "~/db/admin.server";
import { getDb } from "~/db/client.server";
import { ADMIN_MESSAGES, type CreateClipResult } from "~/domain/admin";
import { clipFields, withClipRange } from "~/domain/clip-request";
import { INSUFFICIENT_CREDITS_MESSAGE } from "~/domain/credits";
import { signinWithNotice } from "~/domain/signin-messages";
import { parseClockTime } from "~/domain/time";
import { createClipAsAdmin } from "./admin-clips.server";
import { getOptionalUser, requireAdmin } from "./auth.server";
import { busyHeaders } from "./ledger.server";
import { clientIp } from "./rate-limit.server";

/**
 * The admin Create Clip form (Calendars and Clip Management), one handler for every way it is posted: the pages'
 * own form (with or without JavaScript) and the JSON resource route. The money goes through `createClipAsAdmin`.
 */

const KEY = /^[\w-]{8,64}$/;

// The one clip request's name and URL rules; the times arrive as clock strings and get its range rule below.
const schema = z.object({
  name: clipFields.name,
  videoUrl: clipFields.videoUrl,
  start: z.string().max(20),
  end: z.string().max(20),
  quality: z.enum(["720p", "1080p"]).catch("720p"),
  key: z.string().regex(KEY, "Please reopen the form and try again."),
});
const times = withClipRange(z.object({ startSeconds: clipFields.startSeconds, endSeconds: clipFields.endSeconds }));

export type CreateClipOutcome =
  | { ok: true; clipId: string; result: Extract<CreateClipResult, { ok: true }> }
  | { ok: false; status: number; headers?: HeadersInit; result: Extract<CreateClipResult, { ok: false }> };

const refused = (status: number, result: Extract<CreateClipResult, { ok: false }>, headers?: HeadersInit) =>
  ({ ok: false, status, result, headers }) as const;

/**
 * Creates the admin's own clip from the posted fields, charged through the admin's UserLedger with the form's
 * idempotency key (a double submit charges once). An ended session gets the spec's K10 text, not a redirect;
 * a signed-in non-admin is sent away by `requireAdmin`.
 */
export async function createClipFromForm(
  request: Request,
  context: AppLoadContext,
  form: Record<string, string>,
): Promise<CreateClipOutcome> {
  if (!(await getOptionalUser(request, context))) {
    return refused(401, { ok: false, error: ADMIN_MESSAGES.clipSignedOut, signIn: true });
  }
  const admin = await requireAdmin(request, context);
  const parsed = schema.safeParse(form);
  if (!parsed.success) return refused(400, { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid input." });
  const { name, videoUrl, start, end, quality, key } = parsed.data;
  const startSeconds = parseClockTime(start);
  const endSeconds = parseClockTime(end);
  const range = times.safeParse({ startSeconds, endSeconds });
  if (!range.success) return refused(422, { ok: false, error: range.error.issues[0]?.message ?? "Invalid times." });
  const env = context.cloudflare.env;
  const ctx = { env, db: getDb(env.DB), adminId: admin.id, ip: clientIp(request) };
  const result = await createClipAsAdmin(ctx, {
    key,
    request: { name, videoUrl, startSeconds, endSeconds, format: "mp4", quality },
  });
  if (!result.ok) {
    if (result.reason === "insufficient_credits") {
      return refused(402, { ok: false, error: INSUFFICIENT_CREDITS_MESSAGE, upgrade: true });
    }
    const error = result.code === "internal" ? ADMIN_MESSAGES.clipError : result.message;
    return refused(result.status, { ok: false, error }, busyHeaders(result));
  }
  const clip = result.value.clip;
  return {
    ok: true,
    clipId: clip.id,
    result: { ok: true, cost: clip.cost, message: ADMIN_MESSAGES.clipCreated(clip.name, clip.cost) },
  };
}

/** The fields as posted, bounded, for the form rendered again with its error (without JavaScript it starts over). */
function postedValues(form: Record<string, string>) {
  return {
    name: (form.name ?? "").slice(0, 200),
    videoUrl: (form.videoUrl ?? "").slice(0, 2048),
    start: (form.start ?? "").slice(0, 20),
    end: (form.end ?? "").slice(0, 20),
    quality: form.quality === "1080p" ? ("1080p" as const) : ("720p" as const),
    // The same key again: a retry after a busy ledger must not charge twice.
    key: form.key && KEY.test(form.key) ? form.key : null,
  };
}
export type CreateClipValues = ReturnType<typeof postedValues>;

/** The page's URL with some query parameters set or removed. */
function here(requestUrl: string, changes: Record<string, string | null>): string {
  const url = new URL(requestUrl);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  return url.pathname + url.search;
}

/**
 * A page's action for its Create Clip form (`intent=create`). Success: back to the page with the dialog showing what
 * was charged (`?modal=create&created=<id>`; a reload shows the same, the key makes a re-post harmless). A refusal:
 * the page again, the dialog with the message and the fields as posted. An ended session: /signin with K10's text,
 * back to the dialog afterwards, with or without JavaScript (a message shown in place was gone at once: the page's
 * data reload after the post found no session and went to /signin with no word).
 */
export async function answerCreateClipForm(request: Request, context: AppLoadContext, form: Record<string, string>) {
  const outcome = await createClipFromForm(request, context, form);
  // Thrown: the action's answer type is then the refusal alone.
  if (outcome.ok) throw redirect(here(request.url, { modal: "create", created: outcome.clipId }));
  if (outcome.result.signIn) {
    throw redirect(signinWithNotice("clip_signed_out", here(request.url, { modal: "create", created: null })));
  }
  return data(
    { intent: "create" as const, ...outcome.result, values: postedValues(form) },
    { status: outcome.status, headers: outcome.headers },
  );
}

/** The "created" line of the dialog after a redirect: only for a clip of this admin's own (a link cannot fake it). */
export async function createdClipMessage(
  context: AppLoadContext,
  adminId: string,
  clipId: string | null,
): Promise<string | null> {
  if (!clipId || !z.string().uuid().safeParse(clipId).success) return null;
  const clip = await findClip(getDb(context.cloudflare.env.DB), clipId);
  return clip && clip.userId === adminId ? ADMIN_MESSAGES.clipCreated(clip.name, clip.cost) : null;
}
