import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { NATIVE_PROTOCOL } from "../../../app/domain/native-messaging";
import { encodeFrame, FrameReader } from "../../companion/src/host/native-frame";
import { FAILURE_TEXT } from "./failures";
import { createNativeCompanion, type NativePort } from "./native-companion";

/**
 * The real companion as the host, on pipes, behind the part of runtime.Port the client uses (what the browser does
 * between connectNative and the process). The browsers themselves run in the e2e suites.
 */
const CLI = fileURLToPath(new URL("../../companion/src/host/cli.ts", import.meta.url));
const TSX = fileURLToPath(new URL("../../../node_modules/tsx/dist/cli.mjs", import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function pipePort(): NativePort & { child: ChildProcessWithoutNullStreams } {
  const out = mkdtempSync(join(tmpdir(), "clipcut-native-port-"));
  const child = spawn(process.execPath, [TSX, CLI, "native-host", "--output-dir", out, "chrome-extension://x/"]);
  children.push(child);
  const onMessage: ((m: unknown) => void)[] = [];
  const onDisconnect: ((p: NativePort) => void)[] = [];
  const reader = new FrameReader();
  child.stdout.on("data", (chunk: Buffer) => {
    for (const frame of reader.push(chunk)) if (frame.ok) for (const l of onMessage) l(frame.value);
  });
  const port = {
    child,
    postMessage: (m: unknown) => void child.stdin.write(encodeFrame(m)),
    disconnect: () => void child.stdin.end(),
    onMessage: { addListener: (l: (m: unknown) => void) => void onMessage.push(l) },
    onDisconnect: { addListener: (l: (p: NativePort) => void) => void onDisconnect.push(l) },
    error: null as { message?: string } | null,
  };
  child.on("exit", () => {
    port.error = { message: "Native host has exited." };
    for (const l of onDisconnect) l(port);
  });
  return port;
}

/** A browser refusing the port with one of its error strings. */
function refusedPort(message: string): NativePort {
  const listeners: ((p: NativePort) => void)[] = [];
  const port: NativePort = {
    postMessage: () => undefined,
    disconnect: () => undefined,
    onMessage: { addListener: () => undefined },
    onDisconnect: { addListener: (l) => void listeners.push(l) },
  };
  setTimeout(() => listeners.forEach((l) => l({ ...port, error: { message } })), 5);
  return port;
}

describe("the extension's native companion client", () => {
  it("says hello to the real host: its version, protocol, tools and output folder", async () => {
    const native = createNativeCompanion({ connect: pipePort });
    const hello = await native.connect();
    expect(hello.ok).toBe(true);
    if (!hello.ok) return;
    expect(hello.value.protocol).toBe(NATIVE_PROTOCOL);
    expect(hello.value.ffmpeg).toMatch(/ffmpeg/);
    expect(native.isOpen()).toBe(true);
    const pong = await native.call("ping", {});
    expect(pong).toEqual({ ok: true, value: { pong: true } });
    native.close();
  });

  it("closes the port when idle, and the host exits", async () => {
    let port: ReturnType<typeof pipePort> | null = null;
    const native = createNativeCompanion({
      connect: () => (port = pipePort()),
      idleMs: 200,
    });
    expect((await native.connect()).ok).toBe(true);
    const code = await new Promise<number | null>((resolve) => port!.child.once("exit", resolve));
    expect(code).toBe(0);
    expect(native.isOpen()).toBe(false);
  });

  it("turns each browser's error string into what to do", async () => {
    const cases: [string, string][] = [
      ["Specified native messaging host not found.", FAILURE_TEXT.not_installed],
      ["No such native application app.clipcut.companion", FAILURE_TEXT.not_installed],
      ["Access to the specified native messaging host is forbidden.", "does not list this extension"],
      ["Native host has exited.", "The companion stopped (Native host has exited). Run `npx clipcut-companion doctor`"],
    ];
    for (const [error, says] of cases) {
      const native = createNativeCompanion({ connect: () => refusedPort(error) });
      const hello = await native.connect();
      expect(hello.ok).toBe(false);
      if (!hello.ok) expect(hello.failure.message).toContain(says);
    }
    // No nativeMessaging permission: connectNative itself throws.
    const none = createNativeCompanion({
      connect: () => {
        throw new Error("browser.runtime.connectNative is not a function");
      },
    });
    expect(await none.connect()).toMatchObject({ ok: false, failure: { kind: "stopped" } });
  });

  it("a host that dies mid-job fails that job (nothing was charged) and tells the listeners", async () => {
    let port: ReturnType<typeof pipePort> | null = null;
    const native = createNativeCompanion({ connect: () => (port = pipePort()) });
    const heard: string[] = [];
    native.subscribe((event) => heard.push(event.type));
    expect((await native.connect()).ok).toBe(true);
    // A job the host reported, then the host is killed (as a crash would).
    const job = {
      id: crypto.randomUUID(),
      status: "running",
      request: { source: "https://example.com/v.mp4", startSeconds: 0, endSeconds: 1 },
      progress: { percent: 10, speed: null, etaSeconds: null },
      result: null,
      error: null,
      credits: { holdId: null, amount: null, state: "reserved" },
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    // The event reaches the client as the host would have sent it.
    port!.child.stdout.emit("data", encodeFrame({ type: "event", event: { type: "job", job } }));
    expect(native.known(job.id)?.status).toBe("running");
    port!.child.kill("SIGKILL");
    await new Promise((r) => port!.child.once("exit", r));
    expect(heard).toEqual(["job", "closed"]);
    expect(native.known(job.id)).toMatchObject({ status: "failed", error: { code: "companion_stopped" } });
  });

  it("a request after the host exited unseen goes to a new host, not to the dead port", async () => {
    // The browser tells of the exit only a moment later: here, once something was posted to the dead port.
    const ports: ReturnType<typeof pipePort>[] = [];
    const posted: { port: number; type: string }[] = [];
    const native = createNativeCompanion({
      connect: () => {
        const real = pipePort();
        const index = ports.push(real) - 1;
        const late: ((p: NativePort) => void)[] = [];
        let exited = false;
        real.onDisconnect.addListener(() => (exited = true));
        return {
          ...real,
          postMessage(message: unknown) {
            posted.push({ port: index, type: (message as { type: string }).type });
            if (exited)
              setTimeout(() => late.forEach((l) => l({ ...real, error: { message: "Native host has exited." } })), 5);
            else real.postMessage(message);
          },
          onDisconnect: { addListener: (l: (p: NativePort) => void) => void late.push(l) },
        };
      },
    });
    expect((await native.connect()).ok).toBe(true);
    ports[0]!.child.kill("SIGKILL");
    await new Promise((r) => ports[0]!.child.once("exit", r));
    expect(native.isOpen()).toBe(true); // not told yet

    const [list, again] = await Promise.all([native.call("jobs", {}), native.call("jobs", {})]);
    expect(list).toEqual({ ok: true, value: { jobs: [] } });
    expect(again).toEqual({ ok: true, value: { jobs: [] } });
    expect(ports).toHaveLength(2);
    // Only the liveness ping went to the dead port; both requests went to the new host.
    expect(posted.filter((p) => p.port === 0).map((p) => p.type)).toEqual(["hello", "ping"]);
    expect(posted.filter((p) => p.port === 1 && p.type === "jobs")).toHaveLength(2);
    native.close();
  });
});
