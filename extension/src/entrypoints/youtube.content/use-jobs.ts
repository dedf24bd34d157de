import { useRef, useState } from "react";
import { isActive } from "../../components/job-progress";
import { jobFailure } from "../../lib/failures";
import { applyJobEvent } from "../../lib/job-feed";
import type { ClipJob, Failure, Job } from "../../lib/messages";
import { ask } from "../../lib/send";
import { useJobFeed } from "../../lib/use-job-feed";

/**
 * The clips sent from this panel: submitting them, and following them until they finish. The companion pushes each
 * change (no polling). When the feed starts or stops, each running job is read once: a job that ended before the
 * feed listened, or a stopped companion, then shows as what it is, not as a frozen bar.
 */
export function useJobs(signal: AbortSignal) {
  const [jobs, setJobs] = useState<Job[]>([]);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  const running = jobs.some(isActive) && !signal.aborted;
  const jobsRef = useRef(jobs);
  jobsRef.current = jobs;
  useJobFeed(
    running,
    (event) => setJobs((list) => applyJobEvent(list, event)),
    () =>
      void Promise.all(
        jobsRef.current.map(async (job) => {
          if (!isActive(job)) return job;
          const fresh = await ask({ type: "job", id: job.id });
          if (fresh.ok) return fresh.value;
          if (fresh.failure.kind === "stopped") setFailure(fresh.failure);
          return job;
        }),
      ).then(
        (read) =>
          !signal.aborted &&
          setJobs((list) => read.reduce((merged, job) => applyJobEvent(merged, { type: "job", job }), list)),
      ),
  );

  async function submit(list: ClipJob[]) {
    setBusy(true);
    setFailure(null);
    const result =
      list.length === 1 && list[0]
        ? await ask({ type: "createJob", job: list[0] })
        : await ask({ type: "batch", jobs: list });
    setBusy(false);
    if (signal.aborted) return;
    if (!result.ok) return setFailure(result.failure);
    setJobs(result.value);
  }

  // A job the API refused fails inside the companion: show it like any other refusal.
  const refused = jobs.find((j) => j.status === "failed" && j.error)?.error;
  const shownFailure: Failure | null = failure ?? (refused ? jobFailure(refused) : null);
  return { jobs, running, busy, submit, failure: shownFailure };
}
