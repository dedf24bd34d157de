/**
 * The bench's range server in a process of its own (bench/companion-cut.ts): the origin is never in the companion's
 * process, and in the bench's own process it took the companion's event loop (its CPU counted as the companion's,
 * its sends serialized with the cut) while plain ffmpeg, a process of its own, ran beside it on the other core.
 */
import { fork, type ChildProcess } from "node:child_process";
import { startRangeServer } from "../../extension/companion/test/range-server";

/** What the bench asks of the server: URLs, and the bytes and requests it answered since the last reset. */
export interface RemoteRangeServer {
  url: (name: string) => string;
  reset: () => Promise<void>;
  stats: () => Promise<{ bytes: number; requests: number }>;
  close: () => Promise<void>;
}

type Reply = { id: number; base?: string; bytes?: number; requests?: number };

/** `delayMs` before each answer; `bytesPerSecond`: one pipe shared by all answers (test/range-server.ts). */
export async function startRangeServerProcess(
  root: string,
  o: { delayMs?: number; bytesPerSecond?: number } = {},
): Promise<RemoteRangeServer> {
  const args = ["--serve", root, String(o.delayMs ?? 0), String(o.bytesPerSecond ?? 0)];
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, args, {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let next = 0;
  const waiting = new Map<number, (reply: Reply) => void>();
  child.on("message", (m: Reply) => waiting.get(m.id)?.(m));
  const ask = (cmd: string) =>
    new Promise<Reply>((resolve) => {
      const id = next++;
      waiting.set(id, (reply) => (waiting.delete(id), resolve(reply)));
      child.send({ id, cmd });
    });
  const base = (await ask("url")).base!;
  return {
    url: (name) => `${base}${name}`,
    reset: async () => void (await ask("reset")),
    stats: async () => {
      const r = await ask("stats");
      return { bytes: r.bytes ?? 0, requests: r.requests ?? 0 };
    },
    close: async () => {
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

if (process.argv[2] === "--serve") {
  const server = await startRangeServer(process.argv[3]!, {
    delayMs: Number(process.argv[4] ?? 0),
    bytesPerSecond: Number(process.argv[5] ?? 0) || undefined,
  });
  process.on("message", (m: { id: number; cmd: string }) => {
    if (m.cmd === "reset") server.reset();
    const reply: Reply =
      m.cmd === "url"
        ? { id: m.id, base: server.url("") }
        : { id: m.id, bytes: server.bytesSent(), requests: server.requests() };
    process.send?.(reply);
  });
  process.on("disconnect", () => void server.close().then(() => process.exit(0)));
}
