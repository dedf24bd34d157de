import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECHECK_AFTER_MS } from "./account-memo";
import { createHandlers, type Stored } from "./background-handlers";
import { CompanionClient } from "./companion-client";
import { createCompanionLink } from "./companion-link";
import { FAILURE_TEXT } from "./failures";
import { createNativeCompanion, type NativePort } from "./native-companion";
import { MESSAGES, type Job, type Result, type Status } from "./messages";
import { ask } from "./send";
import { senderOf } from "./sender";
import { SiteApi } from "./site-api";

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
/** A stand-in of the site's preset API (docs/api.md): "cc_advanced" may keep presets, "cc_free" may not. */
let siteApi: Server;
let siteApiUrl = "";
const saved: { id: string; name: string; format: string; quality: string; clipSeconds: number | null }[] = [];
/** What the site's preset record holds when a request leaves the short-video options out: Original, no captions. */
const PRESET_DEFAULTS = { clipSeconds: null, aspect: "original", cropPosition: null, captions: null };
const seen: string[] = [];
beforeAll(async () => {
  siteApi = createServer((req, res) => {
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    if (req.headers.authorization === "Bearer cc_free")
      return send(403, { error: { code: "plan_limit", message: "Custom presets are part of the Advanced plan." } });
    if (req.headers.authorization !== "Bearer cc_advanced")
      return send(401, { error: { code: "unauthorized", message: "Sign in." } });
    const id = /^\/api\/v1\/presets\/([\w-]+)$/.exec(req.url ?? "")?.[1];
    if (req.method === "GET" && req.url === "/api/v1/presets")
      return send(200, { presets: saved.map((p) => ({ ...p, createdAt: "2026-11-24T00:00:00.000Z" })) });
    if (req.method === "POST" && req.url === "/api/v1/presets") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const preset = { id: crypto.randomUUID(), ...PRESET_DEFAULTS, ...JSON.parse(body) };
        saved.push(preset);
        send(201, { preset: { ...preset, createdAt: "2026-11-24T00:00:00.000Z" } });
      });
      return;
    }
    if (req.method === "DELETE" && id) {
      const at = saved.findIndex((p) => p.id === id);
      if (at < 0) return send(404, { error: { code: "not_found", message: "No such preset." } });
      saved.splice(at, 1);
      res.writeHead(204).end();
      return;
    }
    send(404, { error: { code: "not_found", message: "No route." } });
  });
  await new Promise<void>((done) => siteApi.listen(0, "127.0.0.1", done));
  siteApiUrl = `http://127.0.0.1:${(siteApi.address() as AddressInfo).port}`;

  refusing = createServer((_req, res) => {
    res.writeHead(401, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "invalid_pairing_token", message: "The pairing token is not valid." } }));
  });
  await new Promise<void>((done) => refusing.listen(0, "127.0.0.1", done));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((done) => refusing.close(() => done()));
  await new Promise<void>((done) => siteApi.close(() => done()));
});

/** A browser without the host registered: Chrome's connectNative port closes at once with this error. */
function notInstalledPort(): NativePort {
  const disconnect: ((port: NativePort) => void)[] = [];
  const port: NativePort = {
    postMessage: () => undefined,
    disconnect: () => undefined,
    onMessage: { addListener: () => undefined },
    onDisconnect: { addListener: (listener) => void disconnect.push(listener) },
  };
  setTimeout(() => {
    port.error = { message: "Specified native messaging host not found." };
    for (const listener of disconnect) listener(port);
  }, 5);
  return port;
}

/** The companions as the background builds them: the native host (here a stand-in port), else a paired serve. */
function link(store: ReturnType<typeof memoryStore>, companionUrl: string, connect: () => NativePort) {
  return createCompanionLink({
    native: createNativeCompanion({ connect }),
    paired: (token) => new CompanionClient(token, companionUrl),
    pairingToken: async () => (await store.get()).pairingToken,
    socketUrl: (token) => `${companionUrl.replace(/^http/, "ws")}/ws?token=${token}`,
  });
}

function handlers(
  store = memoryStore(),
  companionUrl = "http://127.0.0.1:8839",
  {
    connect = notInstalledPort,
    account = async () => null,
  }: { connect?: () => NativePort; account?: (apiKey: string) => Promise<null> } = {},
) {
  return createHandlers({
    store,
    companion: link(store, companionUrl, connect),
    account,
    site: (apiKey) => new SiteApi(apiKey, siteApiUrl),
    version: "0.1.0",
  });
}

/** A signed-in account, as the site's /api/v1/me answers it (only the id matters here). */
const signedInAccount = async () => ({ user: { id: "u1" } }) as never;

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
      { ...clip, videoUrl: "javascript:alert(1)" },
      { ...clip, videoUrl: "file:///etc/passwd" },
    ]) {
      expect(await h.onSiteMessage(bad, SITE)).toEqual({ success: false, message: "Unknown or malformed message." });
    }
    expect((await store.get()).apiKey).toBeNull();
  });

  it("createClip says what to do when signed out, the companion is not installed, or a serve is not paired", async () => {
    expect(await handlers().onSiteMessage(clip, SITE)).toEqual({ success: false, message: FAILURE_TEXT.signed_out });
    const signedIn = memoryStore({ apiKey: "cc_token_123" });
    expect(await handlers(signedIn).onSiteMessage(clip, SITE)).toEqual({
      success: false,
      message: FAILURE_TEXT.not_installed,
    });
    const paired = memoryStore({ apiKey: "cc_token_123", pairingToken: TOKEN });
    expect(await handlers(paired).onSiteMessage(clip, SITE)).toEqual({
      success: false,
      message: FAILURE_TEXT.not_installed,
    });
    expect(await handlers(paired, refusingUrl).onSiteMessage(clip, SITE)).toEqual({
      success: false,
      message: FAILURE_TEXT.unpaired,
    });
  });
});

describe("internal messages", () => {
  const popup = { sender: "popup" } as const;
  const panel = { sender: "panel" } as const;

  it("relays a bridged site message with the bridge's origin, and refuses junk", async () => {
    const h = handlers();
    const ping = { type: "site", message: { action: "ping" } };
    expect(await h.onInternalMessage(ping, { sender: "bridge", siteOrigin: SITE })).toMatchObject({ success: true });
    expect(await h.onInternalMessage(ping, { sender: "bridge", siteOrigin: "https://www.youtube.com" })).toMatchObject({
      success: false,
    });
    for (const junk of [null, [], "status", { type: "nope" }, { type: "toString" }, { type: "status", extra: 1 }])
      expect(await h.onInternalMessage(junk, popup)).toEqual({
        ok: false,
        failure: { kind: "invalid", message: "Unknown or malformed message." },
      });
  });

  it("answers each message only from the senders that need it", async () => {
    const store = memoryStore({ apiKey: "cc_secret_token" });
    const h = handlers(store);
    const notAllowed = { ok: false, failure: { kind: "invalid", message: expect.stringContaining("may not send") } };
    // pair, status and the realtime token: the popup only; a content script (panel, bridge) or nobody is refused.
    for (const sender of ["panel", "bridge", null] as const) {
      expect(await h.onInternalMessage({ type: "pair", token: TOKEN }, { sender })).toEqual(notAllowed);
      expect(await h.onInternalMessage({ type: "status" }, { sender })).toEqual(notAllowed);
      expect(await h.onInternalMessage({ type: "realtimeToken" }, { sender })).toEqual(notAllowed);
    }
    // Clips start from the panel only; the bridge relays site messages and nothing else.
    const { action: _action, ...job } = clip;
    expect(await h.onInternalMessage({ type: "createJob", job }, popup)).toEqual(notAllowed);
    expect(await h.onInternalMessage({ type: "jobs" }, { sender: "bridge" })).toEqual(notAllowed);
    expect(await h.onInternalMessage({ type: "site", message: { action: "ping" } }, popup)).toEqual(notAllowed);
    expect(await h.onInternalMessage({ type: "realtimeToken" }, popup)).toEqual({
      ok: true,
      value: "cc_secret_token",
    });
  });

  it("status and account never carry the API token", async () => {
    const h = handlers(memoryStore({ apiKey: "cc_secret_token" }), undefined, { account: signedInAccount });
    for (const [type, from] of [
      ["status", popup],
      ["account", panel],
    ] as const) {
      const reply = await h.onInternalMessage({ type }, from);
      expect(reply).toMatchObject({ ok: true, value: { signedIn: true } });
      expect(JSON.stringify(reply)).not.toContain("cc_secret_token");
    }
  });

  it("createJob takes only http(s) page links (the site's videoUrlSchema)", async () => {
    const h = handlers(memoryStore({ apiKey: "cc_token_123", pairingToken: TOKEN }));
    const { action: _action, ...job } = clip;
    for (const videoUrl of ["javascript:alert(1)", "file:///etc/passwd", "ftp://example.com/v.mp4", "not a url"])
      expect(await h.onInternalMessage({ type: "createJob", job: { ...job, videoUrl } }, panel)).toMatchObject({
        ok: false,
        failure: { kind: "invalid" },
      });
    // A good link gets as far as the companion (not installed here).
    expect(await h.onInternalMessage({ type: "createJob", job }, panel)).toMatchObject({
      ok: false,
      failure: { kind: "not_installed" },
    });
  });

  it("pairs only with a well-formed token that the companion accepts", async () => {
    const store = memoryStore();
    const h = handlers(store, refusingUrl);
    expect(await h.onInternalMessage({ type: "pair", token: "short" }, popup)).toMatchObject({
      ok: false,
      failure: { kind: "invalid" },
    });
    expect(await h.onInternalMessage({ type: "pair", token: TOKEN }, popup)).toMatchObject({
      ok: false,
      failure: { kind: "unpaired" },
    });
    expect((await store.get()).pairingToken).toBeNull();
  });

  it("keeps presets in the account: list, save, delete through the site's API with the account's token", async () => {
    const h = handlers(memoryStore({ apiKey: "cc_advanced" }));
    const preset = { name: "Shorts", format: "mp4", quality: "1080p", clipSeconds: 15 };
    const created = await h.onInternalMessage({ type: "savePreset", preset }, panel);
    expect(created).toMatchObject({ ok: true, value: { ...preset, id: expect.any(String) } });
    const id = (created as { value: { id: string } }).value.id;
    expect(await h.onInternalMessage({ type: "presets" }, panel)).toMatchObject({ ok: true, value: [preset] });
    expect(await h.onInternalMessage({ type: "deletePreset", id }, panel)).toEqual({ ok: true, value: null });
    expect(await h.onInternalMessage({ type: "presets" }, panel)).toEqual({ ok: true, value: [] });
    // A preset for short videos keeps its aspect, crop position and captions on the way there and back.
    const shorts = {
      ...preset,
      aspect: "9:16",
      cropPosition: 0.25,
      captions: { track: "en", mode: "burn", srt: true },
    };
    const kept = await h.onInternalMessage({ type: "savePreset", preset: shorts }, panel);
    expect(kept).toMatchObject({ ok: true, value: shorts });
    expect(await h.onInternalMessage({ type: "presets" }, panel)).toMatchObject({ ok: true, value: [shorts] });
    await h.onInternalMessage({ type: "deletePreset", id: (kept as { value: { id: string } }).value.id }, panel);
    expect(seen.every((line) => line.endsWith("Bearer cc_advanced"))).toBe(true);
    // A bad preset never leaves the extension; a deleted one is gone.
    const before = seen.length;
    expect(
      await h.onInternalMessage({ type: "savePreset", preset: { ...preset, format: "exe" } }, panel),
    ).toMatchObject({ ok: false, failure: { kind: "invalid" } });
    expect(seen).toHaveLength(before);
    expect(await h.onInternalMessage({ type: "deletePreset", id }, panel)).toMatchObject({
      ok: false,
      failure: { kind: "other", message: "No such preset." },
    });
  });

  it("passes on the plan's refusal, and says so when signed out", async () => {
    expect(await handlers(memoryStore({ apiKey: "cc_free" })).onInternalMessage({ type: "presets" }, panel)).toEqual({
      ok: false,
      failure: { kind: "plan_limit", message: "Custom presets are part of the Advanced plan." },
    });
    expect(await handlers().onInternalMessage({ type: "presets" }, panel)).toEqual({
      ok: false,
      failure: { kind: "signed_out", message: FAILURE_TEXT.signed_out },
    });
    // Only the panel asks for presets.
    expect(
      await handlers(memoryStore({ apiKey: "cc_advanced" })).onInternalMessage({ type: "presets" }, popup),
    ).toMatchObject({ ok: false, failure: { kind: "invalid" } });
  });

  it("reports a companion that is not installed in the status, with the command that installs it", async () => {
    expect((await handlers().status()).companion).toEqual({
      state: "unavailable",
      kind: "not_installed",
      message: "Companion not installed — run `npx clipcut-companion install`, then try again.",
    });
  });
});

describe("the typed message map", () => {
  it("types each reply from its message, and refuses unknown messages at compile time", () => {
    // Compile-time checks (tsc runs over this file); the functions are never called.
    const _typed = async () => {
      const jobs: Result<Job[]> = await ask({ type: "jobs" });
      const status: Result<Status> = await ask({ type: "status" });
      // @ts-expect-error a message the map does not know
      await ask({ type: "deleteEverything" });
      // @ts-expect-error a field the message does not have
      await ask({ type: "job", jobId: "x" });
      // @ts-expect-error the reply of "jobs" is not a Status
      const wrong: Result<Status> = await ask({ type: "jobs" });
      return [jobs, status, wrong];
    };
    expect(Object.keys(MESSAGES).sort()).toEqual(
      [
        "account",
        "batch",
        "cancelJob",
        "companion",
        "createJob",
        "deletePreset",
        "dryRun",
        "job",
        "jobs",
        "pair",
        "presets",
        "realtimeToken",
        "savePreset",
        "site",
        "status",
      ].sort(),
    );
  });
});

describe("the panel's account", () => {
  it("answers without waiting for the companion, which has its own message", async () => {
    const panel = { sender: "panel" } as const;
    // A host the browser is still starting: its port never answers (nor closes) during this test.
    const starting = (): NativePort => ({
      postMessage: () => undefined,
      disconnect: () => undefined,
      onMessage: { addListener: () => undefined },
      onDisconnect: { addListener: () => undefined },
    });
    const h = handlers(memoryStore({ apiKey: "cc_secret_token" }), undefined, {
      connect: starting,
      account: signedInAccount,
    });
    const companion = h.onInternalMessage({ type: "companion" }, panel);
    const account = await Promise.race([
      h.onInternalMessage({ type: "account" }, panel),
      new Promise((resolve) => setTimeout(() => resolve("waited for the companion"), 500)),
    ]);
    expect(account).toEqual({ ok: true, value: { signedIn: true, account: { user: { id: "u1" } } } });
    let settled = false;
    void companion.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
  });
});

describe("the remembered account", () => {
  const panel = { sender: "panel" } as const;
  /** /api/v1/me as the site answers it: a token it knows gets its account, a revoked one null (401). */
  function siteAccounts() {
    const valid = new Map<string, string>([["cc_one", "u1"]]);
    const calls: string[] = [];
    const gates: (() => void)[] = [];
    let hold = false;
    const account = async (apiKey: string) => {
      calls.push(apiKey);
      if (hold) await new Promise<void>((open) => gates.push(open));
      const id = valid.get(apiKey);
      return (id ? { user: { id } } : null) as never;
    };
    return {
      account,
      calls,
      revoke: (apiKey: string) => valid.delete(apiKey),
      grant: (apiKey: string, id: string) => valid.set(apiKey, id),
      holdAnswers: (on: boolean) => (hold = on),
      release: () => gates.splice(0).forEach((open) => open()),
    };
  }

  it("answers at once from the last good account, and a fresh ask checks with the site", async () => {
    const accounts = siteAccounts();
    const h = handlers(memoryStore({ apiKey: "cc_one" }), undefined, { account: accounts.account });
    const first = await h.onInternalMessage({ type: "account" }, panel);
    expect(first).toEqual({ ok: true, value: { signedIn: true, account: { user: { id: "u1" } } } });
    expect(accounts.calls).toEqual(["cc_one"]);
    // The site is slow now: the remembered answer does not wait for it.
    accounts.holdAnswers(true);
    const again = await Promise.race([
      h.onInternalMessage({ type: "account" }, panel),
      new Promise((resolve) => setTimeout(() => resolve("waited for the site"), 200)),
    ]);
    expect(again).toEqual(first);
    expect(accounts.calls).toEqual(["cc_one"]);
    accounts.holdAnswers(false);
    expect(await h.onInternalMessage({ type: "account", fresh: true }, panel)).toEqual(first);
    expect(accounts.calls).toEqual(["cc_one", "cc_one"]);
  });

  it("a revoked token reads as signed out once the fresh check answers, and is not remembered as signed in", async () => {
    const accounts = siteAccounts();
    const h = handlers(memoryStore({ apiKey: "cc_one" }), undefined, { account: accounts.account });
    await h.onInternalMessage({ type: "account" }, panel);
    accounts.revoke("cc_one");
    // The panel opens on the remembered account, and its fresh check says signed out.
    expect(await h.onInternalMessage({ type: "account" }, panel)).toMatchObject({ value: { signedIn: true } });
    expect(await h.onInternalMessage({ type: "account", fresh: true }, panel)).toEqual({
      ok: true,
      value: { signedIn: false, account: null },
    });
    expect(await h.onInternalMessage({ type: "account" }, panel)).toEqual({
      ok: true,
      value: { signedIn: false, account: null },
    });
  });

  it("signing out reads as signed out at once, and a new token gets its own account, never the old one's", async () => {
    const accounts = siteAccounts();
    const store = memoryStore({ apiKey: "cc_one" });
    const h = handlers(store, undefined, { account: accounts.account });
    await h.onInternalMessage({ type: "account" }, panel);
    expect(await h.onSiteMessage({ action: "clearApiKey" }, SITE)).toMatchObject({ success: true });
    expect(await h.onInternalMessage({ type: "account" }, panel)).toEqual({
      ok: true,
      value: { signedIn: false, account: null },
    });
    accounts.grant("cc_two_token", "u2");
    await h.onSiteMessage({ action: "setApiKey", apiKey: "cc_two_token" }, SITE);
    expect(await h.onInternalMessage({ type: "account" }, panel)).toMatchObject({
      value: { signedIn: true, account: { user: { id: "u2" } } },
    });
  });

  it("a check started before a sign-out does not bring the old account back", async () => {
    const accounts = siteAccounts();
    const store = memoryStore({ apiKey: "cc_one" });
    const h = handlers(store, undefined, { account: accounts.account });
    accounts.holdAnswers(true);
    const pending = h.onInternalMessage({ type: "account", fresh: true }, panel);
    await h.onSiteMessage({ action: "clearApiKey" }, SITE);
    accounts.release();
    await pending;
    accounts.holdAnswers(false);
    expect(await h.onInternalMessage({ type: "account" }, panel)).toEqual({
      ok: true,
      value: { signedIn: false, account: null },
    });
  });

  it("an old remembered account is checked again in the background", async () => {
    const accounts = siteAccounts();
    let clock = 0;
    const store = memoryStore({ apiKey: "cc_one" });
    const h = createHandlers({
      store,
      companion: link(store, "http://127.0.0.1:8839", notInstalledPort),
      account: accounts.account,
      site: (apiKey) => new SiteApi(apiKey, siteApiUrl),
      version: "0.1.0",
      now: () => clock,
    });
    await h.onInternalMessage({ type: "account" }, panel);
    clock = RECHECK_AFTER_MS - 1;
    await h.onInternalMessage({ type: "account" }, panel);
    expect(accounts.calls).toHaveLength(1);
    accounts.revoke("cc_one");
    clock = RECHECK_AFTER_MS;
    expect(await h.onInternalMessage({ type: "account" }, panel)).toMatchObject({ value: { signedIn: true } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(accounts.calls).toHaveLength(2);
    expect(await h.onInternalMessage({ type: "account" }, panel)).toMatchObject({ value: { signedIn: false } });
  });
});

describe("senderOf", () => {
  const self = { id: "ext", base: "moz-extension://3f0c2a4e-8d1b-4c5e-9a7f-0b1c2d3e4f50/", siteOrigins: [SITE] };
  it("tells the popup, the panel and the bridge apart by where they run", () => {
    expect(senderOf({ id: "ext", url: `${self.base}popup.html` }, self)).toBe("popup");
    expect(senderOf({ id: "ext", url: `${self.base}popup.html?welcome`, tab: {} }, self)).toBe("popup");
    expect(senderOf({ id: "ext", url: "https://www.youtube.com/watch?v=x", tab: {} }, self)).toBe("panel");
    expect(senderOf({ id: "ext", url: `${SITE}/dashboard`, tab: {} }, self)).toBe("bridge");
  });
  it("answers nobody else: other extensions, other pages of ours, other ports, look-alike hosts", () => {
    for (const sender of [
      { id: "other", url: `${self.base}popup.html` },
      { id: "ext", url: `${self.base}background.html` },
      { id: "ext", url: "http://localhost:8788/", tab: {} },
      { id: "ext", url: "http://www.youtube.com/watch?v=x", tab: {} },
      { id: "ext", url: "https://www.youtube.com.evil.example/watch?v=x", tab: {} },
      { id: "ext", url: "https://www.youtube.com/watch?v=x" },
      { id: "ext" },
    ])
      expect(senderOf(sender, self)).toBeNull();
  });
});
