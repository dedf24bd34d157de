/** What visitors leave on the public pages: contact messages and "Notify Me" requests. */
import type { Db } from "./client.server";
import { contactMessages, notifyRequests } from "./schema";

export async function insertContactMessage(
  db: Db,
  message: { name: string; email: string; topic: string; message: string },
): Promise<void> {
  await db.insert(contactMessages).values({ id: crypto.randomUUID(), ...message });
}

/** The unique (email, product) index keeps one row: asking twice is not an error. */
export async function insertNotifyRequest(db: Db, email: string, product: string): Promise<void> {
  await db
    .insert(notifyRequests)
    .values({ id: crypto.randomUUID(), email, product })
    .onConflictDoNothing({ target: [notifyRequests.email, notifyRequests.product] });
}
