import { afterEach, expect, it, vi } from "vitest";
import { FINISHED_JOB_TTL_MS, JobQueue, KEPT_FINISHED_JOBS } from "../src/host/jobs";
import { tempDir, tools } from "./helpers";

afterEach(() => vi.restoreAllMocks());

function queue() {
  // No session: every job fails at once (session_required), which is all this needs.
  return new JobQueue({ tools, outputDir: tempDir(), concurrency: 4, session: () => null });
}
const submit = (q: JobQueue) => q.submit({ source: "https://example.com/a.mp4", startSeconds: 0, endSeconds: 2 });

it("finished jobs are pruned: memory stays bounded however many jobs run", async () => {
  const q = queue();
  const ids = Array.from({ length: KEPT_FINISHED_JOBS + 30 }, () => submit(q).id);
  await q.idle();
  const kept = q.list();
  expect(kept.every((j) => j.status === "failed")).toBe(true);
  expect(kept).toHaveLength(KEPT_FINISHED_JOBS);
  // The newest stay listed; the oldest are forgotten.
  expect(q.get(ids[ids.length - 1]!)).toBeDefined();
  expect(q.get(ids[0]!)).toBeUndefined();
});

it("finished jobs are forgotten after an hour", async () => {
  const q = queue();
  const id = submit(q).id;
  await q.idle();
  expect(q.get(id)?.status).toBe("failed");
  const now = Date.now();
  vi.spyOn(Date, "now").mockReturnValue(now + FINISHED_JOB_TTL_MS + 1000);
  expect(q.list()).toEqual([]);
  expect(q.get(id)).toBeUndefined();
});
