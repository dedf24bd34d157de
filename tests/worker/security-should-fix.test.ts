import { describe, expect, it } from "vitest";
import { SIGNIN_ERRORS, SIGNIN_NOTICES } from "~/domain/signin-messages";
import { get, post } from "./helpers";

/** Issue 20, "should fix": each test is named for the attack it stops. */

describe("/signin shows only fixed messages", () => {
  it("a phishing sentence in ?error= or ?notice= never reaches the page", async () => {
    const bait = "Your account is locked. Call +1 555 0100 and read us your password";
    for (const param of ["error", "notice"]) {
      const res = await get(`/signin?${new URLSearchParams({ [param]: bait })}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toContain("Call +1 555 0100");
      expect(html).not.toMatch(/role="alert"[^>]*>[^<]+</);
    }
  });

  it("known codes show their fixed text", async () => {
    expect(await (await get("/signin?error=google_cancelled")).text()).toContain(SIGNIN_ERRORS.google_cancelled);
    expect(await (await get("/signin?notice=already_confirmed")).text()).toContain(SIGNIN_NOTICES.already_confirmed);
    // Inherited keys are not codes.
    expect(await (await get("/signin?error=constructor")).text()).not.toContain("function Object");
  });
});

describe("per-IP limits count an IPv6 /64 as one caller", () => {
  it("sign-ups from 21 addresses of one /64 hit the per-IP budget (20 an hour)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await post(
        "/signup",
        {
          fullName: "Six Four",
          email: `v6-${i}@example.com`,
          password: "a long enough passphrase 64",
          confirmPassword: "a long enough passphrase 64",
        },
        { ip: `2001:db8:64:64::${(i + 1).toString(16)}` },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20)).not.toContain(429);
    expect(statuses[20]).toBe(429);
  }, 30_000);
});
