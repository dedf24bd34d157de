import type { Config } from "tailwindcss";

const tremorColors = ["blue", "indigo", "violet", "emerald", "amber", "rose", "cyan", "slate", "gray", "fuchsia"];

export default {
  content: ["./app/**/*.{ts,tsx}", "./node_modules/@tremor/**/*.{js,ts,jsx,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: {
          50: "#eef4ff",
          100: "#dae6ff",
          200: "#bdd3ff",
          300: "#90b6ff",
          400: "#5c8dfd",
          500: "#3766f9",
          600: "#2146ee",
          700: "#1a35db",
          800: "#1c2fb1",
          900: "#1d2e8b",
          950: "#161d54",
        },
      },
      keyframes: {
        snip: { "0%,100%": { transform: "rotate(0deg)" }, "50%": { transform: "rotate(-18deg)" } },
      },
      animation: { snip: "snip 0.6s ease-in-out infinite" },
    },
  },
  // Tremor builds chart fills from class names at run time: keep them in the CSS.
  safelist: [
    {
      pattern: new RegExp(
        `^(bg|text|border|ring|stroke|fill)-(${tremorColors.join("|")})-(50|100|200|300|400|500|600|700|800|900|950)$`,
      ),
      variants: ["hover", "ui-selected"],
    },
  ],
  plugins: [],
} satisfies Config;
