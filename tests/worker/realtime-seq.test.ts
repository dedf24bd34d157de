import { ledger as ledgerClient } from "~/services/ledger.server";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { UserLedger } from "../../workers/user-ledger";
import { insertUser } from "./helpers";

type Seqs = { seq: number; seqReserved: number };

describe("realtime seq across a restart", () => {
  it("a restarted ledger never reuses a seq it may have sent, without a storage write per message", async () => {
    const userId = await insertUser({ email: "seq@example.com", credits: 1000, plan: "Pro" });
    const stub = env.USER_LEDGER.get(env.USER_LEDGER.idFromName(userId));
    const request = {
      name: "c",
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      startSeconds: 0,
      endSeconds: 10,
      format: "mp4" as const,
      quality: "360p" as const,
    };
    for (let i = 0; i < 5; i++) await ledgerClient(env, userId).charge({ key: `api:seq-${i}`, request, source: "api" });
    await runInDurableObject(stub, async (instance: UserLedger, state) => {
      const before = instance as unknown as Seqs;
      expect(before.seq).toBeGreaterThanOrEqual(5); // each charge published its messages
      // One stored bound covers many messages.
      const stored = (await state.storage.get<number>("seq")) ?? 0;
      expect(stored).toBeGreaterThan(before.seq);
      // A new object over the same storage, as after an eviction or a deploy.
      const restarted = new UserLedger(state, env, { teamStatus: async () => {} }) as unknown as Seqs;
      await state.blockConcurrencyWhile(async () => {}); // the constructor's load has run
      expect(restarted.seq).toBeGreaterThanOrEqual(stored);
      expect(restarted.seq).toBeGreaterThan(before.seq);
    });
  });
});
