import { ClipError } from "../errors";
import { openRangeReader, sumStats, type RangeReader, type ReadStats } from "../source/range-reader";
import type { CutRequest } from "./request";

/**
 * The readers of one byte copy (mp4-copy.ts, mkv-copy.ts): each source opened through the guarded range reader,
 * counted for the trace and the bench, and all closed together when the copy is not taken, fails or is done.
 */
export interface CopyReaders {
  open(spec: CutRequest["input"]): Promise<RangeReader>;
  close(): Promise<void>;
  stats(): ReadStats;
}

/** Extra video listed past the end, in seconds: the closed-prefix search needs a few frames past it. */
export const MARGIN_SECONDS = 1;

/** `chose`: the strategy rule, not the container, ruled the copy out; it chose this cut instead. */
export type ByteCopyOutcome<P> = { plan: P } | { notTaken: string; chose?: OtherCut };

type OtherCut = "smart" | "reencode";

/** Ends a byte copy's planning: it does not take this source (the message says why). */
export class NotTaken extends Error {
  constructor(
    message: string,
    readonly chose?: OtherCut,
  ) {
    super(message);
  }

  /** The strategy rule chose another cut than a copy (chooseStrategy, or copyRuledOut once the start is known). */
  static chose(kind: OtherCut): NotTaken {
    return new NotTaken(choseOther(kind).notTaken, kind);
  }
}

/** NotTaken.chose as a planning's answer. */
export const choseOther = (kind: OtherCut) => ({ notTaken: `auto chose ${kind}`, chose: kind });

/**
 * Runs a byte copy's planning with its readers: a plan keeps them open (its `close` ends them); a `notTaken`, a
 * failed read or a malformed file closes them. The guard's refusals (ClipError) and a cancel are thrown as they
 * are; any other failure is answered as `notTaken`, so the cut falls back.
 */
export async function withCopyReaders<P>(
  signal: AbortSignal | undefined,
  plan: (readers: CopyReaders) => Promise<ByteCopyOutcome<P>>,
): Promise<ByteCopyOutcome<P>> {
  const readers: RangeReader[] = [];
  // A reader still opening (a DASH audio file, opened beside the video) is closed once it is open.
  const opening: Promise<unknown>[] = [];
  const close = async () => {
    await Promise.allSettled(opening);
    await Promise.all(readers.map((r) => r.close()));
  };
  const own: CopyReaders = {
    async open(spec) {
      const started = openRangeReader(spec, signal);
      opening.push(started);
      const r = await started;
      readers.push(r);
      return r;
    },
    close,
    stats: () => sumStats(readers),
  };
  try {
    const outcome = await plan(own);
    if ("notTaken" in outcome) await close();
    return outcome;
  } catch (error) {
    await close();
    if (signal?.aborted || error instanceof ClipError) throw error;
    return { notTaken: error instanceof Error ? error.message : String(error) };
  }
}
