/** What visitors leave on the public pages: contact messages and "Notify Me" requests. */
import type { Db } from "./client.server";
import { contactMessages, notifyRequests } from "./schema";

/** Stores a contact message (status new); its id. */
export async function insertContactMessage(
  db: Db,
  message: { name: string; email: string; topic: string; message: string },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(contactMessages).values({ id, ...message });
  return id;
}

/** The unique (email, product) index keeps one row: asking twice is not an error. */
export async function insertNotifyRequest(db: Db, email: string, product: string): Promise<void> {
  await db
    .insert(notifyRequests)
    .values({ id: crypto.randomUUID(), email, product })
    .onConflictDoNothing({ target: [notifyRequests.email, notifyRequests.product] });
}
