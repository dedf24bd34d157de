import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket as NodeWebSocket, WebSocketServer } from "ws";
import type { Job } from "../../../app/domain/companion";
import { CompanionClient } from "./companion-client";
import { pairedTransport } from "./companion-transport";
import { applyJobEvent, createJobFeed, type FeedMessage, type FeedPort } from "./job-feed";

const job: Job = {
  id: "6f1c1d2e-0000-4000-8000-000000000001",
  status: "running",
  request: { source: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", startSeconds: 10, endSeconds: 25 },
  progress: { percent: 10, speed: null, etaSeconds: null },
  result: null,
  error: null,
  credits: { holdId: null, amount: null, state: "none" },
  createdAt: "2026-11-24T00:00:00.000Z",
  updatedAt: "2026-11-24T00:00:00.000Z",
};

/** A paired serve's events over its WebSocket (Node's, in place of the browser's). */
const serve = (socketUrl: string) =>
  pairedTransport(new CompanionClient("A".repeat(43), "http://127.0.0.1:9"), {
    session: true,
    socketUrl,
    open: (url) => new NodeWebSocket(url) as unknown as WebSocket,
  });

/** A port as the background sees it: what it was sent, and its disconnect. */
function port() {
  const sent: FeedMessage[] = [];
  const listeners: (() => void)[] = [];
  const value: FeedPort = {
    postMessage: (message) => void sent.push(message),
    onDisconnect: { addListener: (listener) => void listeners.push(listener) },
  };
  return { value, sent, disconnect: () => listeners.forEach((l) => l()) };
}

let server: WebSocketServer | null = null;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A loopback WebSocket server speaking as the companion's /ws; `urls` records the paths asked for. */
async function companionSocket(onConnection: (socket: NodeWebSocket) => void) {
  const urls: string[] = [];
  server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  server.on("connection", (socket, req) => {
    urls.push(req.url ?? "");
    onConnection(socket);
  });
  await new Promise((done) => server!.once("listening", done));
  const base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, urls };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

describe("the job feed (pushed progress, no polling)", () => {
  it("passes the companion's events to every open port, drops anything malformed, and closes when none listens", async () => {
    let companionSide: NodeWebSocket | null = null;
    const { base, urls } = await companionSocket((socket) => {
      companionSide = socket;
      socket.send(JSON.stringify({ type: "job", job }));
      socket.send("not json");
      socket.send(JSON.stringify({ type: "job", job: { id: "no" } }));
      socket.send(
        JSON.stringify({ type: "progress", jobId: job.id, progress: { percent: 55, speed: 2, etaSeconds: 1 } }),
      );
    });
    const feed = createJobFeed(serve(`${base}/ws?token=${"A".repeat(43)}`));
    const a = port();
    const b = port();
    feed.connect(a.value);
    feed.connect(b.value);
    await until(() => a.sent.length === 2 && b.sent.length === 2);
    expect(urls).toEqual([`/ws?token=${"A".repeat(43)}`]); // one socket for both
    expect(a.sent.map((m) => m.type)).toEqual(["job", "progress"]);
    const [first, second] = a.sent;
    if (first?.type !== "job" || second?.type !== "progress") throw new Error("unexpected order");
    expect(first.job.id).toBe(job.id);
    expect(applyJobEvent([job], second)[0]!.progress.percent).toBe(55);

    // The last listener gone, the socket closes.
    const closed = new Promise((done) => companionSide!.once("close", done));
    a.disconnect();
    b.disconnect();
    await closed;
  });

  it("tells its listeners when the companion goes away, and the next listener follows it afresh", async () => {
    const { base, urls } = await companionSocket((socket) => setTimeout(() => socket.close(), 50));
    const feed = createJobFeed(serve(`${base}/ws`));
    const listener = port();
    feed.connect(listener.value);
    await until(() => listener.sent.some((m) => m.type === "closed"));
    // The panel reconnects after "closed": its new port opens a new socket, while the popup's port stays.
    const later = port();
    feed.connect(later.value);
    await until(() => urls.length === 2 && later.sent.some((m) => m.type === "closed"));
  });
});

describe("a job list follows the newest state it has heard", () => {
  const later = (at: string, changes: Partial<Job>): Job => ({ ...job, ...changes, updatedAt: at });
  const done = later("2026-11-24T00:00:05.000Z", { status: "done" });

  it("takes a state read after the feed connected when it is newer: a refused clip shows failed", () => {
    const failed = later("2026-11-24T00:00:01.000Z", { status: "failed" });
    expect(applyJobEvent([job], { type: "job", job: failed })[0]!.status).toBe("failed");
  });

  it("keeps a finished job finished when a read sent before the last event answers after it", () => {
    const staleRead = later("2026-11-24T00:00:04.000Z", { status: "running" });
    const list = applyJobEvent([job], { type: "job", job: done });
    expect(applyJobEvent(list, { type: "job", job: staleRead })[0]!.status).toBe("done");
  });

  it("leaves out a job the list does not hold", () => {
    expect(applyJobEvent([job], { type: "job", job: { ...done, id: "another" } })).toEqual([job]);
  });
});
