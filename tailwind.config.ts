import type { Config } from "tailwindcss";
import colors from "tailwindcss/colors";

// Tremor (admin charts) builds colour classes at run time from the colour names we pass it: safelist only the
// chart colours we use, in every shade Tremor derives, so the CSS does not grow by Tremor's whole palette.
const CHART_COLORS = "blue|emerald|amber|violet|slate|rose";
const SHADES = "50|100|200|300|400|500|600|700|800|900|950";

export default {
  content: ["./app/**/*.{ts,tsx}", "./node_modules/@tremor/react/dist/**/*.js"],
  safelist: ["bg", "text", "border", "ring", "stroke", "fill"].map((kind) => ({
    pattern: new RegExp(`^${kind}-(?:${CHART_COLORS})-(?:${SHADES})$`),
  })),
  theme: {
    extend: {
      colors: {
        tremor: {
          brand: {
            faint: colors.blue[50],
            muted: colors.blue[200],
            subtle: colors.blue[400],
            DEFAULT: colors.blue[600],
            emphasis: colors.blue[700],
            inverted: colors.white,
          },
          background: {
            muted: colors.slate[50],
            subtle: colors.slate[100],
            DEFAULT: colors.white,
            emphasis: colors.slate[700],
          },
          border: { DEFAULT: colors.slate[200] },
          ring: { DEFAULT: colors.slate[200] },
          content: {
            subtle: colors.slate[500],
            DEFAULT: colors.slate[600],
            emphasis: colors.slate[700],
            strong: colors.slate[900],
            inverted: colors.white,
          },
        },
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
      boxShadow: {
        "tremor-input": "0 1px 2px 0 rgb(0 0 0 / 0.05)",
        "tremor-card": "0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)",
        "tremor-dropdown": "0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)",
      },
      borderRadius: { "tremor-small": "0.375rem", "tremor-default": "0.5rem", "tremor-full": "9999px" },
      fontSize: {
        "tremor-label": ["0.75rem", { lineHeight: "1rem" }],
        "tremor-default": ["0.875rem", { lineHeight: "1.25rem" }],
        "tremor-title": ["1.125rem", { lineHeight: "1.75rem" }],
        "tremor-metric": ["1.875rem", { lineHeight: "2.25rem" }],
      },
      keyframes: {
        snip: { "0%,100%": { transform: "rotate(0deg)" }, "50%": { transform: "rotate(-18deg)" } },
      },
      animation: { snip: "snip 0.6s ease-in-out infinite" },
    },
  },
  plugins: [],
} satisfies Config;
