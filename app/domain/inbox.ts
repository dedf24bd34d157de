import { z } from "zod";
import { listFields, listQuery } from "./list-query";
import { SITE } from "./site";

/**
 * What visitors write to us (the contact form) and ask for ("Notify Me"), and the admin Inbox that answers them:
 * the topics, the statuses a message goes through, how often one visitor may write, and the e-mails' words.
 */

export const CONTACT_TOPICS = ["General question", "Technical support", "Billing", "Partnerships", "Feedback"] as const;

/** Where the contact form's messages are e-mailed (the address the Contact page shows). */
export const SUPPORT_INBOX_EMAIL = SITE.supportEmail;

export const INBOX_STATUSES = ["new", "answered", "closed"] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export const INBOX_STATUS_LABELS: Record<InboxStatus, string> = { new: "New", answered: "Answered", closed: "Closed" };

export type InboxAction = "reply" | "close" | "reopen";

/**
 * A message's status after an admin acts on it. A reply answers it (a closed one too: the visitor got an answer);
 * close closes an open one; reopen puts a closed one back to answered or new, by whether it was ever answered.
 * Null: the action changes nothing (closing a closed message, reopening an open one).
 */
export function statusAfter(action: InboxAction, current: InboxStatus, replies: number): InboxStatus | null {
  if (action === "reply") return "answered";
  if (action === "close") return current === "closed" ? null : "closed";
  if (current !== "closed") return null;
  return replies > 0 ? "answered" : "new";
}

const MINUTE = 60_000;
/**
 * How often one visitor may write: per IP (a bot) and per e-mail address (one address from many IPs, e.g. someone
 * making us mail a stranger). The names are the rate-limit counters' keys.
 */
export const PUBLIC_FORM_LIMITS = {
  contactPerIp: { name: "contact", limit: 5, windowMs: 10 * MINUTE },
  contactPerAddress: { name: "contact-address", limit: 3, windowMs: 60 * MINUTE },
  notifyPerIp: { name: "notify", limit: 5, windowMs: 10 * MINUTE },
  notifyPerAddress: { name: "notify-address", limit: 3, windowMs: 60 * MINUTE },
} as const;

const email = z.string().trim().toLowerCase().email("Please enter a valid email address.").max(254);

/** The contact form as posted. */
export const contactSchema = z.object({
  name: z.string().trim().min(1, "Please enter your name.").max(100, "Name is too long."),
  email,
  topic: z.enum(CONTACT_TOPICS, { errorMap: () => ({ message: "Please choose a topic." }) }),
  message: z
    .string()
    .trim()
    .min(10, "Please write at least 10 characters.")
    .max(5000, "Message is too long (5,000 characters at most)."),
});
export type ContactMessageInput = z.infer<typeof contactSchema>;

export const REPLY_MAX = 5000;

/** What the Inbox's message screen posts. */
export const inboxActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("reply"),
    body: z
      .string()
      .trim()
      .min(2, "Please write a reply.")
      .max(REPLY_MAX, `The reply is too long (${REPLY_MAX.toLocaleString("en-US")} characters at most).`),
  }),
  z.object({ intent: z.literal("close") }),
  z.object({ intent: z.literal("reopen") }),
]);

/** The Inbox list as it lives in the URL. */
export const inboxList = listQuery({
  q: listFields.q,
  status: z.enum(INBOX_STATUSES).optional().catch(undefined),
  page: listFields.page,
});
export type InboxListQuery = ReturnType<typeof inboxList.parse>;

export const INBOX_MESSAGES = {
  notFound: "That message does not exist.",
  replied: (to: string) => `Reply sent to ${to}. The message is marked answered.`,
  closed: "Message closed.",
  reopened: "Message reopened.",
  unchanged: "Nothing to change: the message already has that status.",
  sendFailed: "The reply could not be e-mailed. Nothing was changed; please try again.",
} as const;

/** The e-mail support gets for each contact message: the visitor's words, and a link to it in the Inbox. */
export function supportNotification(message: ContactMessageInput, link: string) {
  return {
    to: SUPPORT_INBOX_EMAIL,
    // A name is one line of the subject, whatever was typed into it.
    subject: `[Contact] ${message.topic} from ${message.name.replace(/\s+/g, " ")}`,
    text: [
      `${message.name} <${message.email}> wrote about “${message.topic}”:`,
      message.message,
      `Reply from the Inbox (the answer is e-mailed to the sender and the message marked answered): ${link}`,
    ].join("\n\n"),
    links: [link],
  };
}

/** The e-mail that carries an admin's reply to the visitor, with what they wrote quoted under it. */
export function replyEmail(message: { email: string; topic: string; message: string }, body: string) {
  const quoted = message.message
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
  return {
    to: message.email,
    subject: `Re: your message to ${SITE.name} (${message.topic})`,
    text: `${body}\n\n— The ${SITE.name} team\n\nYou wrote:\n${quoted}`,
    links: [] as string[],
  };
}
