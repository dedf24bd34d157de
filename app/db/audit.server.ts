import type { Db } from "./client.server";
import { auditLog } from "./schema";

export async function insertAuditRow(
  db: Db,
  row: { action: string; actorId: string | null; subjectId: string | null; ip: string | null; details: string | null },
): Promise<void> {
  await db.insert(auditLog).values({ id: crypto.randomUUID(), ...row });
}
