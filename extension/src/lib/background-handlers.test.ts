import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlers, type Stored } from "./background-handlers";
import { CompanionClient } from "./companion-client";
import { FAILURE_TEXT } from "./failures";

const SITE = "http://localhost:8787";
const TOKEN = "A".repeat(43);

function memoryStore(initial: Partial<Stored> = {}) {
  let data: Stored = { apiKey: null, pairingToken: null, plan: null, ...initial };
  return {
    get: async () => ({ ...data }),
    set: async (patch: Partial<Stored>) => void (data = { ...data, ...patch }),
  };
}

/** A loopback server answering like the companion does when the pairing token is wrong. */
let refusing: Server;
let refusingUrl = "";
beforeAll(async () => {
  refusing = createServer((_req, res) => {
    res.writeHead(401, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "invalid_pairing_token", message: "The pairing token is not valid." } }));
  });
  await new Promise<void>((done) => refusing.listen(0, "127.0.0.1", done));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => refusing.close(() => done())));

function handlers(store = memoryStore(), companionUrl = "http://127.0.0.1:8839") {
  return createHandlers({
    store,
    companion: (token) => new CompanionClient(token, companionUrl),
    account: async () => null,
    version: "0.1.0",
  });
}

const clip = {
  action: "createClip",
  name: "Goal",
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  startSeconds: 10,
  endSeconds: 25,
  format: "mp4",
  quality: "720p",
};

describe("site messages", () => {
  it("answers ping with { success, message }", async () => {
    expect(await handlers().onSiteMessage({ action: "ping" }, SITE)).toEqual({
      success: true,
      message: "ClipCut extension 0.1.0",
    });
  });

  it("stores the token on setApiKey and forgets it on clearApiKey", async () => {
    const store = memoryStore();
    const h = handlers(store);
    expect((await h.onSiteMessage({ action: "setApiKey", apiKey: "cc_secret_token" }, SITE)).success).toBe(true);
    expect((await store.get()).apiKey).toBe("cc_secret_token");
    expect((await h.onSiteMessage({ action: "userPlanUpdated", plan: "Basic" }, SITE)).success).toBe(true);
    expect((await store.get()).plan).toBe("Basic");
    expect((await h.onSiteMessage({ action: "clearApiKey" }, SITE)).success).toBe(true);
    expect(await store.get()).toMatchObject({ apiKey: null, plan: null });
  });

  it("refuses other origins, unknown actions and malformed fields, changing nothing", async () => {
    const store = memoryStore();
    const h = handlers(store);
    const evil = await h.onSiteMessage({ action: "setApiKey", apiKey: "cc_evil_token" }, "https://evil.example");
    expect(evil.success).toBe(false);
    expect(await h.onSiteMessage({ action: "setApiKey", apiKey: "cc_x" }, undefined)).toMatchObject({ success: false });
    for (const bad of [
      null,
      "ping",
      { action: "deleteEverything" },
      { action: "setApiKey" },
      { action: "setApiKey", apiKey: 42 },
      { action: "ping", extra: true },
      { action: "userPlanUpdated", plan: "Platinum" },
      { ...clip, endSeconds: 5 },
      { ...clip, format: "exe" },
    ]) {
      expect(await h.onSiteMessage(bad, SITE)).toEqual({ success: false, message: "Unknown or malformed message." });
    }
    expect((await store.get()).apiKey).toBeNull();
  });

  it("createClip says what to do when signed out, unpaired, or the companion is stopped", async () => {
    expect(await handlers().onSiteMessage(clip, SITE)).toEqual({ success: false, message: FAILURE_TEXT.signed_out });
    const signedIn = memoryStore({ apiKey: "cc_token_123" });
    expect(await handlers(signedIn).onSiteMessage(clip, SITE)).toEqual({
      success: false,
      message: FAILURE_TEXT.unpaired,
    });
    const paired = memoryStore({ apiKey: "cc_token_123", pairingToken: TOKEN });
    expect(await handlers(paired).onSiteMessage(clip, SITE)).toEqual({ success: false, message: FAILURE_TEXT.stopped });
    expect(await handlers(paired, refusingUrl).onSiteMessage(clip, SITE)).toEqual({
      success: false,
      message: FAILURE_TEXT.unpaired,
    });
  });
});

describe("internal messages", () => {
  it("relays a bridged site message with the bridge's origin, and refuses junk", async () => {
    const h = handlers();
    expect(await h.onInternalMessage({ type: "site", message: { action: "ping" } }, SITE)).toMatchObject({
      success: true,
    });
    expect(
      await h.onInternalMessage({ type: "site", message: { action: "ping" } }, "https://www.youtube.com"),
    ).toMatchObject({
      success: false,
    });
    expect(await h.onInternalMessage({ type: "nope" }, undefined)).toMatchObject({ ok: false });
  });

  it("pairs only with a well-formed token that the companion accepts", async () => {
    const store = memoryStore();
    const h = handlers(store, refusingUrl);
    expect(await h.onInternalMessage({ type: "pair", token: "short" }, undefined)).toMatchObject({
      ok: false,
      failure: { kind: "invalid" },
    });
    expect(await h.onInternalMessage({ type: "pair", token: TOKEN }, undefined)).toMatchObject({
      ok: false,
      failure: { kind: "unpaired" },
    });
    expect((await store.get()).pairingToken).toBeNull();
  });

  it("reports a stopped companion in the status", async () => {
    expect((await handlers().status()).companion).toEqual({ state: "stopped" });
  });
});
