import { setFlagsFromString } from "node:v8";

/**
 * Lets V8's heap grow to three times what survives a full collection before it starts the next one (by default the
 * factor follows measured GC and program speeds; here it left about 24 MB of room over an 18 MB heap).
 *
 * Why: a copy allocates two to three times its clip in short-lived buffers (the socket's pieces, and the HTTP parser's
 * copies of them), and V8 counts buffer memory allocated since its last full collection against the old generation's
 * room. With the default room, a 20 s VP9 clip set off 1–3 full collections (its marking task's soft limit, seen with a
 * uprobe on `Heap::StartIncrementalMarking`), each a 4–17 ms pause on the event loop plus 10–30 ms of incremental steps
 * and marking on the machine's other core. With this setting, over 24 jobs: 4 full collections instead of 39, and the
 * job's median 181 → 132 ms (bench/results/companion-cut.md, "Garbage collection, the heap and the JIT"). The cost is a
 * larger heap before a collection.
 *
 * V8 reads the flag each time it sets the limit after a collection, so setting it once the process has started takes
 * effect, whichever way it was started (the packed CLI by its shebang, the native host by its launcher).
 * Node compiles a built-in module without its embedded code cache once any V8 flag differs from the build's, so this
 * runs after start-up, when serve or the native host is up, and first loads fetch's implementation (undici), which
 * node otherwise loads at a job's first call to the API.
 */
export function tuneHeapForStreaming(): void {
  void globalThis.Response;
  setFlagsFromString("--heap-growing-percent=200");
}
