import { z } from "zod";
import { meResponseSchema } from "../../../app/domain/api";
import { jobSchema, presetSchema, type Job, type Preset } from "../../../app/domain/companion";
import { clipFields, withClipRange } from "../../../app/domain/clip-request";

/** Messages from the popup, the clip panel and the Firefox bridge to the background; each is zod-parsed. */
export const clipJobSchema = withClipRange(z.object(clipFields).strict());
export type ClipJob = z.infer<typeof clipJobSchema>;

export const internalMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("status") }).strict(),
  z.object({ type: z.literal("pair"), token: z.string().trim().min(1).max(200) }).strict(),
  z.object({ type: z.literal("createJob"), job: clipJobSchema }).strict(),
  z.object({ type: z.literal("batch"), jobs: z.array(clipJobSchema).min(1).max(20) }).strict(),
  z.object({ type: z.literal("job"), id: z.string().uuid() }).strict(),
  z.object({ type: z.literal("jobs") }).strict(),
  z.object({ type: z.literal("cancelJob"), id: z.string().uuid() }).strict(),
  z.object({ type: z.literal("presets") }).strict(),
  z.object({ type: z.literal("savePreset"), preset: presetSchema }).strict(),
  /** Firefox: a site message relayed by the bridge content script on our origin. */
  z.object({ type: z.literal("site"), message: z.unknown() }).strict(),
]);
export type InternalMessage = z.infer<typeof internalMessageSchema>;

export type CompanionState =
  | { state: "stopped" }
  | { state: "unpaired" }
  | { state: "paired"; version: string; outputDir: string; session: boolean };

export const accountSchema = meResponseSchema;
export type Account = z.infer<typeof accountSchema>;

export interface Status {
  signedIn: boolean;
  apiKey: string | null;
  account: Account | null;
  companion: CompanionState;
}

/** Why a request failed, so that the panel can say what to do. */
export type FailureKind = "stopped" | "unpaired" | "signed_out" | "credits" | "plan_limit" | "invalid" | "other";
export interface Failure {
  kind: FailureKind;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export type { Job, Preset };
export const jobListSchema = z.object({ jobs: z.array(jobSchema) });
