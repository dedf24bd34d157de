import { describe, expect, it } from "vitest";
import { clientMessageSchema, destinationAfterEnd, reconnectDelayMs, serverMessageSchema } from "./realtime";

describe("realtime protocol", () => {
  it.each([
    {
      code: 4001,
      here: "/admin/users?page=2",
      to: "/signin?notice=session_ended&redirectTo=%2Fadmin%2Fusers%3Fpage%3D2",
    },
    { code: 4003, here: "/admin/users", to: "/dashboard" },
    { code: undefined, here: "/dashboard", to: "/signin?notice=session_ended&redirectTo=%2Fdashboard" },
  ])("a page whose socket ended with $code goes to $to", ({ code, here, to }) => {
    expect(destinationAfterEnd(code, here)).toBe(to);
  });
  it("backs off exponentially with jitter, never beyond 10 s", () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(250);
    expect(reconnectDelayMs(0, () => 0.999)).toBeLessThanOrEqual(750);
    expect(reconnectDelayMs(3, () => 0.999)).toBeLessThanOrEqual(4250);
    for (let attempt = 0; attempt < 50; attempt++) expect(reconnectDelayMs(attempt)).toBeLessThanOrEqual(10_250);
  });
  it("accepts only intents from clients, never balances", () => {
    expect(clientMessageSchema.safeParse({ v: 1, type: "hello", lastSeq: 3 }).success).toBe(true);
    expect(clientMessageSchema.safeParse({ v: 1, type: "credits", data: { balance: 1e9 } }).success).toBe(false);
    expect(clientMessageSchema.safeParse({ v: 2, type: "ping" }).success).toBe(false);
  });
  it("validates server messages", () => {
    expect(
      serverMessageSchema.safeParse({ v: 1, type: "credits", seq: 1, data: { balance: 5, held: 0, available: 5 } })
        .success,
    ).toBe(true);
    expect(serverMessageSchema.safeParse({ v: 1, type: "credits", seq: 1, data: { balance: "5" } }).success).toBe(
      false,
    );
  });
});
