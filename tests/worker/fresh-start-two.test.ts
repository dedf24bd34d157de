import { it } from "vitest";
import { expectFreshStartThenLeaveTraces } from "./fresh-start";

// See fresh-start.ts: this file and its twin each check that the other left nothing behind.
it("a test file starts with empty storage and an empty isolate memory, whatever ran before it", async () => {
  await expectFreshStartThenLeaveTraces("two");
});
