import { z } from "zod";
import { meResponseSchema, presetRequestSchema, type Preset } from "../../../app/domain/api";
import { clipFields, withClipRange } from "../../../app/domain/clip-request";
import type { Job } from "../../../app/domain/companion";
import type { ExtensionReply } from "../../../app/domain/extension";
import type { DryRunReport } from "../../../app/domain/true-cut";

/** A clip the panel asks for: the one clip request of the site (http(s) page URL, 0.1 s to 24 h). */
export const clipJobSchema = withClipRange(z.object(clipFields).strict());
export type ClipJob = z.infer<typeof clipJobSchema>;

/**
 * The panel's true-cut question: this range of this page, in the format and quality it would be cut, with the aspect,
 * crop and captions it would be sent with (a crop or captions re-encode the picture).
 */
export const dryRunMessageSchema = withClipRange(
  z
    .object({
      videoUrl: clipFields.videoUrl,
      startSeconds: clipFields.startSeconds,
      endSeconds: clipFields.endSeconds,
      format: clipFields.format,
      quality: clipFields.quality,
      watermark: z.boolean(),
      thumbnails: z.boolean(),
      aspect: clipFields.aspect,
      crop: clipFields.crop,
      cropPosition: clipFields.cropPosition,
      captions: clipFields.captions,
    })
    .strict(),
);
export type DryRunAsk = z.infer<typeof dryRunMessageSchema>;

/** The companion's tools as the native host reported them (null: not installed). */
export interface CompanionTools {
  ffmpeg: string | null;
  ffprobe: string | null;
  ytDlp: string | null;
  ytDlpWarning: string | null;
}

/**
 * "paired" is a companion ready for jobs: started by the browser (native messaging, no pairing), or a `serve` the
 * user paired with. "unavailable" says why there is none, with what to do (not installed, too old, stopped).
 */
export type CompanionState =
  | { state: "unavailable"; kind: FailureKind; message: string }
  | { state: "unpaired" }
  | {
      state: "paired";
      via: "native" | "serve";
      version: string;
      outputDir: string;
      session: boolean;
      tools: CompanionTools | null;
    };

export const accountSchema = meResponseSchema;
export type Account = z.infer<typeof accountSchema>;

/** The signed-in account as the panel needs it to open (plan, limits, credits). */
export interface AccountStatus {
  signedIn: boolean;
  account: Account | null;
}

/** What the popup and the panel show. Never the API token: pages of the extension do not need it to draw. */
export interface Status extends AccountStatus {
  companion: CompanionState;
}

/** Why a request failed, so that the panel can say what to do. */
export type FailureKind =
  "stopped" | "not_installed" | "outdated" | "unpaired" | "signed_out" | "credits" | "plan_limit" | "invalid" | "other";
export interface Failure {
  kind: FailureKind;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/**
 * Who sends a message, as the background tells from the sender: our popup page, the clip panel (content script on
 * YouTube), the Firefox bridge (content script on our site's origins). Each message names the senders it accepts.
 */
export type Sender = "popup" | "panel" | "bridge";

interface MessageDef<S extends z.ZodTypeAny, R> {
  /** The message's fields besides `type`, parsed strictly. */
  schema: S;
  from: readonly Sender[];
  /** Type only: what the background answers. */
  reply: R;
}
const define =
  <R>() =>
  <S extends z.ZodTypeAny>(schema: S, from: readonly Sender[]): MessageDef<S, R> => ({
    schema,
    from,
    reply: undefined as unknown as R,
  });
const fields = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** Every message to the background: its fields, who may send it, and its reply. Nothing else is understood. */
export const MESSAGES = {
  status: define<Result<Status>>()(fields({}), ["popup"]),
  /**
   * The panel's view of the account, without waiting for the companion: starting the native host can take seconds,
   * and the panel must be usable at once. The companion's state is its own message. The background answers from
   * the last good account it remembers for the token; `fresh` waits for the site's answer now (a revoked token then
   * reads as signed out).
   */
  account: define<Result<AccountStatus>>()(fields({ fresh: z.boolean().optional() }), ["panel"]),
  /** The companion's state for the panel (the browser may start the native host to answer). */
  companion: define<Result<CompanionState>>()(fields({}), ["panel"]),
  /** The popup's live credits open /api/v1/realtime with the token; only the popup page gets it. */
  realtimeToken: define<Result<string | null>>()(fields({}), ["popup"]),
  pair: define<Result<Status>>()(fields({ token: z.string().trim().min(1).max(200) }), ["popup"]),
  createJob: define<Result<Job[]>>()(fields({ job: clipJobSchema }), ["panel"]),
  batch: define<Result<Job[]>>()(fields({ jobs: z.array(clipJobSchema).min(1).max(20) }), ["panel"]),
  job: define<Result<Job>>()(fields({ id: z.string().uuid() }), ["panel", "popup"]),
  jobs: define<Result<Job[]>>()(fields({}), ["popup"]),
  /** The true-cut report before Create (the companion's dry run). */
  dryRun: define<Result<DryRunReport>>()(fields({ ask: dryRunMessageSchema }), ["panel"]),
  cancelJob: define<Result<Job>>()(fields({ id: z.string().uuid() }), ["popup", "panel"]),
  /** The account's custom presets, through the site's API (the companion keeps none). */
  presets: define<Result<Preset[]>>()(fields({}), ["panel"]),
  savePreset: define<Result<Preset>>()(fields({ preset: presetRequestSchema }), ["panel"]),
  deletePreset: define<Result<null>>()(fields({ id: z.string().uuid() }), ["panel"]),
  /** Firefox: a site message relayed by the bridge on our origin; the reply goes back to the page as is. */
  site: define<ExtensionReply>()(fields({ message: z.unknown() }), ["bridge"]),
};

export type MessageType = keyof typeof MESSAGES;
export type MessageOf<K extends MessageType> = { type: K } & z.input<(typeof MESSAGES)[K]["schema"]>;
export type ParsedMessage<K extends MessageType> = { type: K } & z.output<(typeof MESSAGES)[K]["schema"]>;
export type ReplyOf<K extends MessageType> = (typeof MESSAGES)[K]["reply"];
export type AnyParsedMessage = { [K in MessageType]: ParsedMessage<K> }[MessageType];

const MALFORMED: Failure = { kind: "invalid", message: "Unknown or malformed message." };
const REFUSED: Failure = { kind: "invalid", message: "This part of ClipCut may not send that message." };

/** Parses one message against the map and the sender's rights; the failure says which check refused it. */
export function parseMessage(
  raw: unknown,
  sender: Sender | null,
): { ok: true; message: AnyParsedMessage } | { ok: false; failure: Failure } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, failure: MALFORMED };
  const { type, ...rest } = raw as Record<string, unknown>;
  if (typeof type !== "string" || !Object.hasOwn(MESSAGES, type)) return { ok: false, failure: MALFORMED };
  const def = MESSAGES[type as MessageType];
  if (!sender || !def.from.includes(sender)) return { ok: false, failure: REFUSED };
  const parsed = def.schema.safeParse(rest);
  if (!parsed.success) return { ok: false, failure: MALFORMED };
  return { ok: true, message: { type, ...(parsed.data as object) } as AnyParsedMessage };
}

export type { Job, Preset };
