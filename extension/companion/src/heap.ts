import { setFlagsFromString } from "node:v8";

/**
 * Lets V8's heap grow to three times what survives a full collection before it starts the next one (by default the
 * factor follows measured GC and program speeds; here it left about 24 MB of room over an 18 MB heap).
 *
 * Why: a copy allocates two to three times its clip in short-lived buffers (the socket's pieces, and the HTTP
 * parser's copies of them), and V8 counts buffer memory allocated since its last full collection against the old
 * generation's room. With the default room, a 20 s VP9 clip started 1–3 full collections (its marking task's soft
 * limit, seen with a uprobe on `Heap::StartIncrementalMarking`), each 10–30 ms on the event loop plus marking on the
 * machine's other core. With this setting: 10 full collections in 32 jobs instead of 72, and the job's median
 * 191 → 111 ms (decision 002, 23). The cost is a larger heap before a collection: tens of MB for this process.
 *
 * V8 reads the flag each time it sets the limit after a collection, so setting it once at start takes effect (the
 * usual `--heap-growing-percent` on node's command line would miss the packed CLI, started by its shebang).
 */
export function tuneHeapForStreaming(): void {
  setFlagsFromString("--heap-growing-percent=200");
}
