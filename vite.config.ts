import { vitePlugin as remix, cloudflareDevProxyVitePlugin as remixCloudflareDevProxy } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

/** Remix's future flags: the build and the workerd test suite (vitest.config.ts) compile the same app. */
export const REMIX_FUTURE = {
  v3_fetcherPersist: true,
  v3_relativeSplatPath: true,
  v3_throwAbortReason: true,
  v3_singleFetch: true,
  v3_lazyRouteDiscovery: true,
};

export default defineConfig(({ command }) => ({
  plugins: [
    // The dev proxy boots workerd; only wanted when Vite serves, never during a build.
    command === "serve" && remixCloudflareDevProxy(),
    remix({ future: REMIX_FUTURE }),
    tsconfigPaths(),
  ],
  ssr: { resolve: { conditions: ["workerd", "worker", "browser"] } },
  resolve: { mainFields: ["browser", "module", "main"] },
  build: { minify: true },
}));
