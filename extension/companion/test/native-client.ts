import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { nativeMessageSchema, type NativeMessage } from "../../../app/domain/native-messaging";
import { encodeFrame, FrameReader } from "../src/host/native-frame";
import { BUILT_CLI } from "./cli-process";

/**
 * Drives `clipcut-companion native-host` over its pipes the way a browser does: frames on stdin, frames on stdout.
 * Every byte on stdout must belong to a frame that parses as a host message (`stray` collects anything else).
 */
export interface NativeHost {
  child: ChildProcessWithoutNullStreams;
  messages: NativeMessage[];
  stray: unknown[];
  stderr: () => string;
  send(message: unknown): void;
  sendRaw(bytes: Buffer): void;
  /** Sends a request with a fresh id and resolves with its reply or refusal. */
  request(message: Record<string, unknown>, ms?: number): Promise<NativeMessage>;
  /** Resolves with the first message (already received or coming) that matches. */
  waitFor(match: (m: NativeMessage) => boolean, ms?: number): Promise<NativeMessage>;
  exited: Promise<number | null>;
}

export function startNativeHost(args: string[], env: NodeJS.ProcessEnv = {}): NativeHost {
  const child = spawn(process.execPath, [...BUILT_CLI, "native-host", ...args, "chrome-extension://test/"], {
    env: { ...process.env, ...env },
  });
  const messages: NativeMessage[] = [];
  const stray: unknown[] = [];
  let stderr = "";
  const waiters = new Set<() => void>();
  const reader = new FrameReader(64 * 1024 * 1024);
  child.stdout.on("data", (chunk: Buffer) => {
    for (const frame of reader.push(chunk)) {
      const parsed = frame.ok ? nativeMessageSchema.safeParse(frame.value) : null;
      if (parsed?.success) messages.push(parsed.data);
      else stray.push(frame.ok ? frame.value : frame.reason);
    }
    for (const wake of waiters) wake();
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const waitFor = (match: (m: NativeMessage) => boolean, ms = 30_000) =>
    new Promise<NativeMessage>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message in ${ms} ms; got ${JSON.stringify(messages).slice(-2000)}\n${stderr}`));
      }, ms);
      if (!check()) waiters.add(check);
    });
  const host: NativeHost = {
    child,
    messages,
    stray,
    stderr: () => stderr,
    send: (message) => child.stdin.write(encodeFrame(message)),
    sendRaw: (bytes) => child.stdin.write(bytes),
    request: (message, ms) => {
      const id = randomUUID();
      host.send({ ...message, id });
      return waitFor((m) => (m.type === "reply" || m.type === "error") && m.id === id, ms);
    },
    waitFor,
    exited,
  };
  return host;
}
