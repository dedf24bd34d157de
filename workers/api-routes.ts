import type { AppLoadContext, ServerBuild } from "@remix-run/cloudflare";
import { apiError } from "../app/services/api-response.server";
import { redactUrl } from "../app/utils/redact";

/**
 * API v1 goes straight to its route module's loader or action, matched against patterns compiled once from the
 * Remix build. Remix's own handler re-flattens and re-ranks the whole route tree (100+ routes, admin included) on
 * every match, twice per resource request: about 30% of a charge's CPU in a profile. The modules and functions are
 * the same ones Remix would call (`remix vite:dev` still serves them through Remix); only the matching differs.
 */
type RouteFn = (args: { request: Request; context: AppLoadContext; params: Record<string, string> }) => unknown;
interface ApiRoute {
  segments: string[];
  loader?: RouteFn;
  action?: RouteFn;
}

const PREFIX = "/api/v1/";

/** The full path of each API route (parents' paths joined), most specific first: static, then params, then splat. */
export function compileApiRoutes(build: ServerBuild): ApiRoute[] {
  const routes = build.routes;
  const fullPath = (id: string): string[] => {
    const route = routes[id];
    if (!route || route.id === "root") return [];
    return [...(route.parentId ? fullPath(route.parentId) : []), ...(route.path ?? "").split("/").filter(Boolean)];
  };
  const weight = (segments: string[]) =>
    segments.reduce((w, s) => w + (s === "*" ? 100 : s.startsWith(":") ? 1 : 0), 0);
  return Object.values(routes)
    .map((route) => ({ route, segments: fullPath(route.id) }))
    .filter(({ segments }) => `/${segments.join("/")}/`.startsWith(PREFIX))
    .map(({ route, segments }) => {
      const module = route.module as { loader?: RouteFn; action?: RouteFn };
      return { segments, loader: module.loader, action: module.action };
    })
    .sort((a, b) => weight(a.segments) - weight(b.segments));
}

function match(routes: ApiRoute[], pathname: string) {
  const parts = pathname.split("/").filter(Boolean);
  for (const route of routes) {
    const params: Record<string, string> = {};
    let matched = true;
    for (const [i, segment] of route.segments.entries()) {
      const part = parts[i];
      if (segment === "*") {
        params["*"] = parts.slice(i).join("/");
        return { route, params };
      }
      if (part === undefined) matched = false;
      else if (segment.startsWith(":")) params[segment.slice(1)] = safeDecode(part);
      else if (segment.toLowerCase() !== part.toLowerCase()) matched = false;
      if (!matched) break;
    }
    if (matched && parts.length === route.segments.length) return { route, params };
  }
  return null;
}

const safeDecode = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** Null when the path is not API v1 (Remix serves it). Thrown Responses are answers, as in Remix. */
export async function routeApi(
  routes: ApiRoute[],
  request: Request,
  context: AppLoadContext,
): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  if (!pathname.toLowerCase().startsWith(PREFIX)) return null;
  const found = match(routes, pathname);
  if (!found) return null;
  const read = request.method === "GET" || request.method === "HEAD";
  const fn = read ? found.route.loader : found.route.action;
  if (!fn) return apiError(405, "bad_request", `${request.method} is not allowed here.`);
  try {
    const result = await fn({ request, context, params: found.params });
    return result instanceof Response ? result : Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    // Logged for us with the path redacted; the client gets the API's error shape, never a stack trace.
    console.error(JSON.stringify({ level: "error", msg: "api", url: redactUrl(request.url), error: String(thrown) }));
    return apiError(500, "internal", "Something went wrong on our side. Please try again in a moment.");
  }
}
