import type { Credits } from "../../../app/domain/api";
import type { Job } from "../../../app/domain/companion";

/**
 * The balance after a clip, from the capture's own answer (the companion hands it on with the finished job), so the
 * panel shows it at once even when the site's realtime socket is slow, and never asks /api/v1/me for it.
 * The socket stays the live source: a capture's answer is taken only when no socket message came since the companion
 * asked for that capture (the job's "verifying" step, or since the job was first seen when that step was missed),
 * since such a message may be newer than the capture (another clip's hold, a purchase).
 */
export function createJobBalance() {
  /** Socket messages applied so far. */
  let heard = 0;
  /** Per job: `heard` when its capture was about to be asked (or when first seen); gone once its answer was used. */
  const asked = new Map<string, { heard: number; verifying: boolean }>();
  const used = new Set<string>();

  return {
    /** A realtime message moved the balance (or confirmed it). */
    socket() {
      heard++;
    },
    /** The credits to show after these jobs' latest states, or null when none of them changes what is shown. */
    jobs(list: Job[]): Credits | null {
      let credits: Credits | null = null;
      for (const job of list) {
        if (used.has(job.id)) continue;
        const mark = asked.get(job.id);
        if (!mark || (job.status === "verifying" && !mark.verifying))
          asked.set(job.id, { heard, verifying: job.status === "verifying" });
        const after = job.credits.after;
        if (job.status !== "done" || job.credits.state !== "captured" || !after) continue;
        used.add(job.id);
        if (asked.get(job.id)!.heard === heard) credits = after;
        asked.delete(job.id);
      }
      return credits;
    },
  };
}
