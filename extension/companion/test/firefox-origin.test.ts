import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig, resetPairingToken, saveFirefoxOrigin } from "../src/host/config";
import { DEFAULT_EXTENSION_ID } from "../../../app/domain/extension";
import { allowedOrigins, memoryFirefoxBinding, trustsDevExtension } from "../src/host/security";
import { createCompanionServer, type CompanionServer } from "../src/host/server";
import { call } from "./client";
import { tempDir, tools } from "./helpers";

const FIREFOX = "moz-extension://3f0c2a4e-8d1b-4c5e-9a7f-0b1c2d3e4f50";
const OTHER_FIREFOX = "moz-extension://aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
let companion: CompanionServer;
let port: number;
let token: string;
const persisted: string[] = [];

beforeAll(async () => {
  const config = await loadConfig(tempDir("clipcut-config-"));
  token = config.pairingToken;
  companion = createCompanionServer({
    tools,
    toolVersions: { ffmpeg: "ffmpeg", ytDlp: null },
    outputDir: tempDir(),
    pairingToken: token,
    allowedOrigins: allowedOrigins(),
    firefox: memoryFirefoxBinding(null, (o) => persisted.push(o)),
  });
  port = await companion.listen(0);
});
afterAll(() => companion.close());

it("accepts a Firefox extension origin, binds it at pairing and refuses other Firefox installs after", async () => {
  // Before pairing, a Firefox preflight is answered (the origin is not known in advance).
  const preflight = await call(port, token, "OPTIONS", "/health", {
    headers: { origin: FIREFOX, authorization: undefined },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers["access-control-allow-origin"]).toBe(FIREFOX);
  // A wrong token does not bind anything.
  const wrong = await call(port, "x".repeat(43), "GET", "/health", { headers: { origin: OTHER_FIREFOX } });
  expect(wrong.status).toBe(401);
  expect(persisted).toEqual([]);

  const first = await call(port, token, "GET", "/health", { headers: { origin: FIREFOX } });
  expect(first.status).toBe(200);
  expect(first.headers["access-control-allow-origin"]).toBe(FIREFOX);
  expect(persisted).toEqual([FIREFOX]);

  const other = await call(port, token, "GET", "/health", { headers: { origin: OTHER_FIREFOX } });
  expect(other.status).toBe(403);
  expect((other.body as { error: { code: string } }).error.code).toBe("forbidden_origin");
  expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  // Chrome keeps working beside it; look-alike origins never pass.
  expect((await call(port, token, "GET", "/health")).status).toBe(200);
  for (const origin of ["moz-extension://not-a-uuid", "moz-extension://evil.com", "https://moz-extension.example"]) {
    expect((await call(port, token, "GET", "/health", { headers: { origin } })).status).toBe(403);
  }
});

it("lists an explicit Firefox UUID as a moz-extension origin and keeps the binding in the config until reset", async () => {
  expect(allowedOrigins(["{3F0C2A4E-8D1B-4C5E-9A7F-0B1C2D3E4F50}"]).has(FIREFOX)).toBe(true);
  const dir = tempDir("clipcut-config-");
  const config = await loadConfig(dir);
  await saveFirefoxOrigin(config, FIREFOX);
  expect((await loadConfig(dir)).firefoxOrigin).toBe(FIREFOX);
  await resetPairingToken(dir);
  expect((await loadConfig(dir)).firefoxOrigin).toBeNull();
});

it("the public dev extension id is trusted only in a dev build or when asked", () => {
  const dev = `chrome-extension://${DEFAULT_EXTENSION_ID}`;
  expect(allowedOrigins([], false).has(dev)).toBe(false);
  expect(allowedOrigins(["abcdefghijklmnopabcdefghijklmnop"], false)).toEqual(
    new Set(["chrome-extension://abcdefghijklmnopabcdefghijklmnop"]),
  );
  expect(allowedOrigins([], true).has(dev)).toBe(true);
  // Run from the repository (as here) is a dev build; the packed one is checked in pack.test.ts.
  expect(trustsDevExtension(false, {})).toBe(true);
});
