import { z } from "zod";
import { companionEventSchema, type CompanionEvent, type Job } from "../../../app/domain/companion";

/** The port name the panel and the popup open to follow their clips. */
export const JOBS_PORT = "jobs";

/**
 * What the background pushes on a jobs port: the companion's own events, or that the feed stopped. The panel and the
 * popup parse what arrives with it (a port message crosses from the background into a page's content script).
 */
export const feedMessageSchema = z.union([companionEventSchema, z.object({ type: z.literal("closed") })]);
export type FeedMessage = CompanionEvent | { type: "closed" };

/** The part of a runtime Port the feed uses. */
export interface FeedPort {
  postMessage(message: FeedMessage): void;
  onDisconnect: { addListener(listener: () => void): void };
}

/**
 * Job progress is pushed, never polled: the companion's events (companion-link.ts: the native host's port, a paired
 * serve's WebSocket), followed once for every open panel and popup and only while one of them listens. When they
 * stop, every listener hears "closed", and the next port to connect follows them afresh.
 */
export function createJobFeed(source: { events(listener: (message: FeedMessage) => void): () => void }) {
  const ports = new Set<FeedPort>();
  let following: { stop: () => void; ended: boolean } | null = null;

  function follow() {
    const mine = { stop: () => undefined as void, ended: false };
    following = mine;
    mine.stop = source.events((message) => {
      for (const port of ports) port.postMessage(message);
      if (message.type !== "closed" || mine.ended) return;
      mine.ended = true;
      if (following === mine) following = null;
      mine.stop();
    });
    // "closed" may come at once (nothing to follow): stop what was just started.
    if (mine.ended) mine.stop();
  }

  return {
    connect(port: FeedPort) {
      ports.add(port);
      port.onDisconnect.addListener(() => {
        ports.delete(port);
        if (ports.size > 0 || !following) return;
        following.stop();
        following = null;
      });
      if (!following) follow();
    },
  };
}

/**
 * A job list with one event applied: a job's new state, or its progress. Jobs the list does not hold stay out, and a
 * state older than the one held is dropped (a read sent before an event can answer after it).
 */
export function applyJobEvent(jobs: Job[], event: CompanionEvent): Job[] {
  if (event.type === "job")
    return jobs.map((job) => (job.id === event.job.id && event.job.updatedAt >= job.updatedAt ? event.job : job));
  return jobs.map((job) => (job.id === event.jobId ? { ...job, progress: event.progress } : job));
}
