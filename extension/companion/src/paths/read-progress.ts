/**
 * How much of a clip's span a copy's walk has read (0–1). For WebM and fragmented MP4 the walk reads the whole clip
 * (its blocks, or the fragments the `moof`s sit between), so it is most of the job: the cut shows it. A plan started
 * before the cut (the job queue's, during the hold) reports into one of these before anybody listens.
 */
export interface ReadProgress {
  (fraction: number): void;
  /** Who hears the reports from now on (the last report is replayed). */
  listen(to: (fraction: number) => void): void;
}

export function readProgress(): ReadProgress {
  let listener: ((fraction: number) => void) | null = null;
  let last: number | null = null;
  const report = ((fraction: number) => {
    last = Math.min(1, Math.max(0, fraction));
    listener?.(last);
  }) as ReadProgress;
  report.listen = (to) => {
    listener = to;
    if (last !== null) to(last);
  };
  return report;
}
