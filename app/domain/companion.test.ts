import { describe, expect, it } from "vitest";
import { clipJobRequestSchema, outputFileNameSchema, sessionRequestSchema } from "./companion";

describe("companion wire schemas", () => {
  it("accepts a job and rejects unknown keys and empty clips", () => {
    const job = { source: "https://example.com/v.mp4", startSeconds: 1, endSeconds: 3, format: "mp4" };
    expect(clipJobRequestSchema.parse(job)).toMatchObject(job);
    expect(clipJobRequestSchema.safeParse({ ...job, endSeconds: 1 }).success).toBe(false);
    expect(clipJobRequestSchema.safeParse({ ...job, outputDir: "/tmp" }).success).toBe(false);
    expect(clipJobRequestSchema.safeParse({ ...job, source: "file:///etc/passwd" }).success).toBe(false);
  });
  it("allows bare file names only", () => {
    expect(outputFileNameSchema.safeParse("My clip").success).toBe(true);
    for (const bad of ["../x", "a/b", "a\\b", ".hidden", "x..y", "con:1"]) {
      expect(outputFileNameSchema.safeParse(bad).success).toBe(false);
    }
  });
  it("validates sessions", () => {
    expect(sessionRequestSchema.safeParse({ apiToken: "short" }).success).toBe(false);
    expect(sessionRequestSchema.safeParse({ apiToken: "long-enough-token", apiBaseUrl: "ftp://x" }).success).toBe(
      false,
    );
  });
});
