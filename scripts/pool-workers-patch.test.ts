import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * patches/@cloudflare+vitest-pool-workers: the pool wraps the Worker's entrypoint and Durable Object prototypes in a
 * Proxy once per class, not once more per construction (cloudflare/workers-sdk#15092). Without it, a runtime that
 * serves all the workerd test files slows with every request and overflows its stack after ~25 files
 * (vitest.config.ts runs them all in one).
 */
describe("the patched vitest pool for workerd", () => {
  it("is applied after install: the prototype Proxy is built outside the wrapper's constructor", () => {
    // The file patch-package patches (the package's exports name no path to it).
    const file = "../node_modules/@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs";
    const source = readFileSync(new URL(file, import.meta.url), "utf8");
    const start = source.indexOf("function createProxyPrototypeClass(");
    expect(start).toBeGreaterThan(0);
    const body = source.slice(start, source.indexOf("\n}\n", start));
    const constructor = body.slice(body.indexOf("function Class("), body.indexOf("\n\t}\n"));
    expect(constructor).not.toContain("new Proxy");
    expect(body).toContain("Class.prototype = new Proxy(Class.prototype");
  });
});
