import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROP_ASPECTS, cropFor } from "../../app/domain/crop";
import { run } from "../../extension/companion/test/media";
import type { RangeServer } from "../../extension/companion/test/range-server";
import {
  BUILD_DIRS,
  SITE_PORT,
  VIDEO_ID,
  buildExtension,
  installNativeCompanion,
  MEDIA_DIR,
  DEFAULT_FORMAT,
  makeMedia,
  standInWatchPage,
  type NativeCompanion,
} from "../e2e/extension/parts";
import {
  INDEX_FILE,
  SRC_FPS,
  SRC_H,
  SRC_SECONDS,
  SRC_W,
  expectedReading,
  makeIndexSource,
  readClip,
} from "../e2e/extension/index-source";

/**
 * The Firefox build in real Firefox (Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core): the bridge
 * content script on the site, the sign-in hand-off, the plan update, and the YouTube panel cutting a clip through the
 * real companion, which Firefox starts itself through native messaging (`clipcut-companion install --browser firefox`
 * with HOME a scratch folder: Firefox reads $HOME/.mozilla/native-messaging-hosts), no pairing. The site runs under
 * wrangler dev with its own fresh D1.
 */
const FIREFOX = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";
const SITE = `http://localhost:${SITE_PORT}`;
/** Another server on the same host: Firefox's port-less patterns inject the bridge there too; it must stay silent. */
const OTHER_PORT = Number(process.env.E2E_RESTART_PORT ?? 8793);
/** Fixed internal UUID, so that the test knows the extension's moz-extension:// origin (its welcome tab). */
const UUID = "5c1e7a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d";
const GECKO_ID = "extension@clipcut.app";
const DEMO = { email: "creator@clipcut.local", password: "ClipCut-demo-1" };
/** A second stand-in video: the pixel-indexed source (its crop clips are read column by column). */
const INDEX_VIDEO_ID = "IndexCols64";
const FIRST = 40;
const LAST = 70;

let site: ChildProcess;
let other: Server;
let media: RangeServer;
let companion: NativeCompanion;
/** Firefox's HOME: where it finds the host manifest. */
const HOME = mkdtempSync(join(tmpdir(), "clipcut-firefox-home-"));
let browser: Browser;
let welcome: Page;
let sitePage: Page;
let apiKey = "";

async function waitForSite() {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (site.exitCode !== null) throw new Error(`the site server exited (${site.exitCode})`);
    const ok = await fetch(`${SITE}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the site server did not start");
}

/** Posts a site message through the bridge's window envelope; null when nothing answers within `ms`. */
function bridgeAsk(page: Page, message: unknown, ms = 4000) {
  return page.evaluate(
    (message, ms) =>
      new Promise<unknown>((resolve) => {
        const requestId = crypto.randomUUID();
        const timer = setTimeout(() => resolve(null), ms);
        addEventListener("message", (event) => {
          const data = event.data as { source?: string; requestId?: string; reply?: unknown } | null;
          if (event.source !== window || data?.source !== "clipcut-extension" || data.requestId !== requestId) return;
          clearTimeout(timer);
          resolve(data.reply);
        });
        postMessage({ source: "clipcut-page", requestId, message }, location.origin);
      }),
    message,
    ms,
  );
}

/** Records the site's own bridge traffic (action and reply; never the token) in sessionStorage, across navigations. */
function recordBridge() {
  const pending = new Map<string, string>();
  addEventListener("message", (event) => {
    const data = event.data as {
      source?: string;
      requestId?: string;
      message?: { action: string; plan?: string };
      reply?: unknown;
    } | null;
    if (event.source !== window || !data?.requestId) return;
    if (data.source === "clipcut-page" && data.message) {
      const { action, plan } = data.message;
      pending.set(data.requestId, JSON.stringify({ action, plan }));
    } else if (data.source === "clipcut-extension" && pending.has(data.requestId)) {
      const log = JSON.parse(sessionStorage.getItem("bridge-log") ?? "[]") as unknown[];
      log.push({ ...JSON.parse(pending.get(data.requestId) ?? "{}"), reply: data.reply });
      sessionStorage.setItem("bridge-log", JSON.stringify(log));
    }
  });
}
const bridgeLog = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem("bridge-log") ?? "[]") as Record<string, unknown>[]);

async function poll<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  ms = 15_000,
  every = 200,
): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, every));
    value = await read();
  }
  return value;
}

/** The API token as the background keeps it, read from our own (trusted) page in the extension's origin. */
const storedKey = () =>
  welcome.evaluate(
    () =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open("clipcut", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("secrets");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction("secrets").objectStore("secrets").get("apiKey");
          get.onsuccess = () => resolve(get.result ?? null);
        };
      }),
  );

/** An element in the page or in the panel's (open) shadow root, by CSS selector and optional exact text. */
async function find(page: Page, selector: string, text?: string, ms = 15_000): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (selector, text) => {
      const roots: ParentNode[] = [document];
      const panel = document.querySelector("clipcut-panel")?.shadowRoot;
      if (panel) roots.push(panel);
      for (const root of roots)
        for (const el of root.querySelectorAll(selector))
          // Only what a user could click: the small-screen menu repeats some controls, hidden at this size.
          if ((text === undefined || el.textContent?.trim() === text) && el.checkVisibility()) return el;
      return null;
    },
    { timeout: ms, polling: 100 },
    selector,
    text,
  );
  return handle as ElementHandle<Element>;
}

async function typeTime(page: Page, id: string, value: string) {
  const field = await find(page, `#${id}`);
  await field.click();
  await page.keyboard.down("Control");
  await page.keyboard.press("a");
  await page.keyboard.up("Control");
  await field.type(value);
  await page.keyboard.press("Enter");
}

beforeAll(async () => {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: apt-get install -y firefox-esr`);
  site = spawn("node", ["scripts/e2e-server.mjs"], {
    env: {
      ...process.env,
      E2E_PORT: String(SITE_PORT),
      E2E_STATE: ".wrangler/firefox-state",
      E2E_SKIP_BUILD: existsSync("build/server/index.js") ? "1" : "0",
      E2E_VARS: JSON.stringify({ COOKIE_SECRET: "firefox-cookie-secret" }),
    },
    stdio: ["ignore", "ignore", "inherit"],
    // Its own process group: wrangler and workerd below it end with it.
    detached: true,
  });
  buildExtension("firefox");
  media = await makeMedia();
  await makeIndexSource(join(MEDIA_DIR, INDEX_FILE));
  companion = installNativeCompanion(
    media,
    { home: HOME, browser: "firefox" },
    {
      videos: {
        [VIDEO_ID]: DEFAULT_FORMAT,
        [INDEX_VIDEO_ID]: { file: INDEX_FILE, width: SRC_W, height: SRC_H, fps: SRC_FPS, seconds: SRC_SECONDS },
      },
    },
  );
  other = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><p>x"));
  await new Promise<void>((done) => other.listen(OTHER_PORT, "127.0.0.1", done));
  await waitForSite();
  browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    env: { ...process.env, HOME },
    extraPrefsFirefox: { "extensions.webextensions.uuids": JSON.stringify({ [GECKO_ID]: UUID }) },
  });
  expect(await browser.installExtension(BUILD_DIRS.firefox)).toBe(GECKO_ID);
  // The extension opens its popup page in a tab on install; automation may not navigate to moz-extension: URLs,
  // so this tab is where the test pairs, as a user would.
  welcome = await poll(
    async () => {
      for (const page of await browser.pages()) {
        const href = await page.evaluate(() => location.href).catch(() => "");
        if (href.startsWith(`moz-extension://${UUID}/popup.html`)) return page;
      }
      return null;
    },
    (page) => page !== null,
    "the welcome tab",
    // The extension's first start: with the FFmpeg suite beside it on 2 cores it took over 15 s once (CI).
    60_000,
  ).then((page) => page as Page);
});

afterAll(async () => {
  await browser?.close();
  await media?.close();
  await new Promise((done) => other?.close(done));
  if (site?.pid && site.exitCode === null) {
    const exited = new Promise((done) => site.once("exit", done));
    process.kill(-site.pid, "SIGTERM");
    await exited;
  }
});

describe("the Firefox build in Firefox", () => {
  it("the bridge answers ping on the site's origin, and stays silent on another port of the same host", async () => {
    const page = await browser.newPage();
    await page.goto(`${SITE}/`);
    expect(await bridgeAsk(page, { action: "ping" })).toEqual({ success: true, message: "ClipCut extension 0.1.0" });
    // Same host, other port: the content script is injected (patterns have no port) but checks the origin and
    // relays nothing. The site's own wait for an answer is 1.5 s; this waits longer.
    await page.goto(`http://localhost:${OTHER_PORT}/`);
    expect(await bridgeAsk(page, { action: "ping" }, 3000)).toBeNull();
    await page.close();
  });

  it("site access is granted, so the popup asks for nothing", async () => {
    await welcome.evaluate(() => location.reload());
    await find(welcome, "h1", "ClipCut");
    expect(await welcome.evaluate(() => document.body.innerText)).not.toContain("Allow access to");
  });

  it("signing in hands the extension a token (setApiKey)", async () => {
    sitePage = await browser.newPage();
    await sitePage.evaluateOnNewDocument(recordBridge);
    await sitePage.goto(`${SITE}/signin`);
    await (await find(sitePage, "input[name=email]")).type(DEMO.email);
    await (await find(sitePage, "input[name=password]")).type(DEMO.password);
    await Promise.all([sitePage.waitForNavigation(), (await find(sitePage, "button[type=submit]", "Sign in")).click()]);
    await dismissNotice(sitePage);
    apiKey = String(await poll(storedKey, (key) => typeof key === "string", "the stored token", 45_000));
    const log = await poll(
      () => bridgeLog(sitePage),
      (log) => log.some((m) => m.action === "setApiKey"),
      "setApiKey",
    );
    expect(log.find((m) => m.action === "setApiKey")?.reply).toEqual({ success: true, message: "Signed in." });
    expect(apiKey).toMatch(/^cc_/);
    const me = await fetch(`${SITE}/api/v1/me`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(me.status).toBe(200);
  });

  it("a plan change reaches the extension (userPlanUpdated)", async () => {
    await sitePage.goto(`${SITE}/billing/plan`);
    await dismissNotice(sitePage);
    // The upgrade is paid through the local checkout in a second tab (a checkout leaves the page it starts on);
    // this open page hears the plan message live and tells the extension.
    const pay = await browser.newPage();
    await pay.goto(`${SITE}/billing/plan`);
    await (await find(pay, "button", "Upgrade to Basic")).click();
    await pay.waitForSelector("#cardNumber", { timeout: 20_000 });
    await pay.type("#cardNumber", "4242 4242 4242 4242");
    await (await find(pay, "button", "Pay and subscribe")).click();
    const log = await poll(
      () => bridgeLog(sitePage),
      (log) => log.some((m) => m.action === "userPlanUpdated"),
      "userPlanUpdated",
    );
    expect(log.find((m) => m.action === "userPlanUpdated")).toEqual({
      action: "userPlanUpdated",
      plan: "Basic",
      reply: { success: true, message: "Plan is now Basic." },
    });
  });

  it("the popup shows the companion Firefox started, with nothing to pair", async () => {
    const ready = await find(welcome, "[data-testid=companion-paired]", undefined, 60_000);
    const text = await ready.evaluate((el) => el.textContent ?? "");
    expect(text).toContain(companion.outputDir);
    expect(text).toContain("your browser starts it");
    expect(await welcome.evaluate(() => document.querySelector("#pairing-token"))).toBeNull();
    // Firefox started it with the manifest's path and the add-on id.
    expect(readFileSync(companion.log, "utf8")).toContain(
      `native-messaging-hosts/app.clipcut.companion.json","${GECKO_ID}"`,
    );
  });

  // The stand-in watch page comes through puppeteer's request interception over BiDi; the YouTube content script
  // is injected there like on the real site (its patterns are https://www.youtube.com/*).
  it("the panel on a watch page cuts 00:10–00:25 through the companion", async () => {
    const watch = await browser.newPage();
    await watch.setRequestInterception(true);
    watch.on("request", (request) => {
      const url = new URL(request.url());
      if (url.hostname !== "www.youtube.com") return void request.continue();
      // (Over BiDi the resource type is not reliable: tell the watch page by its path.)
      if (url.pathname !== "/watch") return void request.respond({ status: 204, body: "" });
      // Firefox lets a page play loopback media; the companion fetches the same file through the stand-in yt-dlp.
      void request.respond({
        status: 200,
        contentType: "text/html; charset=utf-8",
        body: standInWatchPage(VIDEO_ID, media.url("source-720p.mp4")),
      });
    });
    // Uncaught errors in the page, the content script's included (a panel that throws shows no "Clip" at all).
    const errors: string[] = [];
    watch.on("pageerror", (error) => {
      console.warn("[watch page error]", error);
      errors.push(String(error));
    });
    await watch.goto(`https://www.youtube.com/watch?v=${VIDEO_ID}`, { waitUntil: "domcontentloaded" });
    await (await find(watch, "button", "Clip")).click();
    const create = await find(watch, "button:not([disabled])", "Create clip", 30_000);
    // Signed in through the hand-off: the panel shows the account's credits, not the signed-out alert.
    const panelText = () =>
      watch.evaluate(() => document.querySelector("clipcut-panel")?.shadowRoot?.textContent ?? "");
    await poll(panelText, (text) => text.includes("credits available"), "the account in the panel");
    expect(await panelText()).not.toContain("You are signed out");

    await typeTime(watch, "clipcut-end", "00:25");
    await typeTime(watch, "clipcut-start", "00:10");
    // A script on the page clicking Create spends nothing: the panel takes trusted clicks only. React has flushed
    // the click's updates before the next task, so a started job would have disabled the button by then.
    const scripted = await watch.evaluate(async () => {
      const button = [...(document.querySelector("clipcut-panel")?.shadowRoot?.querySelectorAll("button") ?? [])].find(
        (b) => b.textContent?.trim() === "Create clip",
      );
      button?.click();
      await new Promise((r) => setTimeout(r, 0));
      return { found: !!button, disabled: button?.disabled };
    });
    expect(scripted).toEqual({ found: true, disabled: false });

    await create.click();
    await find(watch, "[role=progressbar][aria-valuenow='100']", undefined, 90_000);
    await poll(panelText, (text) => /Saved as .*\.mp4/.test(text), "the saved file");
    const files = readdirSync(companion.outputDir).filter((f) => f.endsWith(".mp4"));
    expect(files).toHaveLength(1);
    const probe = await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=duration",
      "-of",
      "csv=p=0",
      join(companion.outputDir, files[0]!),
    ]);
    expect(Math.abs(Number(probe.stdout.toString().trim()) - 15)).toBeLessThanOrEqual(1 / 25 + 0.025);
    // One job, submitted over the native port and finished there.
    const log = readFileSync(companion.log, "utf8");
    expect(log.match(/submitted /g)).toHaveLength(1);
    expect(log).toMatch(/job \w+ done \(credits captured\)/);
    expect(errors).toEqual([]);
    await watch.close();
  });

  // The crop you see is the crop you get, as in Chromium (tests/e2e/extension-shorts.spec.ts): every aspect at the
  // left edge, the centre and the right edge, on the source whose pixels carry their frame and column, the handles
  // set with the frame keys. One session, nine clips.
  it("9:16, 1:1 and 4:5 at the left edge, the centre and the right edge: the clip holds exactly the box's columns from the start handle's frame", async () => {
    const watch = await browser.newPage();
    await watch.setRequestInterception(true);
    watch.on("request", (request) => {
      const url = new URL(request.url());
      if (url.hostname !== "www.youtube.com") return void request.continue();
      if (url.pathname !== "/watch") return void request.respond({ status: 204, body: "" });
      void request.respond({
        status: 200,
        contentType: "text/html; charset=utf-8",
        body: standInWatchPage(INDEX_VIDEO_ID, media.url(INDEX_FILE)),
      });
    });
    await watch.goto(`https://www.youtube.com/watch?v=${INDEX_VIDEO_ID}`, { waitUntil: "domcontentloaded" });
    await (await find(watch, "button", "Clip")).click();
    const frameLabel = (which: "current" | "first" | "last") =>
      watch.evaluate(
        (id) =>
          document.querySelector("clipcut-panel")?.shadowRoot?.querySelector(`[data-testid="${id}"]`)?.textContent ??
          "",
        `clipcut-${which}-frame`,
      );
    const atFrame = (which: "current" | "first" | "last", n: number) =>
      poll(
        () => frameLabel(which),
        (t) => t.endsWith(`· frame ${n}`),
        `the ${which} frame ${n}`,
        30_000,
        // Forty presses each wait for their frame: a short interval keeps that quick.
        25,
      );
    await atFrame("first", 0);
    await (await find(watch, "#clipcut-quality")).select("144p");
    // Handles on frames 40 (mid-GOP: keyframes every 30) and 70, each press waiting for its frame.
    await (await find(watch, "h2", "Create a clip")).click();
    const press = async (key: "Period" | "BracketLeft" | "BracketRight", shift = false) => {
      if (shift) await watch.keyboard.down("Shift");
      await watch.keyboard.press(key);
      if (shift) await watch.keyboard.up("Shift");
    };
    await press("Period", true);
    await atFrame("current", SRC_FPS);
    for (let i = SRC_FPS + 1; i <= FIRST; i++) {
      await press("Period");
      await atFrame("current", i);
    }
    await press("BracketLeft");
    await press("Period", true);
    await atFrame("current", LAST);
    await press("BracketRight");
    await atFrame("first", FIRST);
    await atFrame("last", LAST);

    for (const aspect of CROP_ASPECTS) {
      await (await find(watch, "#clipcut-aspect")).select(aspect);
      const box = await find(watch, `[role=slider][aria-label='Crop box (${aspect})']`);
      const positions: [string, () => Promise<void>, number][] = [
        ["left edge", () => watch.keyboard.press("Home"), 0],
        [
          "centre",
          async () => {
            for (let i = 0; i < 10; i++) await watch.keyboard.press("ArrowRight");
          },
          0.5,
        ],
        ["right edge", () => watch.keyboard.press("End"), 1],
      ];
      for (const [words, move, position] of positions) {
        await box.focus();
        await move();
        const where = `${aspect} at the ${words}`;
        const crop = cropFor({ width: SRC_W, height: SRC_H }, aspect, position)!;
        // The box the page draws is the rule's box for that position.
        await poll(
          () =>
            box.evaluate((el) => [
              el.getAttribute("aria-valuetext"),
              el.getAttribute("data-crop-x"),
              el.getAttribute("data-crop-width"),
            ]),
          (got) => JSON.stringify(got) === JSON.stringify([words, String(crop.x), String(crop.width)]),
          `the box at the ${words}`,
        );
        const before = new Set(readdirSync(companion.outputDir));
        await (await find(watch, "button:not([disabled])", "Create clip", 30_000)).click();
        const fresh = await poll(
          async () => readdirSync(companion.outputDir).filter((f) => !before.has(f) && f.endsWith(".mp4")),
          (files) => files.length === 1,
          `the clip of ${where}`,
          90_000,
        );
        // The job has ended when Create clip takes a click again.
        await find(watch, "button:not([disabled])", "Create clip", 90_000);
        expect(await readClip(join(companion.outputDir, fresh[0]!), crop), where).toEqual(
          expectedReading(crop, FIRST, LAST),
        );
      }
    }
    await watch.close();
  });

  it("signing out clears the token (clearApiKey); the API refuses the token", async () => {
    // A desktop window: the sidebar (with Sign Out) shows without opening the small-screen menu.
    await sitePage.setViewport({ width: 1280, height: 900 });
    await (await find(sitePage, "button", "Sign Out")).click();
    await poll(
      async () => sitePage.url(),
      (url) => url.endsWith("/signin"),
      "the sign-in page",
    );
    expect(await poll(storedKey, (key) => key === null, "the token to be cleared")).toBeNull();
    const log = await poll(
      () => bridgeLog(sitePage),
      (log) => log.some((m) => m.action === "clearApiKey"),
      "clearApiKey",
    );
    expect(log.find((m) => m.action === "clearApiKey")?.reply).toEqual({ success: true, message: "Signed out." });
    const after = await fetch(`${SITE}/api/v1/me`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(after.status).toBe(401);
  });
});

/** The maintenance notice, if it shows for this account, is closed like a user would. */
async function dismissNotice(page: Page) {
  const button = await find(page, "button", "Got it", 3000).catch(() => null);
  if (!button) return;
  await button.click();
  await page.waitForFunction(
    () => ![...document.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Got it"),
  );
}
