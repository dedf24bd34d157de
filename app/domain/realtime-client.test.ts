import { describe, expect, it } from "vitest";
import { connectRealtime, type RealtimeStatus, type SocketLike } from "./realtime-client";
import {
  MAX_RECONNECT_ATTEMPTS,
  OVER_BUDGET_RETRY_MS,
  reconnectDelayMs,
  serverMessageSchema,
  type ServerMessage,
} from "./realtime";

/** A socket the test drives by hand, and timers that run only when the test says so. */
function harness() {
  const sockets: FakeSocket[] = [];
  const due: { fn: () => void; ms: number }[] = [];
  class FakeSocket implements SocketLike {
    readyState = 0;
    sent: unknown[] = [];
    closedWith: number | null = null;
    private listeners: Record<string, ((e: never) => void)[]> = {};
    addEventListener(type: string, listener: (e: never) => void) {
      (this.listeners[type] ??= []).push(listener);
    }
    emit(type: string, event: unknown = {}) {
      for (const l of this.listeners[type] ?? []) l(event as never);
    }
    send(data: string) {
      this.sent.push(JSON.parse(data));
    }
    close(code = 1000) {
      this.closedWith = code;
    }
    open() {
      this.readyState = 1;
      this.emit("open");
    }
    message(m: unknown) {
      this.emit("message", { data: JSON.stringify(m) });
    }
  }
  const messages: ServerMessage[] = [];
  const statuses: RealtimeStatus[] = [];
  const closeCodes: (number | undefined)[] = [];
  let gaps = 0;
  const client = connectRealtime<ServerMessage>({
    url: "ws://x/realtime",
    sequenced: true,
    parse: (json) => {
      const parsed = serverMessageSchema.safeParse(json);
      return parsed.success ? parsed.data : null;
    },
    onMessage: (m) => messages.push(m),
    onStatus: (s, code) => {
      statuses.push(s);
      closeCodes.push(code);
    },
    onGap: () => gaps++,
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    schedule: {
      setTimeout: (fn, ms) => due.push({ fn, ms }),
      clearTimeout: () => {},
      setInterval: () => 0,
      clearInterval: () => {},
    },
    random: () => 0,
  });
  return { sockets, due, messages, statuses, closeCodes, client, gaps: () => gaps };
}

const credits = (seq: number, balance: number) => ({
  v: 1,
  type: "credits",
  seq,
  data: { balance, held: 0, available: balance },
});
const snapshot = (seq: number) => ({
  v: 1,
  type: "snapshot",
  seq,
  data: { credits: { balance: 1, held: 0, available: 1 }, plan: { plan: "Free", pendingPlan: null }, clipCount: 0 },
});

describe("connectRealtime", () => {
  it("says hello with the last seq after a reconnect and reports a missed seq as a gap", () => {
    const h = harness();
    h.sockets[0]!.open();
    expect(h.sockets[0]!.sent).toEqual([{ v: 1, type: "hello", lastSeq: null }]);
    h.sockets[0]!.message(snapshot(3));
    h.sockets[0]!.message(credits(4, 9));
    h.sockets[0]!.emit("close", { code: 1001 }); // a deploy
    expect(h.statuses.at(-1)).toBe("reconnecting");
    h.due.shift()!.fn();
    h.sockets[1]!.open();
    expect(h.sockets[1]!.sent).toEqual([{ v: 1, type: "hello", lastSeq: 4 }]);
    h.sockets[1]!.message(snapshot(7)); // 5 and 6 were missed
    expect(h.gaps()).toBe(1);
  });

  it("asks for a snapshot when the stream skips a seq, instead of applying out of order", () => {
    const h = harness();
    h.sockets[0]!.open();
    h.sockets[0]!.message(snapshot(1));
    h.sockets[0]!.message(credits(3, 5));
    expect(h.messages.filter((m) => m.type === "credits")).toEqual([]);
    expect(h.sockets[0]!.sent.at(-1)).toEqual({ v: 1, type: "hello", lastSeq: 1 });
  });

  it.each([
    { code: 4001, why: "access ended (sign-out, ban, password change)", status: "ended", retries: 0 },
    { code: 4003, why: "no longer an admin", status: "ended", retries: 0 },
    { code: 1001, why: "a deploy", status: "reconnecting", retries: 1 },
    { code: 1006, why: "a dropped connection", status: "reconnecting", retries: 1 },
    { code: 1008, why: "over the frame budget", status: "reconnecting", retries: 1 },
    { code: 1011, why: "a server error", status: "reconnecting", retries: 1 },
  ])("after close $code ($why) the status is $status", ({ code, status, retries }) => {
    const h = harness();
    h.sockets[0]!.open();
    h.sockets[0]!.emit("close", { code });
    expect(h.due).toHaveLength(retries);
    expect(h.statuses.at(-1)).toBe(status);
    // An end says which one, so the page knows where to go.
    expect(h.closeCodes.at(-1)).toBe(status === "ended" ? code : undefined);
  });

  it("after an over-budget close (1008) the retry waits 5–10 s, not the short backoff of a deploy", () => {
    const h = harness(); // random() = 0: the backoff would be its shortest
    h.sockets[0]!.open();
    h.sockets[0]!.emit("close", { code: 1008 });
    expect(h.due.map((d) => d.ms)).toEqual([OVER_BUDGET_RETRY_MS]);
    h.due.shift()!.fn();
    h.sockets[1]!.open();
    h.sockets[1]!.emit("close", { code: 1001 }); // a deploy after that: the usual shortest backoff
    expect(h.due.map((d) => d.ms)).toEqual([reconnectDelayMs(0, () => 0)]);
    expect(reconnectDelayMs(0, () => 0)).toBeLessThan(OVER_BUDGET_RETRY_MS);
  });

  it(`gives up ("failed") after ${MAX_RECONNECT_ATTEMPTS} tries in a row that never open; retry() starts over`, () => {
    const h = harness();
    for (let i = 0; i < MAX_RECONNECT_ATTEMPTS; i++) {
      expect(h.statuses.at(-1)).not.toBe("failed");
      h.sockets[i]!.emit("close", { code: 1006 }); // the upgrade was refused or the network is down
      h.due.shift()?.fn();
    }
    expect(h.sockets).toHaveLength(MAX_RECONNECT_ATTEMPTS);
    expect(h.statuses.at(-1)).toBe("failed");
    expect(h.due).toEqual([]);
    h.client.retry();
    expect(h.sockets).toHaveLength(MAX_RECONNECT_ATTEMPTS + 1);
    h.sockets.at(-1)!.open();
    expect(h.statuses.at(-1)).toBe("live");
  });

  it("a socket that opened starts the count of failed tries again (deploys never add up to giving up)", () => {
    const h = harness();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MAX_RECONNECT_ATTEMPTS - 1; i++) {
        h.sockets.at(-1)!.emit("close", { code: 1006 });
        h.due.shift()!.fn();
      }
      h.sockets.at(-1)!.open();
      h.sockets.at(-1)!.emit("close", { code: 1001 });
      h.due.shift()!.fn();
    }
    expect(h.statuses).not.toContain("failed");
  });

  it("retry() does nothing while the client is still trying or after access ended", () => {
    const h = harness();
    h.client.retry();
    expect(h.sockets).toHaveLength(1);
    h.sockets[0]!.open();
    h.sockets[0]!.emit("close", { code: 4001 });
    h.client.retry();
    expect(h.sockets).toHaveLength(1);
  });

  it("drops frames that are not JSON or not in the protocol", () => {
    const h = harness();
    h.sockets[0]!.open();
    h.sockets[0]!.emit("message", { data: "not json" });
    h.sockets[0]!.message({ v: 1, type: "credits", seq: 1, data: { balance: "lots" } });
    expect(h.messages).toEqual([]);
  });
});
