import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getDb } from "~/db/client.server";
import { audit } from "~/services/audit.server";
import { welcomeAccount } from "~/services/accounts.server";
import { getOptionalUser } from "~/services/auth.server";
import {
  findOrCreateGoogleUser,
  googleAuthenticator,
  GoogleSignInError,
  RETURN_COOKIE,
} from "~/services/google.server";
import { clientIp } from "~/services/rate-limit.server";
import { readCookie } from "~/services/session-cookie.server";
import { createUserSession, safeRedirect, setMaintenanceFlag } from "~/services/session.server";
import { signinWith, type SigninErrorCode } from "~/domain/signin-messages";

/** Google sends the browser back here with a code; exchange it, find or create the account, start a session. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env.DB);
  const url = new URL(request.url);
  const fail = async (code: SigninErrorCode) => {
    // An OAuth failure removes the maintenance-notice flag of any session this browser still has.
    const current = await getOptionalUser(request, context);
    if (current) await setMaintenanceFlag(db, current.sessionId, false);
    return redirect(signinWith("error", code));
  };
  if (url.searchParams.get("error")) {
    return fail(url.searchParams.get("error") === "access_denied" ? "google_cancelled" : "google_failed");
  }
  let claims;
  try {
    claims = await googleAuthenticator(env, request).authenticate("google", request);
  } catch (error) {
    if (error instanceof Response) throw error;
    const cause = error instanceof Error && "cause" in error ? error.cause : error;
    console.warn(JSON.stringify({ level: "warn", msg: "google sign-in failed", error: String(cause) }));
    return fail(cause instanceof GoogleSignInError ? cause.code : "google_failed");
  }
  let found;
  try {
    found = await findOrCreateGoogleUser(db, claims);
  } catch (error) {
    if (error instanceof GoogleSignInError) return fail(error.code);
    throw error;
  }
  const { created } = found;
  const user = created ? await welcomeAccount(context.cloudflare.env, found.user) : found.user;
  const ip = clientIp(request);
  if (user.status === "Banned") {
    await audit(db, { action: "auth.banned_signin_refused", subjectId: user.id, ip, details: { method: "google" } });
    return fail("banned");
  }
  if (created)
    await audit(db, { action: "auth.signup", actorId: user.id, subjectId: user.id, ip, details: { method: "google" } });
  await audit(db, { action: "auth.google_signin", actorId: user.id, subjectId: user.id, ip });
  const response = await createUserSession(
    context.cloudflare.env,
    request,
    user.id,
    safeRedirect(readCookie(request, RETURN_COOKIE)),
  );
  response.headers.append("Set-Cookie", `${RETURN_COOKIE}=; Path=/auth/google; HttpOnly; SameSite=Lax; Max-Age=0`);
  return response;
}
