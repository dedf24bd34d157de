import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy";

describe("passwordProblem", () => {
  it("accepts 8 characters and long passphrases without composition rules", () => {
    expect(passwordProblem("correcth")).toBeNull();
    expect(passwordProblem("correct horse battery staple, but a much longer passphrase of 64+ chars")).toBeNull();
    expect(passwordProblem("a".repeat(7) + "b")).toBeNull();
    expect(passwordProblem("ClipCut-demo-1")).toBeNull();
  });
  it("refuses empty, short and over-long passwords", () => {
    expect(passwordProblem("")).toBe("Password cannot be empty.");
    expect(passwordProblem("short1!")).toBe("Password must be at least 8 characters.");
    expect(passwordProblem("x".repeat(64) + "y".repeat(65))).toBe("Password must be at most 128 characters.");
  });
  it("refuses the most common passwords whatever their case", () => {
    expect(passwordProblem("password123")).toMatch(/too common/);
    expect(passwordProblem("QWERTYUIOP")).toMatch(/too common/);
    expect(passwordProblem("aaaaaaaaaa")).toMatch(/too easy/);
  });
  it("counts characters, not UTF-16 units", () => {
    expect(passwordProblem("🔒🔒🔒🔒🔒🔒🔒")).toBe("Password must be at least 8 characters.");
  });
});
