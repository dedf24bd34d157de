import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

/**
 * patches/@remix-run+router: the server caches its ranked route branches and compiled paths (route matching was a
 * quarter of a signed-in page's CPU). The cache must not change any answer, and must survive `npm ci`.
 */
const routes: AgnosticRouteObject[] = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "index", index: true },
      {
        id: "clips",
        path: "clips",
        children: [
          { id: "clips-new", path: "new" },
          { id: "clip", path: ":clipId" },
        ],
      },
      { id: "blog", path: "blog/:slug" },
      { id: "splat", path: "*" },
    ],
  },
];

const ids = (path: string) => matchRoutes(routes, path)?.map((m) => m.route.id) ?? null;

describe("the patched route matching", () => {
  it("is applied to both builds of @remix-run/router after install", () => {
    const require = createRequire(import.meta.url);
    const dist = require.resolve("@remix-run/router").replace(/router\.cjs\.js$/, "");
    for (const file of ["router.js", "router.cjs.js"])
      expect(readFileSync(`${dist}${file}`, "utf8")).toContain("rankedBranchesCache");
  });

  it("answers the same, ranked matches on every call", () => {
    for (let round = 0; round < 3; round++) {
      expect(ids("/")).toEqual(["root", "index"]);
      expect(ids("/clips/new")).toEqual(["root", "clips", "clips-new"]); // static beats :clipId
      expect(ids("/clips/abc")).toEqual(["root", "clips", "clip"]);
      expect(matchRoutes(routes, "/blog/hello")?.at(-1)?.params).toEqual({ slug: "hello" });
      expect(ids("/nowhere/else")).toEqual(["root", "splat"]);
    }
  });

  it("sees a new routes array (a new build) at once", () => {
    expect(ids("/clips/new")).toEqual(["root", "clips", "clips-new"]);
    const other: AgnosticRouteObject[] = [{ id: "only", path: "/clips/:id" }];
    expect(matchRoutes(other, "/clips/new")?.map((m) => m.route.id)).toEqual(["only"]);
  });
});
