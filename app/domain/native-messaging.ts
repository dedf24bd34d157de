import { z } from "zod";
import {
  clipJobRequestSchema,
  companionEventSchema,
  jobErrorSchema,
  jobSchema,
  sessionRequestSchema,
} from "./companion";
import { dryRunReportSchema, dryRunRequestSchema } from "./true-cut";

/**
 * The companion as a native messaging host: the browser starts it for the extension (no port, no pairing token; only
 * the extension ids listed in the host manifest may connect). Each message is a 4-byte length in native byte order
 * and UTF-8 JSON. Every request of the extension is in the one union below; a new request is one more member.
 */

/** The host's registered name: lower-case letters, digits, "_" and "." only (Chrome's rule). */
export const NATIVE_HOST_NAME = "app.clipcut.companion";

/** Firefox lists the add-on's gecko id in the host manifest (allowed_extensions), not the per-install UUID. */
export const FIREFOX_EXTENSION_ID = "extension@clipcut.app";

/**
 * The protocol version. The extension refuses a host that speaks an older one ("version too old"), and the host one
 * that speaks a newer one than it knows.
 */
export const NATIVE_PROTOCOL = 1;

/** Frames larger than this from the browser are refused (the host only ever needs small JSON). */
export const NATIVE_MAX_REQUEST_BYTES = 1024 * 1024;
/** The host's own cap on a reply: Chrome and Firefox drop the port on a message over 1 MiB. */
export const NATIVE_MAX_REPLY_BYTES = 512 * 1024;

const requestId = z.string().min(1).max(64);

/** Every request the extension sends the host, by `type`. `id` pairs it with its reply. */
export const nativeRequestSchema = z.discriminatedUnion("type", [
  /** First message on a port: the host answers with its version and tools (nativeHelloSchema). */
  z.object({ type: z.literal("hello"), id: requestId, protocol: z.number().int().min(1) }).strict(),
  /** Keeps the port (and so the MV3 background) busy while jobs run. */
  z.object({ type: z.literal("ping"), id: requestId }).strict(),
  /**
   * Clips to cut, with the account's API token: the host keeps it with these jobs only (in memory), to reserve and
   * capture their credits. More than one job is a batch (checked against the plan).
   */
  z
    .object({
      type: z.literal("submit"),
      id: requestId,
      session: sessionRequestSchema,
      jobs: z.array(clipJobRequestSchema).min(1, "A batch needs at least one clip.").max(100),
    })
    .strict(),
  z.object({ type: z.literal("jobs"), id: requestId }).strict(),
  z.object({ type: z.literal("job"), id: requestId, jobId: z.string().uuid() }).strict(),
  z.object({ type: z.literal("cancel"), id: requestId, jobId: z.string().uuid() }).strict(),
  /** The panel's true-cut report for a range (nothing reserved or written); see ./true-cut. */
  z.object({ type: z.literal("dryRun"), id: requestId, request: dryRunRequestSchema }).strict(),
]);
export type NativeRequest = z.infer<typeof nativeRequestSchema>;
export type NativeRequestType = NativeRequest["type"];

/** The answer to hello: who the host is and what it can run. A missing tool is null (the popup says what to do). */
export const nativeHelloSchema = z.object({
  name: z.literal("clipcut-companion"),
  version: z.string(),
  protocol: z.number().int(),
  ffmpeg: z.string().nullable(),
  ffprobe: z.string().nullable(),
  ytDlp: z.string().nullable(),
  ytDlpWarning: z.string().nullable(),
  outputDir: z.string(),
});
export type NativeHello = z.infer<typeof nativeHelloSchema>;

/** The values of the other replies, by request type. */
export const nativeReplyValues = {
  ping: z.object({ pong: z.literal(true) }),
  submit: z.object({ jobs: z.array(jobSchema) }),
  jobs: z.object({ jobs: z.array(jobSchema) }),
  job: z.object({ job: jobSchema }),
  cancel: z.object({ job: jobSchema }),
  dryRun: z.object({ report: dryRunReportSchema }),
} as const;

/** Everything the host sends: a reply to one request, a refusal (id null when the request was unreadable), an event. */
export const nativeMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reply"), id: requestId, value: z.unknown() }),
  z.object({ type: z.literal("error"), id: requestId.nullable(), error: jobErrorSchema }),
  z.object({ type: z.literal("event"), event: companionEventSchema }),
]);
export type NativeMessage = z.infer<typeof nativeMessageSchema>;

/**
 * What the browsers say when the host cannot be reached (tested on Chromium 156 and Firefox ESR 153; Chrome's doc
 * lists the others). The popup turns them into what to do.
 */
export type NativeFailure = "not_installed" | "forbidden" | "exited" | "broken";
export function nativeFailureOf(message: string | undefined): NativeFailure {
  const text = message ?? "";
  if (/Specified native messaging host not found|No such native application|is not registered/i.test(text))
    return "not_installed";
  if (/Access to the specified native messaging host is forbidden/i.test(text)) return "forbidden";
  if (/Native host has exited|Failed to start native messaging host/i.test(text)) return "exited";
  return "broken";
}
