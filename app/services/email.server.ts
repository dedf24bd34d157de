import { z } from "zod";
import type { Db } from "~/db/client.server";
import { insertOutboxMessage, latestOutboxRows } from "~/db/outbox.server";
import type { AppEnv } from "~/load-context";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links the message carries (kept for the local outbox so tests and developers can follow them). */
  links: string[];
}

export class EmailDeliveryError extends Error {}

export function isLocalMode(env: Pick<AppEnv, "APP_MODE">): boolean {
  return env.APP_MODE === "local";
}

/**
 * One way out for every e-mail. Local mode keeps it in the outbox (GET /dev/outbox); production posts it to the
 * HTTP provider configured by secrets (a Resend-style API: POST {from,to,subject,text,html} with a Bearer key).
 */
export async function sendEmail(
  { env, db, fetcher = fetch }: { env: AppEnv; db: Db; fetcher?: typeof fetch },
  message: EmailMessage,
): Promise<void> {
  if (isLocalMode(env)) {
    await insertOutboxMessage(db, message);
    return;
  }
  if (!env.EMAIL_API_URL || !env.EMAIL_API_KEY || !env.EMAIL_FROM) {
    throw new EmailDeliveryError("E-mail is not configured: set EMAIL_API_URL, EMAIL_API_KEY and EMAIL_FROM.");
  }
  const response = await fetcher(env.EMAIL_API_URL, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.EMAIL_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      from: env.EMAIL_FROM,
      to: [message.to],
      subject: message.subject,
      text: message.text,
      html: message.html,
    }),
  });
  if (!response.ok) {
    throw new EmailDeliveryError(`E-mail provider answered ${response.status}.`);
  }
}

export async function readOutbox(db: Db) {
  const rows = await latestOutboxRows(db);
  return rows.map((row) => ({
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    links: z.array(z.string()).parse(JSON.parse(row.links)),
    sentAt: row.sentAt.toISOString(),
  }));
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A plain transactional message with one call-to-action link. */
export function actionEmail(opts: {
  to: string;
  subject: string;
  intro: string;
  action: string;
  url: string;
  outro: string;
}) {
  return {
    to: opts.to,
    subject: opts.subject,
    text: `${opts.intro}\n\n${opts.action}: ${opts.url}\n\n${opts.outro}\n\n— The ClipCut team`,
    html: `<p>${escapeHtml(opts.intro)}</p><p><a href="${escapeHtml(opts.url)}">${escapeHtml(opts.action)}</a></p><p>${escapeHtml(opts.outro)}</p><p>— The ClipCut team</p>`,
    links: [opts.url],
  } satisfies EmailMessage;
}
