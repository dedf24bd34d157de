import { contactMessages } from "~/db/schema";
import type { Db } from "~/db/client.server";

export async function saveContactMessage(
  db: Db,
  message: { name: string; email: string; topic: string; message: string },
): Promise<void> {
  await db.insert(contactMessages).values({ id: crypto.randomUUID(), ...message });
}
