import { z } from "zod";
import { isoDaySchema } from "./admin";

/** Audit log filters as they live in the URL; bad values are dropped, not refused. */
export const auditQuerySchema = z.object({
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
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type AuditListQuery = z.infer<typeof auditQuerySchema>;

export function parseAuditQuery(params: URLSearchParams): AuditListQuery {
  const raw = Object.fromEntries([...params].filter(([, v]) => v !== ""));
  return auditQuerySchema.parse(raw);
}
