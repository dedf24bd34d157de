import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Resolver } from "../src/source/net-guard";
import { openRangeReader } from "../src/source/range-reader";
import { startRangeServer, type RangeServer } from "./range-server";

/**
 * The in-process reader within the clip's known span: large parts, several in flight at once (their round trips
 * overlap on a slow link) but a bounded number, and the bytes exactly the file's.
 */
const dir = inject("mediaDir");
let server: RangeServer;

beforeAll(async () => {
  // A fixed delay per request: every round trip costs as much as on a slow link.
  server = await startRangeServer(dir, { delayMs: 40 });
});
afterAll(() => server.close());

const md5 = (b: Uint8Array) => createHash("md5").update(b).digest("hex");
/** A reader of one file of the test server, loopback allowed. */
const openOn = (name: string) =>
  openRangeReader({
    ...{ url: server.url(name), kind: "http", headers: {}, title: name, original: name },
    guard: { allowPrivate: true },
  });

describe("the range reader within the clip's span", () => {
  it("reads ahead with a few parts in flight at once, no more, and returns the file's bytes", async () => {
    const name = "src1080.mp4";
    const file = readFileSync(join(dir, name));
    const reader = await openOn(name);
    try {
      server.reset();
      const from = 500_000;
      const to = 15_500_000;
      reader.expectSpan(from, to);
      const got: Uint8Array[] = [];
      // A walk through the span in small steps, as the copy parses and writes it.
      for (let at = from; at < to; at += 200_000) {
        got.push(new Uint8Array(await reader.read(at, Math.min(to, at + 200_000))));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(md5(Buffer.concat(got))).toBe(md5(file.subarray(from, to)));
      expect(server.mostAtOnce()).toBeGreaterThanOrEqual(2);
      expect(server.mostAtOnce()).toBeLessThanOrEqual(4);
      // Large parts: 15 MB in a handful of requests, nothing fetched twice, nothing far past the span.
      expect(server.requests()).toBeLessThanOrEqual(10);
      expect(server.bytesSent()).toBeLessThanOrEqual(to - from + 64 * 1024);
    } finally {
      await reader.close();
    }
  });

  it("hands a writer the bytes as the pieces they arrived in, views of what it holds, never gathered into copies", async () => {
    const name = "src1080.mp4";
    const file = readFileSync(join(dir, name));
    const reader = await openOn(name);
    try {
      const from = 1_000_000;
      const to = 5_000_000;
      reader.expectSpan(from, to);
      const first = await reader.pieces(from, to);
      // 4 MB arrives in many socket pieces: several views, which together are exactly the file's bytes.
      expect(first.length).toBeGreaterThan(1);
      expect(md5(Buffer.concat(first))).toBe(md5(file.subarray(from, to)));
      // Asked again, the same memory answers: views of the held pieces, not new buffers.
      const again = await reader.pieces(from, to);
      expect(again.map((v) => [v.buffer, v.byteOffset, v.length])).toEqual(
        first.map((v) => [v.buffer, v.byteOffset, v.length]),
      );
      // `read` of one piece's bytes is a view too; across pieces it is one joined copy of the same bytes.
      const one = await reader.read(from, from + first[0]!.length);
      expect(one.buffer).toBe(first[0]!.buffer);
      expect(md5(await reader.read(from, to))).toBe(md5(file.subarray(from, to)));
    } finally {
      await reader.close();
    }
  });
});

describe("the range reader's connections", () => {
  it("looks its host up once: every later range goes to the address it checked", async () => {
    const name = "src1080.mp4";
    const file = readFileSync(join(dir, name));
    // *.test names do not resolve on this machine: only the checked answer can make a connection.
    let asked = 0;
    const resolve: Resolver = async () => (asked++, [{ address: "127.0.0.1", family: 4 }]);
    const reader = await openRangeReader({
      ...{ url: server.url(name).replace("127.0.0.1", "media.rebind.test"), kind: "http", headers: {} },
      ...{ title: name, original: name, guard: { allowPrivate: true, resolve } },
    });
    try {
      // Reads far apart: each one a request of its own.
      for (const at of [3_000_000, 9_000_000, 14_000_000]) {
        expect(md5(await reader.read(at, at + 1000))).toBe(md5(file.subarray(at, at + 1000)));
      }
      expect(reader.stats().requests).toBeGreaterThanOrEqual(4);
      expect(asked).toBe(1);
    } finally {
      await reader.close();
    }
  });
});
