import { SIGNIN_ERRORS, type SigninErrorCode } from "~/domain/signin-messages";
import { createCookieSessionStorage } from "@remix-run/cloudflare";
import { Authenticator } from "remix-auth";
import { GoogleStrategy } from "remix-auth-google";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { findUserRowByGoogleSub, linkGoogleIdentity } from "~/db/accounts.server";
import type { AppEnv } from "~/load-context";
import { createUser, findUserByEmail, isUniqueViolation } from "./accounts.server";
import type { User } from "./auth.server";
import { isSecureRequest } from "./session-cookie.server";

/** What we read from Google's userinfo endpoint (OpenID Connect standard claims). */
const googleClaims = z.object({
  sub: z.string().min(1),
  email: z.string().email(),
  email_verified: z.boolean(),
  name: z.string().optional(),
});
export type GoogleClaims = z.infer<typeof googleClaims>;

/** A refusal the user is told about, by code (app/domain/signin-messages.ts): /signin shows the fixed text. */
export class GoogleSignInError extends Error {
  constructor(readonly code: SigninErrorCode) {
    super(SIGNIN_ERRORS[code]);
  }
}

/** Where to return after Google: a short-lived cookie scoped to /auth/google. */
export const RETURN_COOKIE = "clipcut_return";

/** Google needs its client id and secret, and outside local mode a real secret for the OAuth state cookie. */
export function googleConfigured(env: AppEnv): boolean {
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET && (env.COOKIE_SECRET || env.APP_MODE === "local"));
}

/**
 * remix-auth with remix-auth-google. The OAuth state lives in its own short-lived signed cookie; our own session
 * starts only after the callback. Endpoints can be pointed elsewhere (tests use a fake Google on loopback).
 */
export function googleAuthenticator(env: AppEnv, request: Request) {
  const storage = createCookieSessionStorage({
    cookie: {
      name: "clipcut_oauth",
      httpOnly: true,
      sameSite: "lax",
      path: "/auth/google",
      maxAge: 600,
      secure: isSecureRequest(request),
      secrets: [env.COOKIE_SECRET ?? "local-only-cookie-secret"],
    },
  });
  const authenticator = new Authenticator<GoogleClaims>(storage, { throwOnError: true });
  const strategy = new GoogleStrategy<GoogleClaims>(
    {
      clientID: env.GOOGLE_CLIENT_ID ?? "",
      clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
      callbackURL: `${new URL(request.url).origin}/auth/google/callback`,
      prompt: "select_account",
    },
    async ({ profile }) => {
      const claims = googleClaims.safeParse(profile._json);
      if (!claims.success) throw new GoogleSignInError("google_profile");
      if (!claims.data.email_verified) {
        throw new GoogleSignInError("google_unverified");
      }
      return claims.data;
    },
  );
  // The library hard-codes Google's URLs; these fields are where OAuth2Strategy reads them from.
  if (env.GOOGLE_AUTH_BASE_URL) {
    Object.assign(strategy, {
      authorizationURL: `${env.GOOGLE_AUTH_BASE_URL}/o/oauth2/v2/auth`,
      tokenURL: env.GOOGLE_TOKEN_URL ?? `${env.GOOGLE_AUTH_BASE_URL}/token`,
      userInfoURL: env.GOOGLE_USERINFO_URL ?? `${env.GOOGLE_AUTH_BASE_URL}/v1/userinfo`,
    });
  }
  authenticator.use(strategy, "google");
  return authenticator;
}

/**
 * The account for a Google identity: the one already linked, else the one with the same (verified) e-mail, which
 * gets linked only if it has no Google identity yet — a different one is never overwritten — else a new one.
 * Linking an unconfirmed account confirms it and drops any password: whoever set it had not proved they own the
 * address (account pre-hijacking), and pending confirmation links die with it.
 */
export async function findOrCreateGoogleUser(db: Db, claims: GoogleClaims): Promise<{ user: User; created: boolean }> {
  const linked = await findUserRowByGoogleSub(db, claims.sub);
  if (linked) return { user: linked, created: false };
  const byEmail = await findUserByEmail(db, claims.email);
  if (byEmail) {
    if (byEmail.googleSub !== null) {
      throw new GoogleSignInError("google_other_account");
    }
    // A concurrent link of another Google identity wins, and this one fails below.
    const user = await linkGoogleIdentity(db, byEmail, claims.sub);
    if (!user) return findOrCreateGoogleUser(db, claims);
    return { user, created: false };
  }
  try {
    const user = await createUser(db, {
      email: claims.email,
      fullName: claims.name,
      googleSub: claims.sub,
      verified: true,
    });
    return { user, created: true };
  } catch (error) {
    // Two callbacks racing for the same new identity: the other one created it.
    if (isUniqueViolation(error)) return findOrCreateGoogleUser(db, claims);
    // Anything else: the creator reads the spec's sentence on /signin, not an error page; the cause goes to the log.
    console.error(JSON.stringify({ level: "error", msg: "google account creation failed", error: String(error) }));
    throw new GoogleSignInError("profile_create_failed");
  }
}
