import type { RateLimitRule } from "./rate-limit.server";

const MINUTE = 60 * 1000;

/** Rate limits on the auth endpoints, per IP and per account (e-mail). Sign-in counts failures only. */
export const AUTH_LIMITS = {
  signinFailuresPerIp: { name: "signin-fail-ip", limit: 50, windowMs: 15 * MINUTE },
  signinFailuresPerAccount: { name: "signin-fail-account", limit: 10, windowMs: 15 * MINUTE },
  // A browser that signed in to the account before counts on its own: strangers' failures do not lock it out.
  signinFailuresPerKnownDevice: { name: "signin-fail-device", limit: 10, windowMs: 15 * MINUTE },
  signupPerIp: { name: "signup-ip", limit: 20, windowMs: 60 * MINUTE },
  resetPerIp: { name: "reset-ip", limit: 20, windowMs: 60 * MINUTE },
  resetPerAccount: { name: "reset-account", limit: 3, windowMs: 60 * MINUTE },
  verificationEmailPerAccount: { name: "verify-email-account", limit: 3, windowMs: 60 * MINUTE },
  googlePerIp: { name: "google-ip", limit: 30, windowMs: 15 * MINUTE },
} satisfies Record<string, RateLimitRule>;
