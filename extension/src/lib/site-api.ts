import { meResponseSchema, type MeResponse } from "../../../app/domain/api";
import { SITE_ORIGIN } from "./config";

/** GET /api/v1/me with the extension token; null when the token is refused (signed out or revoked). */
export async function fetchAccount(apiKey: string): Promise<MeResponse | null> {
  const res = await fetch(`${SITE_ORIGIN}/api/v1/me`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) return null;
  const parsed = meResponseSchema.safeParse(await res.json());
  return parsed.success ? parsed.data : null;
}
