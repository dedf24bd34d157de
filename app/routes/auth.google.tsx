import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { AUTH_LIMITS } from "~/services/auth-limits.server";
import { googleAuthenticator, googleConfigured, RETURN_COOKIE } from "~/services/google.server";
import { signinWith, type SigninErrorCode } from "~/domain/signin-messages";
import { clientIp, hitRateLimit } from "~/services/rate-limit.server";
import { safeRedirect } from "~/services/session.server";

export async function loader() {
  return redirect("/signin");
}

/** "Continue with Google": remembers where to return, then redirects to Google's consent screen. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const fail = (code: SigninErrorCode) => redirect(signinWith("error", code));
  if (!googleConfigured(env)) return fail("google_unconfigured");
  const limit = await hitRateLimit(env.DB, AUTH_LIMITS.googlePerIp, clientIp(request));
  if (!limit.ok) return fail("rate_limited");
  // The strategy reads the request itself: read the form from a copy.
  const form = await request.clone().formData();
  const returnTo = safeRedirect(form.get("redirectTo"));
  try {
    await googleAuthenticator(env, request).authenticate("google", request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      const response = new Response(null, thrown);
      response.headers.append(
        "Set-Cookie",
        `${RETURN_COOKIE}=${encodeURIComponent(returnTo)}; Path=/auth/google; HttpOnly; SameSite=Lax; Max-Age=600`,
      );
      return response;
    }
    throw thrown;
  }
  return fail("google_start_failed");
}
