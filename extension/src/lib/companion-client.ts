import { z, type ZodType, type ZodTypeDef } from "zod";
import {
  healthResponseSchema,
  jobSchema,
  type ClipJobRequest,
  type HealthResponse,
  type Job,
} from "../../../app/domain/companion";
import { dryRunReportSchema, type DryRunReport, type DryRunRequest } from "../../../app/domain/true-cut";
import { COMPANION_URL } from "./config";
import { FAILURE_TEXT } from "./failures";
import { callJson } from "./json-call";
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

  setSession(apiToken: string, apiBaseUrl?: string): Promise<Result<unknown>> {
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

  /** The true-cut report: the plan the companion would follow for this range (nothing is reserved or written). */
  dryRun(request: DryRunRequest): Promise<Result<DryRunReport>> {
    return this.call("POST", "/dry-run", request, z.object({ report: dryRunReportSchema }), (r) => r.report);
  }

  cancel(id: string): Promise<Result<Job>> {
    return this.call("POST", `/jobs/${id}/cancel`, {}, z.object({ job: jobSchema }), (r) => r.job);
  }

  private call<S, T = S>(
    method: string,
    path: string,
    body: unknown,
    schema: ZodType<S, ZodTypeDef, unknown>,
    pick?: (value: S) => T,
  ): Promise<Result<T>> {
    const call = {
      method,
      bearer: this.pairingToken,
      body,
      unreachable: { kind: "stopped", message: FAILURE_TEXT.stopped },
      misunderstood: "The companion sent an answer this extension does not understand. Update both.",
    } as const;
    return callJson(`${this.baseUrl}${path}`, call, schema, pick);
  }
}
