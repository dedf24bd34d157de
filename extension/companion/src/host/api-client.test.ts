import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "./api-client";

/** A server that is "busy" twice (503 + Retry-After, as API v1 answers) and then reserves. */
const seen: (string | undefined)[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers["idempotency-key"] as string | undefined);
  res.setHeader("Content-Type", "application/json");
  if (seen.length <= 2) {
    res.writeHead(503, { "Retry-After": "0" });
    res.end(JSON.stringify({ error: { code: "busy", message: "The ledger is busy." } }));
    return;
  }
  res.writeHead(201);
  res.end(
    JSON.stringify({
      hold: { id: "7d9f0d8e-3a3c-4f59-9a8e-0f0b9c4f2a11", amount: 2, expiresAt: new Date().toISOString() },
      credits: { balance: 10, held: 2, available: 8 },
      terms: { quality: "720p", scaleTo: "720p", watermark: false, requested: "720p" },
    }),
  );
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("ApiClient", () => {
  it("retries a busy answer with the same Idempotency-Key", async () => {
    const client = new ApiClient(base, "cc_test");
    const { hold } = await client.reserve(
      {
        name: "x",
        videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        startSeconds: 0,
        endSeconds: 15,
        format: "mp4",
        quality: "720p",
      },
      "job-key-123456",
    );
    expect(hold.amount).toBe(2);
    expect(seen).toEqual(["job-key-123456", "job-key-123456", "job-key-123456"]);
  });
});
