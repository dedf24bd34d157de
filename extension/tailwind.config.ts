import { fileURLToPath } from "node:url";
import type { Config } from "tailwindcss";
import site from "../tailwind.config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The site's theme, scanning only what the extension renders. */
export default {
  ...site,
  content: [here("./src/**/*.{ts,tsx,html}"), here("../app/components/clip-range/**/*.tsx")],
} satisfies Config;
