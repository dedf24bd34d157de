import { describe, expect, it } from "vitest";
import { clipRequestSchema } from "../api";
import { charge } from "./clips";
import type { LedgerState } from "./types";

const proOwner = (): LedgerState => ({
  user: {
    id: "owner",
    plan: "Pro",
    pendingPlan: null,
    periodStart: Date.UTC(2026, 10, 1),
    periodEnd: Date.UTC(2026, 11, 1),
    credits: 100,
    banned: false,
  },
  holds: new Map(),
  keys: new Map(),
  lastClipAt: 0,
  clipCount: 0,
  members: ["member"],
  payer: null,
  payerHolds: new Map(),
  ownsTeam: false,
  lines: new Map(),
});
const request = clipRequestSchema.parse({
  name: "Team moment",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25,
  format: "mp4",
  quality: "720p",
});
let n = 0;
const ctx = { now: Date.UTC(2026, 10, 23), newId: () => `id-${++n}` };

describe("a clip's charge and who hears of the clip", () => {
  it("the account's own clip joins its clip list live", () => {
    const decision = charge(proOwner(), { key: "own-key-1", request, source: "api" }, { hash: "h1" }, ctx);
    expect(decision.result.ok).toBe(true);
    expect(decision.effects.filter((e) => e.type === "publish").map((e) => e.event.type)).toEqual(["credits", "clip"]);
  });

  it("a team member's clip: the owner's pages hear only the new balance, the member hears the clip, written as theirs", () => {
    const decision = charge(
      proOwner(),
      { key: "member-key-1", request, source: "api", creatorId: "member" },
      { hash: "h2" },
      ctx,
    );
    expect(decision.result.ok).toBe(true);
    expect(decision.effects.filter((e) => e.type === "publish").map((e) => e.event.type)).toEqual(["credits"]);
    expect(decision.effects).toContainEqual({
      type: "toMember",
      memberId: "member",
      event: expect.objectContaining({ type: "clip" }),
    });
    expect(decision.effects).toContainEqual({ type: "adminTopic", topic: "clips" });
    expect(decision.writes).toContainEqual(expect.objectContaining({ type: "clip", creatorId: "member" }));
  });
});
