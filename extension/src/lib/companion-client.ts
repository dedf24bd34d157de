import { z, type ZodType, type ZodTypeDef } from "zod";
import { apiErrorSchema } from "../../../app/domain/api";
import {
  healthResponseSchema,
  jobSchema,
  presetListSchema,
  type ClipJobRequest,
  type HealthResponse,
  type Job,
  type Preset,
} from "../../../app/domain/companion";
import { COMPANION_URL } from "./config";
import { FAILURE_TEXT, failureFromStatus } from "./failures";
import type { Result } from "./messages";

/** The local companion on 127.0.0.1, called from the background only (its Origin is the extension's). */
export class CompanionClient {
  constructor(
    private readonly pairingToken: string | null,
    private readonly baseUrl = COMPANION_URL,
  ) {}

  health(): Promise<Result<HealthResponse>> {
    return this.call("GET", "/health", undefined, healthResponseSchema);
  }

  setSession(apiToken: string, apiBaseUrl: string): Promise<Result<unknown>> {
    return this.call("PUT", "/session", { apiToken, apiBaseUrl }, z.unknown());
  }

  clearSession(): Promise<Result<unknown>> {
    return this.call("DELETE", "/session", undefined, z.unknown());
  }

  submit(job: ClipJobRequest): Promise<Result<Job>> {
    return this.call("POST", "/jobs", job, z.object({ job: jobSchema }), (r) => r.job);
  }

  batch(jobs: ClipJobRequest[]): Promise<Result<Job[]>> {
    return this.call("POST", "/batch", { jobs }, z.object({ jobs: z.array(jobSchema) }), (r) => r.jobs);
  }

  job(id: string): Promise<Result<Job>> {
    return this.call("GET", `/jobs/${id}`, undefined, z.object({ job: jobSchema }), (r) => r.job);
  }

  jobs(): Promise<Result<Job[]>> {
    return this.call("GET", "/jobs", undefined, z.object({ jobs: z.array(jobSchema) }), (r) => r.jobs);
  }

  cancel(id: string): Promise<Result<Job>> {
    return this.call("POST", `/jobs/${id}/cancel`, {}, z.object({ job: jobSchema }), (r) => r.job);
  }

  presets(): Promise<Result<Preset[]>> {
    return this.call("GET", "/presets", undefined, presetListSchema, (r) => r.presets);
  }

  savePreset(preset: Preset): Promise<Result<unknown>> {
    return this.call("PUT", `/presets/${encodeURIComponent(preset.name)}`, preset, z.unknown());
  }

  private async call<S, T = S>(
    method: string,
    path: string,
    body: unknown,
    schema: ZodType<S, ZodTypeDef, unknown>,
    pick: (value: S) => T = (value) => value as unknown as T,
  ): Promise<Result<T>> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...(this.pairingToken ? { Authorization: `Bearer ${this.pairingToken}` } : {}),
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      return { ok: false, failure: { kind: "stopped", message: FAILURE_TEXT.stopped } };
    }
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const error = apiErrorSchema.safeParse(json);
      const { code, message } = error.success ? error.data.error : { code: "", message: "" };
      return { ok: false, failure: failureFromStatus(res.status, code, message) };
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      return {
        ok: false,
        failure: {
          kind: "other",
          message: "The companion sent an answer this extension does not understand. Update both.",
        },
      };
    return { ok: true, value: pick(parsed.data) };
  }
}
