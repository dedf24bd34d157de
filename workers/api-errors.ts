import { apiError } from "../app/services/api-response.server";

const PREFIX = "/api/v1/";

/**
 * API v1 is served by Remix's own handler (its route matching cached on the server by
 * patches/@remix-run+router+1.23.3.patch). Remix answers a method a route has no handler for, or a loader or action
 * that threw, in its own words (`{ message }`, marked X-Remix-Error); an API client gets the API's error shape
 * instead (docs/api.md), never a stack trace. Remix has logged the error already (app/entry.server.tsx).
 */
export function inApiShape(request: Request, response: Response): Response {
  if (response.headers.get("X-Remix-Error") !== "yes") return response;
  if (!new URL(request.url).pathname.toLowerCase().startsWith(PREFIX)) return response;
  if (response.status === 405) return apiError(405, "bad_request", `${request.method} is not allowed here.`);
  if (response.status >= 500)
    return apiError(500, "internal", "Something went wrong on our side. Please try again in a moment.");
  return response;
}
