import { probeFromIndex } from "./index-probe";
import { probeMedia, type MediaInfo } from "./probe";
import { resolveSource, type InputSpec } from "./source";
import type { Tools } from "../host/tools";

/**
 * Resolved sources, shared by everything one companion process does with a source: the panel's true-cut report
 * (dry-run.ts) and the jobs (jobs.ts). The panel asks for the report while the creator sets the range, so by the time
 * the clip is asked for, yt-dlp has already answered for that page and ffprobe has described it: the job reuses both
 * instead of resolving the page a second time (docs/decisions/002-cut-strategy.md, "Reading the source"). yt-dlp's
 * media URLs stay valid for hours; entries live CACHE_MS. The shared work has its own time limit, never one caller's
 * signal.
 */
const CACHE_MS = 10 * 60_000;
/** Resolving and probing together: yt-dlp's minute plus two header probes. */
const TIMEOUT_MS = 3 * 60_000;

export interface SourceAsk {
  source: string;
  /** Wanted picture height (the job's or the report's quality); null takes the best the page has. */
  height: number | null;
  /** Loopback/private sources and local files allowed (--allow-private-sources). */
  allowPrivate: boolean;
  /** yt-dlp's age warning, added to its failures. */
  ytDlpWarning?: string | null;
}

interface Entry {
  at: number;
  input: Promise<InputSpec>;
  /** ffprobe's description, once something asked for it (the report always does; a job when it must). */
  full: Promise<MediaInfo> | null;
  /** The description read from the container's own header (index-probe.ts), once a copy asked for it. */
  index: Promise<MediaInfo | null> | null;
}

export class SourceCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly tools: Tools) {}

  private entry(ask: SourceAsk): Entry {
    const now = Date.now();
    for (const [k, v] of this.entries) if (now - v.at > CACHE_MS) this.entries.delete(k);
    const key = `${ask.height ?? "best"} ${ask.allowPrivate} ${ask.source}`;
    let entry = this.entries.get(key);
    if (!entry) {
      const input = resolveSource(this.tools, ask.source, {
        height: ask.height,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        allowPrivate: ask.allowPrivate,
        allowLocalFiles: ask.allowPrivate,
        ytDlpWarning: ask.ytDlpWarning ?? null,
      });
      const created: Entry = { at: now, input, full: null, index: null };
      entry = created;
      this.entries.set(key, created);
      // A failure is not kept: the next ask tries again.
      input.catch(() => this.entries.get(key) === created && this.entries.delete(key));
    }
    return entry;
  }

  /** The source resolved (yt-dlp for a page, the URL checks for media), once per source, height and guard. */
  resolve(ask: SourceAsk): Promise<InputSpec> {
    return this.entry(ask).input;
  }

  /** ffprobe's description of the resolved source, run once per entry. */
  fullProbe(ask: SourceAsk): Promise<MediaInfo> {
    const entry = this.entry(ask);
    if (!entry.full) {
      const full = entry.input.then((input) =>
        probeMedia(this.tools.ffprobe, input, { signal: AbortSignal.timeout(TIMEOUT_MS) }),
      );
      entry.full = full;
      full.catch(() => entry.full === full && (entry.full = null));
    }
    return entry.full;
  }

  /**
   * What a job cuts from: ffprobe's description when it is there already (the report's), else for a copy the
   * container's header read in this process (null: not one it reads), else ffprobe's.
   */
  async describe(ask: SourceAsk, fromIndex: boolean): Promise<MediaInfo> {
    const entry = this.entry(ask);
    if (entry.full || !fromIndex) return this.fullProbe(ask);
    return (await this.indexProbe(entry)) ?? this.fullProbe(ask);
  }

  /**
   * Reads the container's header in this process ahead of the clip (the report does, while the creator sets the
   * range): the reader leaves those bytes for the clip's own readers (range-reader.ts, `share`), so the click does
   * not wait for the header's round trips. Failures are the clip's to meet; nothing is thrown here.
   */
  warmHeader(ask: SourceAsk): void {
    this.indexProbe(this.entry(ask)).catch(() => undefined);
  }

  private indexProbe(entry: Entry): Promise<MediaInfo | null> {
    if (!entry.index) {
      const index = entry.input.then((input) => probeFromIndex(input, AbortSignal.timeout(TIMEOUT_MS)));
      entry.index = index;
      index.catch(() => entry.index === index && (entry.index = null));
    }
    return entry.index;
  }
}
