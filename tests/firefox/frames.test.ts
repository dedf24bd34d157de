import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFrameBandSource } from "../../extension/companion/test/frame-band";
import { startRangeServer, type RangeServer } from "../../extension/companion/test/range-server";
import { VIDEO_FRAME, pressOnEachFrame } from "../e2e/extension/frame-band-page";
import {
  BUILD_DIRS,
  VIDEO_ID,
  buildExtension,
  standInWatchPage,
  startCompanion,
  type Companion,
} from "../e2e/extension/parts";

/**
 * The frame you see is the frame you get, in Firefox ESR (its requestVideoFrameCallback reports the seek target,
 * not the frame's time, after a seek): the Firefox build and the real companion on a 30 fps H.264 file whose frame
 * number is written in a pixel band. No site: pairing and the companion's dry run are all the panel needs here.
 */
const FIREFOX = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";
const UUID = "5c1e7a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d";
const GECKO_ID = "extension@clipcut.app";
const DIR = join(tmpdir(), "clipcut-frame-band-e2e-v1");
const FILE = "band30-g60.mp4";
const FPS = 30;

let media: RangeServer;
let companion: Companion;
let browser: Browser;
let watch: Page;

async function poll<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/** Text of an element inside the panel's shadow root. */
const panelText = (testId: string) =>
  watch.evaluate(
    (id) =>
      document.querySelector("clipcut-panel")?.shadowRoot?.querySelector(`[data-testid="${id}"]`)?.textContent ?? "",
    testId,
  );

/** Clicks a panel element found by CSS selector and exact text. */
async function panelClick(selector: string, text: string) {
  const handle = await watch.waitForFunction(
    (selector, text) =>
      [...(document.querySelector("clipcut-panel")?.shadowRoot?.querySelectorAll(selector) ?? [])].find(
        (el) => el.textContent?.trim() === text && !(el as HTMLButtonElement).disabled,
      ) ?? null,
    { timeout: 30_000, polling: 100 },
    selector,
    text,
  );
  await (handle as unknown as { click: () => Promise<void> }).click();
}

async function press(key: "Period" | "Comma" | "BracketLeft" | "BracketRight", shift = false) {
  if (shift) await watch.keyboard.down("Shift");
  await watch.keyboard.press(key);
  if (shift) await watch.keyboard.up("Shift");
}

/** The label and the picture both show `expected`. */
async function expectFrame(expected: number) {
  await poll(
    () => panelText("clipcut-current-frame"),
    (t) => t.endsWith(`· frame ${expected}`),
    `frame ${expected}`,
  );
  expect(await watch.evaluate(VIDEO_FRAME)).toBe(expected);
}

beforeAll(async () => {
  buildExtension("firefox");
  await makeFrameBandSource(join(DIR, FILE), { fps: String(FPS), seconds: 20, gop: 60 });
  media = await startRangeServer(DIR);
  companion = await startCompanion(media, { file: FILE, width: 640, height: 360, fps: FPS, seconds: 20 });
  browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: { "extensions.webextensions.uuids": JSON.stringify({ [GECKO_ID]: UUID }) },
  });
  expect(await browser.installExtension(BUILD_DIRS.firefox)).toBe(GECKO_ID);
  // The popup opens in a tab on install: pair there, as a user would.
  const welcome = await poll(
    async () => {
      for (const page of await browser.pages()) {
        const href = await page.evaluate(() => location.href).catch(() => "");
        if (href.startsWith(`moz-extension://${UUID}/popup.html`)) return page;
      }
      return null;
    },
    (page) => page !== null,
    "the welcome tab",
  );
  await (await welcome!.waitForSelector("#pairing-token"))!.type(companion.token);
  await welcome!.evaluate(() =>
    [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Pair")?.click(),
  );
  await welcome!.waitForSelector("[data-testid=companion-paired]", { timeout: 15_000 });

  // The stand-in watch page and its media on the page's own origin (a canvas may read same-origin pictures only).
  const bytes = readFileSync(join(DIR, FILE));
  watch = await browser.newPage();
  await watch.setRequestInterception(true);
  watch.on("request", (request) => {
    const url = new URL(request.url());
    if (url.hostname !== "www.youtube.com") return void request.continue();
    if (url.pathname === "/stand-in/band.mp4")
      return void request.respond({ status: 200, contentType: "video/mp4", body: bytes });
    if (url.pathname !== "/watch") return void request.respond({ status: 204, body: "" });
    void request.respond({
      status: 200,
      contentType: "text/html; charset=utf-8",
      body: standInWatchPage(VIDEO_ID, "/stand-in/band.mp4"),
    });
  });
  await watch.goto(`https://www.youtube.com/watch?v=${VIDEO_ID}`, { waitUntil: "domcontentloaded" });
  await watch.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 2, { timeout: 30_000 });
  await panelClick("button", "Clip");
  await poll(
    () => panelText("clipcut-first-frame"),
    (t) => t.endsWith("· frame 0"),
    "the frame grid",
    // The first dry run resolves, probes and reads the source: slow on a loaded machine.
    120_000,
  );
  await panelClick("h2", "Create a clip");
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await companion?.stop();
  await media?.close();
});

describe("frame stepping in Firefox", () => {
  it("60 presses of . and of , each land on the next frame, and the label names the frame shown", async () => {
    for (let s = 1; s <= 3; s++) {
      await press("Period", true);
      await expectFrame(s * FPS);
    }
    for (let i = 1; i <= 60; i++) {
      await press("Period");
      await expectFrame(90 + i);
    }
    for (let i = 1; i <= 60; i++) {
      await press("Comma");
      await expectFrame(150 - i);
    }
  });

  it("[ and ] set the handles, and with loop off the preview stops on the last frame and holds it", async () => {
    // At frame 90: the first frame here, 40 frames on the last.
    await press("BracketLeft");
    await poll(
      () => panelText("clipcut-first-frame"),
      (t) => t === "00:00:03.000 · frame 90",
      "the first frame",
    );
    // Each step waits for its frame (as the stepping test does): a press during a loaded machine's pending seek
    // steps from the frame still shown.
    for (let i = 1; i <= 40; i++) {
      await press("Period");
      await expectFrame(90 + i);
    }
    await press("BracketRight");
    await poll(
      () => panelText("clipcut-last-frame"),
      (t) => t === "00:00:04.333 · frame 130",
      "the last frame",
    );
    await watch.evaluate(() => {
      const box = [
        ...(document.querySelector("clipcut-panel")?.shadowRoot?.querySelectorAll("input[type=checkbox]") ?? []),
      ].find((el) => el.parentElement?.textContent?.includes("Loop the preview")) as HTMLInputElement | undefined;
      box?.click();
    });
    await watch.evaluate(() =>
      (
        document
          .querySelector("clipcut-panel")
          ?.shadowRoot?.querySelector("button[aria-label='Play preview']") as HTMLButtonElement | null
      )?.click(),
    );
    await poll(
      () => watch.evaluate(() => document.querySelector("video")!.paused),
      (p) => !p,
      "playback",
    );
    // The stop pauses and seeks onto the last frame: until that seek completes, Firefox's canvas copy of the video
    // reads a blank picture, which is not what the screen shows.
    await poll(
      () => watch.evaluate(() => document.querySelector("video")!.paused && !document.querySelector("video")!.seeking),
      (p) => p,
      "the stop",
      15_000,
    );
    await expectFrame(130);
    // Held: still the last frame a moment later.
    await new Promise((r) => setTimeout(r, 500));
    expect(await watch.evaluate(VIDEO_FRAME)).toBe(130);
  });

  it("20 presses of . in a row land 20 frames on, also when each lands as the frame before is presented", async () => {
    // Each press counts from the frame the step before asked for, not from the one still on screen while that seek
    // is pending, nor from the one the panel has seen but not rendered yet.
    const start = Number(/· frame (\d+)$/.exec(await panelText("clipcut-current-frame"))?.[1]);
    expect(start).toBeGreaterThanOrEqual(0);
    await expectFrame(start);
    for (let i = 0; i < 20; i++) await press("Period");
    await expectFrame(start + 20);
    await watch.evaluate(pressOnEachFrame(20));
    await expectFrame(start + 40);
  });
});
