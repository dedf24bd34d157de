import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { inApiShape } from "../../workers/api-errors";

const call = (path: string, method = "GET") =>
  exports.default.fetch(new Request(`http://localhost${path}`, { method, headers: { Origin: "http://localhost" } }));

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe("API v1, served by Remix's handler, answers in the API's error shape", () => {
  it("the route's guard in any case and with a trailing slash, 404 for an unknown path, 405 for a method", async () => {
    for (const path of ["/api/v1/me", "/API/V1/Me", "/api/v1/me/", "/api/v1/clips"]) {
      const res = await call(path);
      expect(res.status, path).toBe(401);
      expect((await errorOf(res)).code).toBe("unauthorized");
    }
    const unknown = await call("/api/v1/no/such/thing");
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe("not_found");
    const wrongMethod = await call("/api/v1/me", "DELETE");
    expect(wrongMethod.status).toBe(405);
    expect(await errorOf(wrongMethod)).toEqual({ code: "bad_request", message: "DELETE is not allowed here." });
    // Not API v1: pages are still Remix's.
    expect((await call("/pricing")).status).toBe(200);
  });

  it("a crash is a JSON 500 without the detail; other paths and the API's own answers pass unchanged", async () => {
    // What Remix answers when a resource route's loader or action throws (server-runtime's handleResourceRequest).
    const crashed = () =>
      Response.json({ message: "secret detail" }, { status: 500, headers: { "X-Remix-Error": "yes" } });
    const res = inApiShape(new Request("http://localhost/api/v1/boom"), crashed());
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text).error.code).toBe("internal");
    expect(text).not.toContain("secret detail");
    const page = crashed();
    expect(inApiShape(new Request("http://localhost/dashboard"), page)).toBe(page);
    const own = Response.json({ error: { code: "internal", message: "x" } }, { status: 500 });
    expect(inApiShape(new Request("http://localhost/api/v1/clips"), own)).toBe(own);
  });
});
