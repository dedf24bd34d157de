import { JobProgress } from "../../components/job-progress";
import type { CompanionState, Failure, Job } from "../../lib/messages";
import { FailureNotice } from "./panel-notices";

/** The panel's clips as they are cut, the last refusal, and where the finished files are. */
export function JobList({
  jobs,
  failure,
  companion,
}: {
  jobs: Job[];
  failure: Failure | null;
  companion: CompanionState | null;
}) {
  return (
    <div aria-live="polite" className="space-y-3">
      {failure && <FailureNotice failure={failure} />}
      {jobs.map((j) => (
        <JobProgress key={j.id} job={j} label={j.request.name ?? "Clip"} />
      ))}
      {jobs.some((j) => j.status === "done") && companion?.state === "paired" && (
        <p className="text-sm text-slate-600">
          Show in folder: open <code className="break-all font-mono text-xs">{companion.outputDir}</code>.
        </p>
      )}
    </div>
  );
}
