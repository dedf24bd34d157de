import type { Job } from "../lib/messages";

const ACTIVE = new Set(["queued", "reserving", "running", "verifying"]);
export const isActive = (job: Job) => ACTIVE.has(job.status);

const STATUS_TEXT: Record<Job["status"], string> = {
  queued: "Waiting",
  reserving: "Reserving credits",
  running: "Cutting",
  verifying: "Checking the file",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** The file name without the folder, for the "saved as" line. */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** One job: its status, a progress bar while it runs, the file when done, the reason when it failed. */
export function JobProgress({ job, label }: { job: Job; label: string }) {
  const percent = job.status === "done" ? 100 : Math.round(job.progress.percent);
  return (
    <div className="space-y-1.5">
      <div className="flex justify-between gap-2 text-sm">
        <span className="truncate font-medium text-slate-900">{label}</span>
        <span className="shrink-0 text-slate-600">
          {STATUS_TEXT[job.status]}
          {isActive(job) && ` · ${percent}%`}
        </span>
      </div>
      {(isActive(job) || job.status === "done") && (
        <div
          role="progressbar"
          aria-label={`Progress of ${label}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-slate-200"
        >
          {/* Scaled, not resized: the browser's compositor animates a transform on its own, where a width
              transition lays out and paints the page at every frame (4 updates a second while a clip is cut). */}
          <div
            className="h-full origin-left rounded-full bg-brand-600 transition-transform"
            style={{ transform: `scaleX(${percent / 100})` }}
          />
        </div>
      )}
      {job.status === "done" && job.result && (
        <p className="text-sm text-emerald-800">Saved as {fileName(job.result.output)}</p>
      )}
      {job.status === "failed" && job.error && <p className="text-sm text-red-800">{job.error.message}</p>}
    </div>
  );
}
