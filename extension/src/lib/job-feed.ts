import { companionEventSchema, type CompanionEvent, type Job } from "../../../app/domain/companion";

/** The port name the panel and the popup open to follow their clips. */
export const JOBS_PORT = "jobs";

/** What the background pushes on a jobs port: the companion's own events, or that the feed stopped. */
export type FeedMessage = CompanionEvent | { type: "closed" };

/** The part of a runtime Port the feed uses. */
export interface FeedPort {
  postMessage(message: FeedMessage): void;
  onDisconnect: { addListener(listener: () => void): void };
}

type Socket = Pick<WebSocket, "addEventListener" | "close">;

/**
 * Job progress is pushed, never polled: one WebSocket to the companion's /ws, shared by every open panel and popup,
 * open only while one of them listens. Each event is checked against the companion's schema before it is passed on;
 * when the socket closes (companion stopped, or never paired) every listener hears "closed".
 */
export function createJobFeed(options: {
  pairingToken: () => Promise<string | null>;
  /** The native host's events (its port is opened by the jobs themselves, not by listening). */
  native?: { subscribe(listener: (message: FeedMessage) => void): () => void };
  /** ws://127.0.0.1:<port>/ws?token=… (WebSockets cannot send an Authorization header). */
  url: (pairingToken: string) => string;
  open?: (url: string) => Socket;
}) {
  const open = options.open ?? ((url: string) => new WebSocket(url));
  const ports = new Set<FeedPort>();
  let socket: Socket | null = null;
  let opening = false;

  const broadcast = (message: FeedMessage) => {
    for (const port of ports) port.postMessage(message);
  };
  let unsubscribe: (() => void) | null = null;

  async function ensureOpen() {
    if (socket || opening) return;
    opening = true;
    const token = await options.pairingToken().finally(() => (opening = false));
    if (ports.size === 0 || socket) return;
    // Without pairing there is no serve to follow; with a native host its events come on its own port.
    if (!token) return options.native ? undefined : broadcast({ type: "closed" });
    const ws = open(options.url(token));
    socket = ws;
    ws.addEventListener("message", (event) => {
      let json: unknown;
      try {
        json = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = companionEventSchema.safeParse(json);
      if (parsed.success) broadcast(parsed.data);
    });
    ws.addEventListener("close", () => {
      if (socket !== ws) return;
      socket = null;
      broadcast({ type: "closed" });
    });
  }

  return {
    connect(port: FeedPort) {
      ports.add(port);
      unsubscribe ??= options.native?.subscribe(broadcast) ?? null;
      port.onDisconnect.addListener(() => {
        ports.delete(port);
        if (ports.size === 0) {
          unsubscribe?.();
          unsubscribe = null;
        }
        if (ports.size > 0 || !socket) return;
        const last = socket;
        socket = null;
        last.close();
      });
      void ensureOpen();
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
