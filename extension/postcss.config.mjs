import autoprefixer from "autoprefixer";
import tailwindcss from "tailwindcss";

/* The panel lives on pages that set their own root font size (YouTube uses 10px): rem becomes px. */
const remToPx = () => ({
  postcssPlugin: "rem-to-px",
  Declaration(decl) {
    if (decl.value.includes("rem")) {
      decl.value = decl.value.replace(/(-?\d*\.?\d+)rem\b/g, (_, n) => `${Number(n) * 16}px`);
    }
  },
});
remToPx.postcss = true;

export default {
  plugins: [
    tailwindcss({ config: new URL("./tailwind.config.ts", import.meta.url).pathname }),
    remToPx(),
    autoprefixer,
  ],
};
