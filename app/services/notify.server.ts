import { getDb } from "~/db/client.server";
import { insertNotifyRequest } from "~/db/public-forms.server";

/** Products a visitor can ask to hear about. */
export const NOTIFY_PRODUCTS = ["safari"] as const;
export type NotifyProduct = (typeof NOTIFY_PRODUCTS)[number];

/**
 * Records a "Notify Me" request. The same address asking twice for the same product is not an error:
 * the unique (email, product) index keeps one row and the second insert does nothing.
 */
export async function addNotifyRequest(d1: D1Database, email: string, product: NotifyProduct): Promise<void> {
  await insertNotifyRequest(getDb(d1), email.trim().toLowerCase(), product);
}
