import type { Config } from "tailwindcss";

export default {
  // When Tremor charts arrive (admin dashboards), add "./node_modules/@tremor/**/*.{js,ts,jsx,tsx}" here and
  // Tremor's colour safelist: it builds chart fill classes at run time. Until then they would only bloat the CSS.
  content: ["./app/**/*.{ts,tsx}"],
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
  plugins: [],
} satisfies Config;
