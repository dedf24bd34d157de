/**
 * Per-job timing spans, printed to stderr when CLIPCUT_TRACE=1 (for profiling a cut through `serve`, or the native
 * host, whose log gets them too; off by default, and never carries a token or a URL).
 */
export interface Trace {
  /** Times `fn` as one named phase. */
  span<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Prints every phase and the total (once, when the job ends). */
  end(outcome: string): void;
}

let sink: (line: string) => void = (line) => void process.stderr.write(line);

/** Where the trace lines go (the native host: its log, since the browser keeps the host's stderr, if anywhere). */
export function setTraceSink(write: (line: string) => void) {
  sink = write;
}

const noop: Trace = { span: (_name, fn) => fn(), end: () => undefined };

export function traceEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CLIPCUT_TRACE === "1";
}

export function startTrace(label: string, enabled = traceEnabled()): Trace {
  if (!enabled) return noop;
  const began = performance.now();
  const spans: string[] = [];
  return {
    async span(name, fn) {
      const at = performance.now();
      try {
        return await fn();
      } finally {
        const ms = performance.now() - at;
        spans.push(`${name} ${ms.toFixed(0)}ms @${(at - began).toFixed(0)}`);
      }
    },
    end(outcome) {
      const total = (performance.now() - began).toFixed(0);
      sink(`[clipcut trace] ${label} ${outcome} ${total}ms: ${spans.join(" | ")}\n`);
    },
  };
}
