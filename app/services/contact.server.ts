import type { Db } from "~/db/client.server";
import { insertContactMessage } from "~/db/public-forms.server";

export async function saveContactMessage(
  db: Db,
  message: { name: string; email: string; topic: string; message: string },
): Promise<void> {
  await insertContactMessage(db, message);
}
