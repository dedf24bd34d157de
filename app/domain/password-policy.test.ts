import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy";

describe("passwordProblem", () => {
  it("accepts 12 characters and long passphrases without composition rules", () => {
    expect(passwordProblem("correcthorse")).toBeNull();
    expect(passwordProblem("correct horse battery staple, but a much longer passphrase of 64+ chars")).toBeNull();
    expect(passwordProblem("ClipCut-demo-1")).toBeNull();
    expect(passwordProblem("a long enough passphrase")).toBeNull();
  });
  it("refuses empty, short (under 12, ASVS L2) and over-long passwords", () => {
    expect(passwordProblem("")).toBe("Password cannot be empty.");
    expect(passwordProblem("elevenchars")).toBe("Password must be at least 12 characters.");
    expect(passwordProblem("x".repeat(64) + "y".repeat(65))).toBe("Password must be at most 128 characters.");
  });
  it("refuses breached passwords whatever their case or spacing", () => {
    expect(passwordProblem("Password1234")).toMatch(/too common/);
    expect(passwordProblem("Correct Horse Battery Staple")).toMatch(/too common/);
    expect(passwordProblem("iloveyou1234")).toMatch(/too common/);
  });
  it("refuses repetitions, keyboard runs and the e-mail address", () => {
    expect(passwordProblem("aaaaaaaaaaaa")).toMatch(/too easy/);
    expect(passwordProblem("abcabcabcabc")).toMatch(/too easy/);
    expect(passwordProblem("0987654321qw")).toMatch(/too easy/);
    expect(passwordProblem("asdfghjklasd")).toMatch(/too easy/);
    expect(passwordProblem("ada.lovelace@example.com", { email: "ada.lovelace@example.com" })).toMatch(/too easy/);
    expect(passwordProblem("adalovelace2024", { email: "adalovelace@example.com" })).toMatch(/too easy/);
  });
  it("counts characters, not UTF-16 units", () => {
    expect(passwordProblem("🔒🔑🔒🔑🔒🔑🔒🔑🔒🔑🔒")).toBe("Password must be at least 12 characters.");
  });
});
