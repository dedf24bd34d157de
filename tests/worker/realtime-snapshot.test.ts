import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ClipRequest } from "~/domain/api";
import { serverMessageSchema } from "~/domain/realtime";
import { ledger } from "~/services/ledger.server";
import { countRows, insertUser, signIn } from "./helpers";

const PASSWORD = "snapshot count passphrase";
const request = (name: string): ClipRequest => ({
  name,
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25,
  format: "mp4",
  quality: "720p",
});

/** The clip count a page hears: a fresh socket's hello, answered by the snapshot. */
async function snapshotClipCount(cookie: string): Promise<number> {
  const res = await exports.default.fetch(
    new Request("http://localhost/realtime", { headers: { Upgrade: "websocket", Cookie: cookie } }),
  );
  const ws = res.webSocket;
  if (res.status !== 101 || !ws) throw new Error(`no socket: ${res.status}`);
  const snapshot = new Promise<number>((resolve, reject) => {
    ws.addEventListener("message", (event) => {
      const message = serverMessageSchema.parse(JSON.parse(String(event.data)));
      if (message.type === "snapshot") resolve(message.data.clipCount);
    });
    ws.addEventListener("close", (event) => reject(new Error(`closed ${event.code}`)));
  });
  ws.accept();
  ws.send(JSON.stringify({ v: 1, type: "hello", lastSeq: null }));
  try {
    return await snapshot;
  } finally {
    ws.close(1000, "read");
  }
}

async function charged(userId: string, key: string): Promise<string> {
  const result = await ledger(env, userId).charge({ key, request: request(key), source: "api" });
  if (!result.ok) throw new Error(result.message);
  return result.value.clip.id;
}

describe("the snapshot's clip count", () => {
  it("follows adding, deleting and refunding clips, from the ledger's memory rather than a COUNT in D1", async () => {
    const email = `${crypto.randomUUID()}@example.com`;
    const userId = await insertUser({ email, password: PASSWORD, credits: 100 });
    const adminId = await insertUser({ email: `${crypto.randomUUID()}@example.com`, role: "admin" });
    const cookie = await signIn(email, PASSWORD);
    const clips = () => countRows("SELECT count(*) n FROM clips WHERE user_id = ?", userId);
    expect(await snapshotClipCount(cookie)).toBe(0);

    const [first, second, third] = [await charged(userId, "a"), await charged(userId, "b"), await charged(userId, "c")];
    expect(await snapshotClipCount(cookie)).toBe(3);

    expect(await ledger(env, userId).deleteClip({ clipId: first })).toMatchObject({ ok: true });
    expect(await snapshotClipCount(cookie)).toBe(2);

    // A refund alone gives the credits back and keeps the clip; with deleteClip (an admin's delete) it goes.
    const refund = { reason: "a bad cut", actorId: adminId };
    expect(await ledger(env, userId).refund({ clipId: second, ...refund })).toMatchObject({ ok: true });
    expect(await snapshotClipCount(cookie)).toBe(2);
    expect(await ledger(env, userId).refund({ clipId: third, ...refund, deleteClip: true })).toMatchObject({
      ok: true,
    });
    expect(await snapshotClipCount(cookie)).toBe(1);
    expect(await clips()).toBe(1);

    // Memory, not D1: a row removed behind the ledger's back is not seen until the ledger reloads its state.
    await env.DB.prepare("DELETE FROM clips WHERE id = ?").bind(second).run();
    expect(await snapshotClipCount(cookie)).toBe(1);
    await ledger(env, userId).sweep();
    expect(await snapshotClipCount(cookie)).toBe(0);
  });
});
