/**
 * The decision records stay true to the code: ADR 012 names every ledger operation, and every repository path a
 * record cites (in backticks) exists. A record that drifts from the code fails here, not in a reader's head.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LEDGER_OPS } from "../app/domain/ledger";

const ROOT = join(import.meta.dirname, "..");
const DECISIONS = join(ROOT, "docs/decisions");
const records = readdirSync(DECISIONS).filter((f) => f.endsWith(".md"));

/** Backticked repository paths: a top-level folder of ours, then a file with an extension (no globs, no lines). */
function citedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const [, path] of text.matchAll(
    /`((?:app|workers|extension|migrations|scripts|tests|bench|docs|public)\/[^`\s*]+\.[a-z]+)`/g,
  ))
    paths.add(path!.replace(/[:#].*$/, ""));
  return [...paths];
}

/** Bare file names (`strategy.ts`): the companion's modules and others are cited by name alone. */
const bareNames = (text: string) => [
  ...new Set([...text.matchAll(/`([A-Za-z0-9_.-]+\.(?:ts|tsx|mjs))`/g)].map((m) => m[1]!)),
];
const tracked = new Set(
  execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .map((f) => f.slice(f.lastIndexOf("/") + 1)),
);

describe("decision records", () => {
  it("ADR 012 names every LEDGER_OPS operation", () => {
    const text = readFileSync(join(DECISIONS, "012-ledger-one-door.md"), "utf8");
    const missing = Object.keys(LEDGER_OPS).filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
    expect(missing).toEqual([]);
  });

  it.each(records)("every path %s cites exists", (file) => {
    const missing = citedPaths(readFileSync(join(DECISIONS, file), "utf8")).filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it.each(records)("every file %s names by itself is a file of the repository", (file) => {
    const missing = bareNames(readFileSync(join(DECISIONS, file), "utf8")).filter((name) => !tracked.has(name));
    expect(missing).toEqual([]);
  });
});
