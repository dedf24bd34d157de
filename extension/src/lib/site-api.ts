import { z } from "zod";
import {
  createPresetResponseSchema,
  meResponseSchema,
  presetsResponseSchema,
  type MeResponse,
  type Preset,
  type PresetRequest,
} from "../../../app/domain/api";
import { SITE_ORIGIN } from "./config";
import { callJson } from "./json-call";
import type { Result } from "./messages";

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

/** The account's own data on the site, called from the background with the extension's API token. */
export class SiteApi {
  constructor(
    private readonly apiKey: string,
    private readonly origin = SITE_ORIGIN,
  ) {}

  /** The account's custom presets (Advanced and Pro), oldest first. */
  presets(): Promise<Result<Preset[]>> {
    return this.call("GET", "/api/v1/presets", undefined, presetsResponseSchema).then(pickOk((r) => r.presets));
  }

  savePreset(preset: PresetRequest): Promise<Result<Preset>> {
    return this.call("POST", "/api/v1/presets", preset, createPresetResponseSchema).then(pickOk((r) => r.preset));
  }

  deletePreset(id: string): Promise<Result<null>> {
    return this.call("DELETE", `/api/v1/presets/${encodeURIComponent(id)}`, undefined, z.null());
  }

  private call<S>(method: string, path: string, body: unknown, schema: z.ZodType<S, z.ZodTypeDef, unknown>) {
    return callJson(
      `${this.origin}${path}`,
      {
        method,
        bearer: this.apiKey,
        body,
        unreachable: {
          kind: "other",
          message: "ClipCut's website could not be reached. Check your connection and try again.",
        },
        misunderstood: "ClipCut's website sent an answer this extension does not understand. Update the extension.",
      },
      schema,
    );
  }
}

const pickOk =
  <S, T>(pick: (value: S) => T) =>
  (result: Result<S>): Result<T> =>
    result.ok ? { ok: true, value: pick(result.value) } : result;
