import type { z } from "zod";
import type { CompanionEvent, Job } from "../../../app/domain/companion";
import {
  NATIVE_PROTOCOL,
  nativeFailureOf,
  nativeHelloSchema,
  nativeMessageSchema,
  nativeReplyValues,
  type NativeHello,
  type NativeRequest,
} from "../../../app/domain/native-messaging";
import { FAILURE_TEXT, failureFromStatus } from "./failures";
import type { Failure, Result } from "./messages";

/** The part of a runtime.Port the client uses (Firefox puts the reason on `error`, Chrome on runtime.lastError). */
export interface NativePort {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: (port: NativePort) => void): void };
  error?: { message?: string } | null;
}

export interface NativeOptions {
  /** runtime.connectNative(NATIVE_HOST_NAME); throws when the permission is missing. */
  connect: () => NativePort;
  /** Chrome's runtime.lastError.message, read inside onDisconnect. */
  lastError?: () => string | undefined;
  /** The port is closed this long after the last job ended (the host then exits). */
  idleMs?: number;
  /** While jobs run, a ping this often keeps the port, and with it the MV3 background, busy. */
  pingMs?: number;
  timeoutMs?: number;
}

const IDLE_MS = 30_000;
const PING_MS = 20_000;
/** The host's first answer waits for its tools' versions (yt-dlp is a Python start-up): seconds on a busy machine. */
const TIMEOUT_MS = 30_000;
const FINISHED = new Set(["done", "failed", "cancelled"]);
/** How many jobs the background remembers after the host exited (the popup's recent clips). */
const KEPT_JOBS = 20;

type ValueOf<T extends keyof typeof nativeReplyValues> = z.infer<(typeof nativeReplyValues)[T]>;
type Body<T extends NativeRequest["type"]> = Omit<Extract<NativeRequest, { type: T }>, "id" | "type">;

/** Why the companion cannot be used, as the popup and the panel show it. */
export function nativeFailure(reason: ReturnType<typeof nativeFailureOf>, detail?: string): Failure {
  if (reason === "not_installed") return { kind: "not_installed", message: FAILURE_TEXT.not_installed };
  if (reason === "forbidden")
    return {
      kind: "not_installed",
      message:
        "The companion is installed but does not list this extension. Run `npx clipcut-companion install` again.",
    };
  return {
    kind: "stopped",
    // The browser's reason ends with its own full stop ("Native host has exited."): one sentence, one full stop.
    message: `The companion stopped${detail ? ` (${detail.replace(/\.$/, "")})` : ""}. Run \`npx clipcut-companion doctor\` to see why.`,
  };
}

/**
 * The companion started by the browser (native messaging). One port while there is work: opened on demand, pinged
 * while jobs run, closed when idle (the host then exits). Replies are matched to requests by id; job events go to
 * every listener; the last state of each job is kept, so that the popup still lists them after the host exited.
 */
export function createNativeCompanion(options: NativeOptions) {
  let port: NativePort | null = null;
  let hello: Promise<Result<NativeHello>> | null = null;
  let next = 0;
  const pending = new Map<string, (reply: Result<unknown>) => void>();
  const listeners = new Set<(event: CompanionEvent | { type: "closed" }) => void>();
  const jobs = new Map<string, Job>();
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;

  const active = () => [...jobs.values()].some((job) => !FINISHED.has(job.status));

  function remember(job: Job) {
    jobs.delete(job.id);
    jobs.set(job.id, job);
    while (jobs.size > KEPT_JOBS) jobs.delete(jobs.keys().next().value as string);
  }

  /** Pings while jobs run; closes the port a while after the last one ended. */
  function schedule() {
    clearTimeout(idleTimer);
    if (!port) return;
    if (active() || pending.size > 0) {
      pingTimer ??= setInterval(() => void call("ping", {}), options.pingMs ?? PING_MS);
      return;
    }
    clearInterval(pingTimer);
    pingTimer = undefined;
    idleTimer = setTimeout(close, options.idleMs ?? IDLE_MS);
  }

  function close() {
    const last = port;
    dropped(undefined);
    last?.disconnect();
  }

  /** The port is gone: every waiting request fails; jobs still running are lost with the host. */
  function dropped(failure: Failure | undefined) {
    port = null;
    hello = null;
    clearTimeout(idleTimer);
    clearInterval(pingTimer);
    pingTimer = undefined;
    const why = failure ?? { kind: "stopped", message: "The companion closed." };
    for (const resolve of pending.values()) resolve({ ok: false, failure: why });
    pending.clear();
    for (const job of jobs.values())
      if (!FINISHED.has(job.status))
        remember({
          ...job,
          status: "failed",
          error: { code: "companion_stopped", message: `${why.message} The clip was not made; no credits were used.` },
        });
    if (failure) for (const listener of listeners) listener({ type: "closed" });
  }

  function open(): NativePort | Failure {
    if (port) return port;
    let fresh: NativePort;
    try {
      fresh = options.connect();
    } catch (error) {
      return nativeFailure(nativeFailureOf(error instanceof Error ? error.message : String(error)));
    }
    port = fresh;
    fresh.onMessage.addListener((raw) => {
      const parsed = nativeMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === "event") {
        if (message.event.type === "job") remember(message.event.job);
        else {
          const job = jobs.get(message.event.jobId);
          if (job) jobs.set(job.id, { ...job, progress: message.event.progress });
        }
        for (const listener of listeners) listener(message.event);
        schedule();
        return;
      }
      const resolve = message.id === null ? undefined : pending.get(message.id);
      if (!resolve || message.id === null) return;
      pending.delete(message.id);
      resolve(
        message.type === "reply"
          ? { ok: true, value: message.value }
          : {
              ok: false,
              failure: failureFromStatus(message.error.status ?? 500, message.error.code, message.error.message),
            },
      );
      schedule();
    });
    fresh.onDisconnect.addListener((p) => {
      if (port !== fresh) return;
      const reason = p?.error?.message ?? options.lastError?.();
      dropped(nativeFailure(nativeFailureOf(reason), reason));
    });
    return fresh;
  }

  function send(request: Record<string, unknown>): Promise<Result<unknown>> {
    const opened = open();
    if (!("postMessage" in opened)) return Promise.resolve({ ok: false, failure: opened });
    clearTimeout(idleTimer);
    const id = `${Date.now().toString(36)}-${next++}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve({ ok: false, failure: { kind: "stopped", message: "The companion did not answer in time." } });
        schedule();
      }, options.timeoutMs ?? TIMEOUT_MS);
      pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      try {
        opened.postMessage({ ...request, id });
      } catch {
        // The port closed before the message left: onDisconnect tells why.
      }
    });
  }

  /** The host's hello, asked once per port: who it is, its protocol and its tools. */
  function connect(): Promise<Result<NativeHello>> {
    if (port && hello) return hello;
    hello = send({ type: "hello", protocol: NATIVE_PROTOCOL }).then((reply): Result<NativeHello> => {
      if (!reply.ok) return reply;
      const parsed = nativeHelloSchema.safeParse(reply.value);
      if (!parsed.success || parsed.data.protocol < NATIVE_PROTOCOL)
        return { ok: false, failure: { kind: "outdated", message: FAILURE_TEXT.outdated } };
      return { ok: true, value: parsed.data };
    });
    const mine = hello;
    void mine.then((r) => {
      if (!r.ok && hello === mine) close();
      else schedule();
    });
    return hello;
  }

  /**
   * A port with nothing in flight may belong to a host that has exited while the browser has not said so yet (its
   * onDisconnect comes a moment later): a request posted there is lost and fails as "Native host has exited". So an
   * idle port is pinged first; if its host is gone the port drops, and connect() opens a fresh one (a new host).
   * Calls made meanwhile wait for the same ping.
   */
  let checking: Promise<unknown> | null = null;
  function alive(): Promise<unknown> {
    if (checking) return checking;
    if (!port || !hello || pending.size > 0 || active()) return Promise.resolve();
    const check = send({ type: "ping" }).finally(() => {
      if (checking === check) checking = null;
    });
    checking = check;
    return check;
  }

  async function call<T extends keyof typeof nativeReplyValues>(type: T, body: Body<T>): Promise<Result<ValueOf<T>>> {
    await alive();
    const ready = await connect();
    if (!ready.ok) return ready;
    const reply = await send({ type, ...body });
    if (!reply.ok) return reply;
    const parsed = nativeReplyValues[type].safeParse(reply.value);
    if (!parsed.success)
      return { ok: false, failure: { kind: "outdated", message: FAILURE_TEXT.outdated } } as Result<ValueOf<T>>;
    const value = parsed.data as ValueOf<T>;
    if ("jobs" in value) for (const job of value.jobs) remember(job);
    if ("job" in value) remember(value.job);
    schedule();
    return { ok: true, value };
  }

  return {
    connect,
    call,
    /** A job this companion ran, as last seen (for jobs of a host that has exited meanwhile). */
    known: (id: string) => jobs.get(id),
    recent: () => [...jobs.values()],
    isOpen: () => port !== null,
    subscribe(listener: (event: CompanionEvent | { type: "closed" }) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close,
  };
}

export type NativeCompanion = ReturnType<typeof createNativeCompanion>;
