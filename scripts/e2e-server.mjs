// The server Playwright tests run against: the built Worker under wrangler dev with its own fresh D1.
import { startLocalServer } from "./local-server.mjs";

const port = Number(process.env.E2E_PORT ?? 8790);
startLocalServer({
  port,
  persistTo: process.env.E2E_STATE ?? ".wrangler/e2e-state",
  fresh: true,
  // npm test builds once before the suites; a standalone `npx playwright test` builds here.
  build: process.env.E2E_SKIP_BUILD !== "1",
  vars: JSON.parse(process.env.E2E_VARS ?? "{}"),
  // E2E_INSPECTOR=1 brings DevTools back when debugging a test.
  inspector: process.env.E2E_INSPECTOR === "1",
});
