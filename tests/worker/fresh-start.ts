import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { countRows, get, insertUser, outbox, post } from "./helpers";

/**
 * When workerd test files share a runtime (vitest.config.ts runs them all in one), tests/worker/setup.ts gives each file
 * what a fresh runtime would. Two files run this check: whichever runs second fails if the first one's traces reached
 * it (both fail without the set-up's reset()/resetModules()).
 */
export async function expectFreshStartThenLeaveTraces(name: string) {
  // Storage: D1, the stand-in's outbox, the Workers cache.
  expect(await countRows("SELECT COUNT(*) AS n FROM users"), "users left by another file").toBe(0);
  expect(await outbox(), "mail left by another file").toEqual([]);
  // The isolate's memory and the Workers cache: a public page is rendered, not served from either.
  const page = await get("/pricing");
  await page.arrayBuffer();
  expect(page.headers.get("X-Page-Cache"), "a page kept by another file").toBe("miss");

  // Traces of every kind for the other file to find.
  const email = `${name}@example.com`;
  await insertUser({ email });
  expect((await post("/forgot-password", { email }, { ip: "192.0.2.240" })).status).toBe(200);
  expect(await outbox()).toHaveLength(1);
  const again = await get("/pricing");
  await again.arrayBuffer();
  expect(again.headers.get("X-Page-Cache")).toBe("hit");
  expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>()).toEqual({ n: 1 });
}
