import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { AUTH_LIMITS } from "~/services/auth-limits.server";
import { googleAuthenticator, googleConfigured, RETURN_COOKIE } from "~/services/google.server";
import { clientIp, hitRateLimit, retryMessage } from "~/services/rate-limit.server";
import { safeRedirect } from "~/services/session.server";

export async function loader() {
  return redirect("/signin");
}

/** "Continue with Google": remembers where to return, then redirects to Google's consent screen. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const fail = (message: string) => redirect(`/signin?${new URLSearchParams({ error: message })}`);
  if (!googleConfigured(env)) return fail("Google sign-in is not configured on this server.");
  const limit = await hitRateLimit(env.DB, AUTH_LIMITS.googlePerIp, clientIp(request));
  if (!limit.ok) return fail(retryMessage(limit.retryAfterSeconds));
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
  return fail("Could not start Google sign-in. Please try again.");
}
