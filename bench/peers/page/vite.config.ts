import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { REMIX_FUTURE } from "../../../vite.config";

// As ClipCut's build: the same future flags, resolve conditions and minifier.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [remix({ future: REMIX_FUTURE })],
  ssr: { resolve: { conditions: ["workerd", "worker", "browser"] } },
  resolve: { mainFields: ["browser", "module", "main"] },
  build: { minify: true },
});
