import type { Db } from "~/db/client.server";
import { findContactMessage, recordContactReply, setContactStatus } from "~/db/inbox.server";
import { insertContactMessage } from "~/db/public-forms.server";
import { INBOX_MESSAGES, replyEmail, statusAfter, supportNotification, type ContactMessageInput } from "~/domain/inbox";
import type { AppEnv } from "~/load-context";
import { audit } from "./audit.server";
import { sendEmail, textEmail } from "./email.server";

/**
 * Stores a contact message for the admin Inbox, then e-mails support about it. The message is kept even if the
 * e-mail fails (the Inbox lists it either way), so the visitor is told it was sent.
 */
export async function submitContactMessage(
  ctx: { env: AppEnv; db: Db },
  origin: string,
  message: ContactMessageInput,
): Promise<string> {
  const id = await insertContactMessage(ctx.db, message);
  try {
    await sendEmail(ctx, textEmail(supportNotification(message, `${origin}/admin/inbox/${id}`)));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "support notification failed", id, error: String(error) }));
  }
  return id;
}

export type InboxActionInput = { intent: "reply"; body: string } | { intent: "close" } | { intent: "reopen" };
export type InboxActionResult =
  { ok: true; notice: "replied" | "closed" | "reopened" } | { ok: false; status: 404 | 409 | 502; message: string };

/**
 * An admin's reply, close or reopen of a contact message. A reply is e-mailed to the sender first: only once the
 * e-mail is out is it recorded and the message marked answered (a failed send changes nothing, so it can be retried).
 * Each change goes into the audit log.
 */
export async function actOnContactMessage(
  ctx: { env: AppEnv; db: Db; adminId: string; ip: string },
  messageId: string,
  input: InboxActionInput,
): Promise<InboxActionResult> {
  const message = await findContactMessage(ctx.db, messageId);
  if (!message) return { ok: false, status: 404, message: INBOX_MESSAGES.notFound };
  const next = statusAfter(input.intent, message.status, message.replies.length);
  if (!next) return { ok: false, status: 409, message: INBOX_MESSAGES.unchanged };
  const entry = { actorId: ctx.adminId, subjectId: messageId, ip: ctx.ip };
  if (input.intent === "reply") {
    try {
      await sendEmail(ctx, textEmail(replyEmail(message, input.body)));
    } catch (error) {
      console.error(JSON.stringify({ level: "error", msg: "inbox reply failed", messageId, error: String(error) }));
      return { ok: false, status: 502, message: INBOX_MESSAGES.sendFailed };
    }
    await recordContactReply(ctx.db, { messageId, adminId: ctx.adminId, body: input.body });
    await audit(ctx.db, { action: "admin.contact_replied", ...entry, details: { from: message.status } });
    return { ok: true, notice: "replied" };
  }
  await setContactStatus(ctx.db, messageId, next);
  await audit(ctx.db, {
    action: input.intent === "close" ? "admin.contact_closed" : "admin.contact_reopened",
    ...entry,
    details: { from: message.status, to: next },
  });
  return { ok: true, notice: input.intent === "close" ? "closed" : "reopened" };
}
