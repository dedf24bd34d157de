import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".wrangler/",
      // The bench's peer apps build and run beside their sources.
      "bench/peers/*/build/",
      "bench/peers/*/.wrangler/",
      "node_modules/",
      "worker-configuration.d.ts",
      "test-results/",
      "playwright-report/",
      "extension/dist/",
      "extension/.wxt/",
      "extension/.output/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Layers: the domain is pure rules and imports nothing from the app; the extension and its companion share only
  // the domain and the one clip-range component with the site.
  {
    files: ["app/domain/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(~/|\\.\\./)",
              message: "app/domain imports nothing from app/: move the shared piece into app/domain.",
            },
          ],
        },
      ],
    },
  },
  // The local stand-ins (workers/local/) reach the Worker through one door: the local entry workers/local.ts composes
  // them. Anything else importing them would carry them into the production bundle (deploy:check looks too).
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: ["workers/local.ts", "workers/local/**", "tests/**", "scripts/**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration", "ImportExpression"].map((node) => ({
          selector: `${node}[source.value=/(^|\\/)workers\\/local(\\/|\\.ts$|$)|^\\.\\/local(\\/|\\.ts$|$)/]`,
          message: "Only workers/local.ts (the local entry) imports the local stand-ins: compose them there.",
        })),
      ],
    },
  },
  // Data access lives in app/db: elsewhere no query builder and no table objects (types of rows are fine).
  {
    files: ["app/**/*.{ts,tsx}", "workers/**/*.ts"],
    ignores: ["app/db/**", "app/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "drizzle-orm", message: "Queries live in app/db/*.server.ts: add a function there." },
            {
              name: "~/db/schema",
              message: "Tables are app/db's: add a function in app/db/*.server.ts.",
              allowTypeImports: true,
            },
          ],
          patterns: [
            { regex: "^drizzle-orm/", message: "Queries live in app/db/*.server.ts: add a function there." },
            {
              regex: "^\\.\\.?/(.*/)?db/schema$",
              message: "Tables are app/db's: add a function in app/db/*.server.ts.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  // The ledger client is called from one place: app/services (one service function per user action owns its ledger
  // calls and audit rows); routes parse and render. The ledger's own side (workers/) calls it object to object.
  // `busyHeaders` (the Retry-After of a busy answer) may be used anywhere.
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: [
      "app/services/**",
      "app/components/**",
      // The plan change is being moved into a billing service with the plan-change rule (decision 011's billing rework).
      "app/routes/_app.billing.plan.tsx",
    ],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "~/services/ledger.server",
              importNames: ["ledger"],
              message: "Only app/services calls the ledger: add a service function for this action.",
            },
          ],
        },
      ],
    },
  },
  // Components render what they are given: nothing from the data layer, the services or the routes (types included).
  {
    files: ["app/components/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(~/|(\\.\\./)+)(db|services|routes)/",
              message:
                "Components import nothing from ~/db, ~/services or ~/routes: pass the data as props, or put the shape in app/domain.",
            },
          ],
        },
      ],
    },
  },
  // Sub-folders of the domain (app/domain/ledger) may import the domain's top level, never beyond it.
  {
    files: ["app/domain/*/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(~/|\\.\\./\\.\\./)",
              message: "app/domain imports nothing from app/: move the shared piece into app/domain.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["extension/**/*.{ts,tsx,js,mjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^~/(?!domain/|components/clip-range/)",
              message: "The extension imports only app/domain and app/components/clip-range from the site.",
            },
            {
              regex: "/app/(?!domain/|components/clip-range/)",
              message: "The extension imports only app/domain and app/components/clip-range from the site.",
            },
          ],
        },
      ],
    },
  },
);
