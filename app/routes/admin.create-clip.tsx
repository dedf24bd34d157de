import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { ADMIN_MESSAGES, type CreateClipResult } from "~/domain/admin";
import { clipFields, withClipRange } from "~/domain/clip-request";
import { INSUFFICIENT_CREDITS_MESSAGE } from "~/domain/credits";
import { parseClockTime } from "~/domain/time";
import { createClipAsAdmin } from "~/services/admin-clips.server";
import { getOptionalUser, requireAdmin } from "~/services/auth.server";
import { busyHeaders } from "~/services/ledger.server";
import { clientIp } from "~/services/rate-limit.server";
import { readForm } from "~/utils/forms";

// The one clip request's name and URL rules; the times arrive as clock strings and get its range rule below.
const schema = z.object({
  name: clipFields.name,
  videoUrl: clipFields.videoUrl,
  start: z.string().max(20),
  end: z.string().max(20),
  quality: z.enum(["720p", "1080p"]).catch("720p"),
  key: z.string().regex(/^[\w-]{8,64}$/, "Please reopen the form and try again."),
});

// A resource route: a plain JSON response keeps its status (the modal reads the body either way).
const reply = (body: CreateClipResult, status = 200, headers: HeadersInit = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  throw data("Use the Create Clip button on Calendars or Clips.", { status: 405 });
}

/**
 * The admin's own clip: charged through the admin's UserLedger with the form's idempotency key, so a
 * double click charges once; the ledger commits charge and clip together.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  // The modal stays open while the session expires: it says so (spec K10) instead of following a sign-in redirect.
  if (!(await getOptionalUser(request, context))) {
    return reply({ ok: false, error: ADMIN_MESSAGES.clipSignedOut, signIn: true }, 401);
  }
  const admin = await requireAdmin(request, context);
  const parsed = schema.safeParse(await readForm(request));
  if (!parsed.success) {
    return reply({ ok: false, error: parsed.error.issues[0]?.message ?? "Invalid input." }, 400);
  }
  const { name, videoUrl, start, end, quality, key } = parsed.data;
  const startSeconds = parseClockTime(start);
  const endSeconds = parseClockTime(end);
  const times = z.object({ startSeconds: clipFields.startSeconds, endSeconds: clipFields.endSeconds });
  const range = withClipRange(times).safeParse({ startSeconds, endSeconds });
  if (!range.success) return reply({ ok: false, error: range.error.issues[0]?.message ?? "Invalid times." }, 422);
  const env = context.cloudflare.env;
  const ctx = { env, db: getDb(env.DB), adminId: admin.id, ip: clientIp(request) };
  const result = await createClipAsAdmin(ctx, {
    key,
    request: { name, videoUrl, startSeconds, endSeconds, format: "mp4", quality },
  });
  if (!result.ok) {
    if (result.code === "insufficient_credits") {
      return reply({ ok: false, error: INSUFFICIENT_CREDITS_MESSAGE, upgrade: true }, 402);
    }
    const error = result.code === "internal" ? ADMIN_MESSAGES.clipError : result.message;
    return reply({ ok: false, error }, result.status, busyHeaders(result));
  }
  const clip = result.value.clip;
  return reply({
    ok: true,
    cost: clip.cost,
    message: ADMIN_MESSAGES.clipCreated(clip.name, clip.cost),
  });
}
