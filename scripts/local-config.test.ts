import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * wrangler.local.toml (npm start, e2e, the workerd tests) must bind what wrangler.toml binds: a limiter missing from
 * the local file silently turns its limit off in every local test (overLimit treats a missing binding as no limit).
 */
const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), "utf8");

/** Each `[[ratelimits]]` block as "NAME namespace limit/period". */
function limiters(toml: string): string[] {
  return toml
    .split("[[ratelimits]]")
    .slice(1)
    .map((block) => {
      const field = (name: string) => new RegExp(`^${name}\\s*=\\s*(.+)$`, "m").exec(block)?.[1]?.trim() ?? "";
      return `${field("name")} ${field("namespace_id")} ${field("simple")}`;
    })
    .sort();
}

describe("the local wrangler configuration", () => {
  it("has every rate limiter of the production one, with the same limits", () => {
    const production = limiters(read("wrangler.toml"));
    expect(production.length).toBeGreaterThan(0);
    expect(limiters(read("wrangler.local.toml"))).toEqual(production);
  });
});
