import { z } from "zod";
import { isoDaySchema } from "./admin";
import { listFields, listQuery } from "./list-query";

/** Audit log filters as they live in the URL; bad values are dropped, not refused. */
export const auditList = listQuery({
  actor: z.string().trim().max(254).optional().catch(undefined),
  action: z
    .string()
    .trim()
    .regex(/^[a-z_.]*$/)
    .max(64)
    .optional()
    .catch(undefined),
  from: isoDaySchema.optional().catch(undefined),
  to: isoDaySchema.optional().catch(undefined),
  page: listFields.page,
});
export type AuditListQuery = ReturnType<typeof auditList.parse>;
