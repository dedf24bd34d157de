// Resolved by wrangler's [alias] to the output of `remix vite:build`; the vitest config maps it to Remix's
// virtual server build (the source).
declare module "remix-server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  const build: ServerBuild;
  export = build;
}
