/** The local-mode e-mail outbox (GET /dev/outbox): what would have been sent. */
import { desc } from "drizzle-orm";
import type { Db } from "./client.server";
import { emailOutbox } from "./schema";

export async function insertOutboxMessage(
  db: Db,
  message: { to: string; subject: string; text: string; html: string; links: string[] },
): Promise<void> {
  await db.insert(emailOutbox).values({
    id: crypto.randomUUID(),
    ...message,
    links: JSON.stringify(message.links),
    sentAt: new Date(),
  });
}

/** The newest 200 messages, newest first. */
export async function latestOutboxRows(db: Db) {
  return db.select().from(emailOutbox).orderBy(desc(emailOutbox.sentAt)).limit(200);
}
