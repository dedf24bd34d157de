import { appendFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { Readable, Writable } from "node:stream";
import type { JobError } from "../../../../app/domain/companion";
import {
  NATIVE_PROTOCOL,
  nativeRequestSchema,
  type NativeHello,
  type NativeMessage,
} from "../../../../app/domain/native-messaging";
import { DEFAULT_API_BASE } from "./api-client";
import { cleanStaleParts, defaultOutputDir } from "./config";
import { ClipError } from "../errors";
import { killAllChildren } from "../ffmpeg";
import { createHandler } from "./handler";
import { JobQueue, type JobQueueOptions } from "./jobs";
import { SourceCache } from "../source/source-cache";
import { encodeFrame, FrameReader, frameTooLarge } from "./native-frame";
import { checkApiBase, envAllowsPrivateSources } from "../source/net-guard";
import { toolPaths, toolVersion, ytDlpVersion, type Tools } from "./tools";
import { setTraceSink, traceEnabled } from "../trace";
import { VERSION } from "./version";
import { ytDlpAgeWarning } from "../source/ytdlp";

export interface NativeHostOptions {
  outputDir?: string;
  apiBaseUrl?: string;
  concurrency?: number;
  allowPrivateSources?: boolean;
  /** Appended to as well as stderr (the browser keeps the host's stderr in its own log, if anywhere). */
  logFile?: string;
  /** What started the host: Chrome passes the caller's origin, Firefox the manifest path and the add-on id. */
  caller?: string[];
  tools?: Tools;
  stdin?: Readable;
  stdout?: Writable;
  /** Called when the host is done (stdin closed and the jobs stopped); the CLI exits there. */
  onExit?: () => void;
  fetchImpl?: typeof fetch;
}

const ms = () => performance.now().toFixed(0);

/** A `.part` older than this belongs to no running cut (ffmpeg writes to its file continuously). */
const STALE_PART_MS = 60 * 60_000;
/** Chrome kills a host that is still running about 2 s after the port closed: stop well before. */
const STOP_BUDGET_MS = 1500;

/**
 * `clipcut-companion native-host`: the browser starts it for the extension's `connectNative` port and keeps it for the
 * life of the port. Requests, replies and job events are frames on stdin/stdout; nothing else is written to stdout.
 * This file is only the transport: each request is parsed with the native union and answered by handler.ts.
 * When stdin ends (the port closed: idle, browser quit, extension reloaded) every job is stopped at once: its ffmpeg
 * and yt-dlp are killed, its partial file removed and its hold released, then the host exits.
 */
export async function runNativeHost(options: NativeHostOptions = {}) {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = (line: string) => {
    const text = `${new Date().toISOString()} [clipcut-companion ${process.pid}] ${line}\n`;
    process.stderr.write(text);
    if (options.logFile) {
      try {
        appendFileSync(options.logFile, text);
      } catch {
        // a log that cannot be written must not stop the host
      }
    }
  };
  // Anything printed by accident would corrupt the frames: console output goes to the log.
  console.log = console.info = console.debug = (...args: unknown[]) => log(args.map(String).join(" "));
  // CLIPCUT_TRACE=1 in the browser's environment: each job's phases in the log too.
  setTraceSink((line) => log(line.trimEnd()));
  const tracing = traceEnabled();

  const tools = options.tools ?? toolPaths();
  const apiBase = checkApiBase(options.apiBaseUrl ?? process.env.CLIPCUT_API_BASE ?? DEFAULT_API_BASE);
  const outputDir = options.outputDir ?? process.env.CLIPCUT_OUTPUT_DIR ?? defaultOutputDir();
  const allowPrivateSources = options.allowPrivateSources || envAllowsPrivateSources();
  // performance.now() counts from the process's start: what loading the program cost before this line.
  log(`started by ${JSON.stringify(options.caller ?? [])}; output ${outputDir}; loaded in ${ms()} ms`);

  // Tool versions are asked once, beside reading the first frame; hello waits for them.
  const toolsReady = Promise.all([
    toolVersion(tools.ffmpeg),
    toolVersion(tools.ffprobe),
    ytDlpVersion(tools.ytDlp),
  ]).then(([ffmpeg, ffprobe, ytDlp]) => ({ ffmpeg, ffprobe, ytDlp, ytDlpWarning: ytDlpAgeWarning(ytDlp) }));
  // Several browsers (or profiles) may each run a host on the same folder: only parts no cut is writing are removed.
  const folderReady = mkdir(outputDir, { recursive: true })
    .then(() => cleanStaleParts(outputDir, { olderThanMs: STALE_PART_MS }))
    .catch(() => 0);

  // One cache of resolved sources for the panel's reports and the jobs: the clip reuses its report's yt-dlp answer.
  const sources = new SourceCache(tools);
  const queueOptions: JobQueueOptions = {
    sources,
    tools,
    outputDir,
    concurrency: options.concurrency && options.concurrency > 0 ? options.concurrency : 2,
    // No session of its own: each job comes with the account that pays for it.
    session: () => null,
    fetchImpl: options.fetchImpl,
    allowPrivateSources,
    ytDlpWarning: null,
  };
  const queue = new JobQueue(queueOptions);
  // The queue reads its options when a job runs; yt-dlp's age is known a moment after start.
  void toolsReady.then((t) => (queueOptions.ytDlpWarning = t.ytDlpWarning));

  let closed = false;
  // A frame written after the browser closed its end fails (EPIPE): nothing more is sent, and the host keeps
  // stopping its jobs instead of dying of the unhandled error with holds still open.
  stdout.on("error", () => {
    closed = true;
  });
  let firstAnswer = true;
  function send(message: NativeMessage) {
    if (closed) return;
    if (firstAnswer && message.type !== "event") {
      firstAnswer = false;
      const { user, system } = process.cpuUsage();
      log(`first answer ${ms()} ms after the process started (CPU ${((user + system) / 1000).toFixed(0)} ms)`);
    }
    let frame = encodeFrame(message);
    if (frameTooLarge(frame)) {
      const id = message.type === "reply" ? message.id : null;
      frame = encodeFrame({
        type: "error",
        id,
        error: { code: "reply_too_large", message: "The companion's answer was too large to send." },
      } satisfies NativeMessage);
    }
    stdout.write(frame);
  }
  queue.on("event", (event) => {
    if (event.type === "job")
      log(`job ${event.job.id.slice(0, 8)} ${event.job.status} (credits ${event.job.credits.state})`);
    send({ type: "event", event });
  });

  async function hello(): Promise<NativeHello> {
    const t = await toolsReady;
    await folderReady;
    return {
      name: "clipcut-companion",
      version: VERSION,
      protocol: NATIVE_PROTOCOL,
      ffmpeg: t.ffmpeg,
      ffprobe: t.ffprobe,
      ytDlp: t.ytDlp,
      ytDlpWarning: t.ytDlpWarning,
      outputDir,
    };
  }

  const handle = createHandler({
    ...{ queue, sources, tools, allowPrivateSources, apiBase, folderReady, hello, log },
    toolsReady: () =>
      toolsReady.then((t) => ({ ffmpeg: Boolean(t.ffmpeg && t.ffprobe), ytDlpWarning: t.ytDlpWarning })),
    // No session of its own: each submit comes with the account that pays for it.
    session: () => null,
  });

  function refuse(id: string | null, error: unknown) {
    const body: JobError =
      error instanceof ClipError
        ? { code: error.code, message: error.message, status: error.status }
        : { code: "internal", message: "Something went wrong in the companion.", status: 500 };
    if (!(error instanceof ClipError)) log(`request failed: ${error instanceof Error ? error.stack : String(error)}`);
    send({ type: "error", id, error: body });
  }

  function onFrame(raw: unknown) {
    const parsed = nativeRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const id = typeof raw === "object" && raw !== null && "id" in raw ? raw.id : null;
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length ? `${issue.path.join(".")}: ` : "";
      return refuse(
        typeof id === "string" && id.length > 0 && id.length <= 64 ? id : null,
        new ClipError("invalid_input", `${where}${issue?.message ?? "Invalid request."}`, 422),
      );
    }
    const request = parsed.data;
    const at = performance.now();
    const traced = () => tracing && log(`${request.type} answered in ${(performance.now() - at).toFixed(0)} ms`);
    handle(request).then(
      (value) => {
        traced();
        send({ type: "reply", id: request.id, value });
      },
      (error: unknown) => {
        traced();
        refuse(request.id, error);
      },
    );
  }

  const reader = new FrameReader();
  stdin.on("data", (chunk: Buffer) => {
    for (const frame of reader.push(chunk)) {
      if (frame.ok) onFrame(frame.value);
      else
        refuse(
          null,
          new ClipError(
            frame.reason === "too_large" ? "payload_too_large" : "invalid_json",
            frame.reason === "too_large" ? "The message is too large." : "The message is not valid JSON.",
            frame.reason === "too_large" ? 413 : 400,
          ),
        );
    }
  });

  let stopping: Promise<void> | null = null;
  function stop(reason: string): Promise<void> {
    stopping ??= (async () => {
      const running = queue.active();
      log(`${reason}: stopping ${running} job(s)`);
      const stopped = queue.stopAll();
      // The browser gives the host about 2 s: the processes go at once, not after a polite grace period.
      killAllChildren();
      const inTime = await Promise.race([
        stopped.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), STOP_BUDGET_MS).unref()),
      ]);
      closed = true;
      log(inTime ? "stopped; exiting" : "jobs did not end in time; exiting (their holds expire on the server)");
      options.onExit?.();
    })();
    return stopping;
  }
  stdin.on("end", () => void stop("the port closed"));
  stdin.on("close", () => void stop("the port closed"));
  return { queue, stop };
}
