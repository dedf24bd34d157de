import { describe, expect, it } from "vitest";
import type { Credits } from "../../../app/domain/api";
import { nativeMessageSchema } from "../../../app/domain/native-messaging";
import { feedMessageSchema } from "./job-feed";
import { createJobBalance } from "./job-balance";
import type { Job } from "./messages";

const credits = (available: number): Credits => ({ balance: available, held: 0, available });

function job(id: number, status: Job["status"], after?: Credits): Job {
  return {
    id: `6f1c1d2e-0000-4000-8000-00000000000${id}`,
    status,
    request: { source: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", startSeconds: 10, endSeconds: 25 },
    progress: { percent: status === "done" ? 100 : 0, speed: null, etaSeconds: null },
    result: null,
    error: null,
    credits: {
      holdId: "h",
      amount: 2,
      state: status === "done" ? "captured" : "reserved",
      ...(after ? { after } : {}),
    },
    createdAt: "2026-11-29T00:00:00.000Z",
    updatedAt: "2026-11-29T00:00:00.000Z",
  };
}

describe("the balance after a clip, from the capture's answer", () => {
  it("is the capture's answer when the socket has said nothing since the capture was asked (a slow socket)", () => {
    const balance = createJobBalance();
    expect(balance.jobs([job(1, "queued")])).toBeNull();
    expect(balance.jobs([job(1, "running")])).toBeNull();
    expect(balance.jobs([job(1, "verifying")])).toBeNull();
    expect(balance.jobs([job(1, "done", credits(98))])).toEqual(credits(98));
    // Taken once: the socket moves it from there.
    expect(balance.jobs([job(1, "done", credits(98))])).toBeNull();
  });

  it("gives way to a socket message that came after the capture was asked (it may be newer)", () => {
    const balance = createJobBalance();
    balance.jobs([job(1, "verifying"), job(2, "running")]);
    balance.socket();
    expect(balance.jobs([job(1, "done", credits(98)), job(2, "running")])).toBeNull();
    // The other clip's capture, asked after that message and with no message since: taken.
    balance.jobs([job(2, "verifying")]);
    expect(balance.jobs([job(2, "done", credits(96))])).toEqual(credits(96));
  });

  it("counts a socket message before the capture was asked as older (the hold's own message)", () => {
    const balance = createJobBalance();
    balance.jobs([job(1, "running")]);
    balance.socket();
    balance.jobs([job(1, "verifying")]);
    expect(balance.jobs([job(1, "done", credits(98))])).toEqual(credits(98));
  });

  it("takes nothing from a job without the answer (a companion older than it, a failed capture)", () => {
    const balance = createJobBalance();
    balance.jobs([job(1, "verifying")]);
    expect(balance.jobs([job(1, "done")])).toBeNull();
    const failed = { ...job(2, "done", credits(98)), credits: { ...job(2, "done").credits, state: "capture_failed" } };
    expect(balance.jobs([failed as Job])).toBeNull();
  });

  it("reaches the panel through both boundaries: the native message and the background's job feed keep it", () => {
    const done = job(1, "done", credits(98));
    const native = nativeMessageSchema.parse({ type: "event", event: { type: "job", job: done } });
    expect(native).toMatchObject({ event: { job: { credits: { after: credits(98) } } } });
    const fed = feedMessageSchema.parse(native.type === "event" ? native.event : null);
    expect(fed).toMatchObject({ job: { credits: { after: credits(98) } } });
    expect(
      feedMessageSchema.safeParse({ type: "job", job: { ...done, credits: { ...done.credits, after: 98 } } }).success,
    ).toBe(false);
  });
});
