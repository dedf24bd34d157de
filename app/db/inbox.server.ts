/** The admin Inbox's reads and writes: contact messages, the replies sent to them, and "Notify Me" sign-ups. */
import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import type { InboxListQuery, InboxStatus } from "~/domain/inbox";
import type { Db } from "./client.server";
import { contactMessages, contactReplies, notifyRequests, users } from "./schema";
import { contains } from "./text-match.server";

function inboxFilters(q: Omit<InboxListQuery, "page">) {
  const parts = [];
  if (q.status) parts.push(eq(contactMessages.status, q.status));
  if (q.q) {
    parts.push(
      or(
        contains(contactMessages.name, q.q),
        contains(contactMessages.email, q.q),
        contains(contactMessages.message, q.q),
      ),
    );
  }
  return parts.length ? and(...parts) : undefined;
}

/** A page of messages, newest first, with the count per status for the cards. */
export async function listContactMessages(db: Db, q: InboxListQuery, pageSize: number) {
  const where = inboxFilters(q);
  const [countRows, rows, byStatus] = await db.batch([
    db
      .select({ n: sql<number>`count(*)` })
      .from(contactMessages)
      .where(where),
    db
      .select({
        id: contactMessages.id,
        name: contactMessages.name,
        email: contactMessages.email,
        topic: contactMessages.topic,
        // A preview is enough for the list; the message screen shows it whole.
        preview: sql<string>`substr(${contactMessages.message}, 1, 140)`,
        status: contactMessages.status,
        createdAt: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(pageSize)
      .offset((q.page - 1) * pageSize),
    db
      .select({ status: contactMessages.status, n: sql<number>`count(*)` })
      .from(contactMessages)
      .groupBy(contactMessages.status),
  ]);
  const total = countRows[0]?.n ?? 0;
  const counts: Record<InboxStatus, number> = { new: 0, answered: 0, closed: 0 };
  for (const row of byStatus) counts[row.status] = row.n;
  return { rows, total, pages: Math.max(1, Math.ceil(total / pageSize)), counts };
}

/** One message and the replies sent to it, oldest first (with the replying admin's e-mail, if the account remains). */
export async function findContactMessage(db: Db, id: string) {
  const [messages, replies] = await db.batch([
    db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1),
    db
      .select({
        id: contactReplies.id,
        body: contactReplies.body,
        adminEmail: users.email,
        createdAt: contactReplies.createdAt,
      })
      .from(contactReplies)
      .leftJoin(users, eq(users.id, contactReplies.adminId))
      .where(eq(contactReplies.messageId, id))
      .orderBy(asc(contactReplies.createdAt), asc(contactReplies.id)),
  ]);
  const message = messages[0];
  return message ? { ...message, replies } : null;
}

/** Records a reply that was e-mailed, and marks the message answered, in one batch. */
export async function recordContactReply(db: Db, reply: { messageId: string; adminId: string; body: string }) {
  await db.batch([
    db.insert(contactReplies).values({ id: crypto.randomUUID(), ...reply }),
    db.update(contactMessages).set({ status: "answered" }).where(eq(contactMessages.id, reply.messageId)),
  ]);
}

export async function setContactStatus(db: Db, id: string, status: InboxStatus) {
  await db.update(contactMessages).set({ status }).where(eq(contactMessages.id, id));
}

export async function countNotifyRequests(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(notifyRequests);
  return row?.n ?? 0;
}

/** Every "Notify Me" sign-up, oldest first, in chunks (for the CSV export). */
export async function* notifyRequestsForExport(db: Db, chunk = 500) {
  for (let offset = 0; ; offset += chunk) {
    const rows = await db
      .select({ email: notifyRequests.email, product: notifyRequests.product, createdAt: notifyRequests.createdAt })
      .from(notifyRequests)
      .orderBy(asc(notifyRequests.createdAt), asc(notifyRequests.id))
      .limit(chunk)
      .offset(offset);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunk) return;
  }
}
