// Resolved by wrangler's [alias] (and the vitest config) to the output of `remix vite:build`.
declare module "remix-server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  const build: ServerBuild;
  export = build;
}
