import { ERASED_EMAIL_DOMAIN } from "~/domain/account-deletion";
import type { Db } from "~/db/client.server";
import type { AppEnv } from "~/load-context";
import { httpMailer, thirdPartiesOf } from "./third-parties.server";

export { EmailDeliveryError } from "./third-parties.server";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links the message carries (kept by the local outbox so tests and developers can follow them). */
  links: string[];
}

/**
 * One way out for every e-mail: the mailer chosen where the request context was built (the HTTP provider configured
 * by secrets in production; the outbox of workers/local.ts locally). `fetcher` replaces the provider's fetch.
 */
export async function sendEmail(
  { env, fetcher }: { env: AppEnv; db?: Db; fetcher?: typeof fetch },
  message: EmailMessage,
): Promise<void> {
  // A deleted account's address is a placeholder: mail that follows it (a late refund notice) goes nowhere.
  if (message.to.toLowerCase().endsWith(`@${ERASED_EMAIL_DOMAIN}`)) return;
  const mailer = fetcher ? httpMailer(env, fetcher) : thirdPartiesOf(env).mailer;
  await mailer.send(message);
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

/** A plain-text message (its line breaks kept in the HTML part too), e.g. words someone typed into a form. */
export function textEmail(opts: { to: string; subject: string; text: string; links: string[] }) {
  return {
    ...opts,
    html: `<div style="white-space:pre-wrap">${escapeHtml(opts.text)}</div>`,
  } satisfies EmailMessage;
}
