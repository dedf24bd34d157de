import { env, exports } from "cloudflare:workers";
import * as build from "remix-server-build";
import { describe, expect, it } from "vitest";
import { compileApiRoutes, routeApi } from "../../workers/api-routes";

const call = (path: string, method = "GET") =>
  exports.default.fetch(new Request(`http://localhost${path}`, { method, headers: { Origin: "http://localhost" } }));

describe("API v1 is matched by the Worker, from the Remix build's own route modules", () => {
  it("compiles every API route with its parents' path, most specific first", () => {
    const paths = compileApiRoutes(build).map((r) => r.segments.join("/"));
    expect(paths).toEqual(expect.arrayContaining(["api/v1/clips", "api/v1/me", "api/v1/holds/:id/:op", "api/v1/*"]));
    expect(paths.at(-1)).toBe("api/v1/*");
    expect(paths.indexOf("api/v1/holds")).toBeLessThan(paths.indexOf("api/v1/holds/:id/:op"));
  });

  it("answers as Remix did: the route's guard, any case, a trailing slash, 404 and 405 as JSON", async () => {
    for (const path of ["/api/v1/me", "/API/V1/Me", "/api/v1/me/", "/api/v1/clips"]) {
      const res = await call(path);
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    const unknown = await call("/api/v1/no/such/thing");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found");
    const wrongMethod = await call("/api/v1/me", "DELETE");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("Content-Type")).toContain("application/json");
    // Not API v1: pages are still Remix's.
    expect((await call("/pricing")).status).toBe(200);
  });

  it("the Worker answers API v1 itself, pages fall through, and a crash is a JSON 500 without a stack", async () => {
    const context = { cloudflare: { env, ctx: { waitUntil() {}, passThroughOnException() {} } }, nonce: "" };
    const routes = compileApiRoutes(build);
    const req = (path: string) => new Request(`http://localhost${path}`);
    expect(await routeApi(routes, req("/pricing"), context as never)).toBeNull();
    expect((await routeApi(routes, req("/api/v1/me"), context as never))?.status).toBe(401);
    const crashing = [{ segments: ["api", "v1", "boom"], loader: () => Promise.reject(new Error("secret detail")) }];
    const res = await routeApi(crashing, req("/api/v1/boom"), context as never);
    expect(res?.status).toBe(500);
    const text = (await res?.text()) ?? "";
    expect(JSON.parse(text).error.code).toBe("internal");
    expect(text).not.toContain("secret detail");
  });
});
