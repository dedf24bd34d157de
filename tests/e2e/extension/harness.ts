import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, expect, type BrowserContext, type Page, type Worker } from "@playwright/test";
import { CHROMIUM_WITH_EXTENSIONS } from "../../chromium";
import { BUILD_DIRS, SITE_PORT, SOURCE_SECONDS, standInWatchPage } from "./parts";

/** The Playwright side of the Chromium extension journey; the browser-neutral parts are in parts.ts. */
export {
  COMPANION_PORT,
  SITE_PORT,
  SOURCE_FILE,
  SOURCE_SECONDS,
  VIDEO_ID,
  VIDEO_TITLE,
  buildExtension,
  installNativeCompanion,
  makeMedia,
  startCompanion,
  type Companion,
  type NativeCompanion,
} from "./parts";

export async function launchWithExtension(
  /** Runs on the fresh profile folder before the browser starts (e.g. install the companion's host manifest). */
  prepare?: (profile: string) => void,
): Promise<{ context: BrowserContext; worker: Worker; extensionId: string }> {
  const profile = mkdtempSync(join(tmpdir(), "clipcut-ext-profile-"));
  prepare?.(profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_WITH_EXTENSIONS.executablePath,
    headless: false,
    baseURL: `http://localhost:${SITE_PORT}`,
    viewport: { width: 1280, height: 900 },
    args: [
      ...CHROMIUM_WITH_EXTENSIONS.args,
      "--headless=new",
      `--disable-extensions-except=${BUILD_DIRS.chrome}`,
      `--load-extension=${BUILD_DIRS.chrome}`,
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  const extensionId = new URL(worker.url()).host;
  // The extension opens its welcome tab on install, whenever its worker gets to it: wait for it here, so that it never
  // opens later in front of a test's page (a background page's video presented its frames ~1 s apart: 123 frame
  // steps took 2.3 min instead of 22 s once, on a loaded machine).
  await expect
    .poll(() => context.pages().some((page) => page.url().includes("/popup.html?welcome")), { timeout: 30_000 })
    .toBe(true);
  await routeYouTube(context);
  await routeEmbed(context);
  return { context, worker, extensionId };
}

/** YouTube is unreachable here: a stand-in watch page with YouTube's landmarks plays the loopback media. */
export async function routeYouTube(context: BrowserContext) {
  await context.route("https://www.youtube.com/**", async (route) => {
    const url = new URL(route.request().url());
    // Chromium blocks a public page from reading loopback (Local Network Access): the page asks its own origin,
    // and the route hands the byte ranges over from the loopback media server.
    if (url.pathname === "/stand-in/source.mp4")
      return route.fulfill({ response: await route.fetch({ url: mediaUrl, headers: route.request().headers() }) });
    if (route.request().resourceType() !== "document") return route.fulfill({ status: 204 });
    const id = url.searchParams.get("v") ?? url.pathname.split("/").pop() ?? "";
    await route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: standInWatchPage(id, "/stand-in/source.mp4"),
    });
  });
}
/**
 * The /clip page drives a YouTube embed over postMessage. The stand-in embed answers the page's "listening"
 * handshake as the real one does: onReady, then infoDelivery with the video's duration.
 */
export async function routeEmbed(context: BrowserContext) {
  await context.route("https://www.youtube-nocookie.com/**", (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html><body><script>
addEventListener("message", (event) => {
  let m; try { m = JSON.parse(event.data); } catch { return; }
  if (m.event !== "listening") return;
  const say = (o) => parent.postMessage(JSON.stringify({ ...o, id: 1, channel: "widget" }), "*");
  say({ event: "onReady" });
  say({ event: "infoDelivery", info: { duration: ${SOURCE_SECONDS}, currentTime: 0, playerState: 5, volume: 50, muted: false } });
});
</script></body></html>`,
    }),
  );
}
let mediaUrl = "";
export function setMediaUrl(url: string) {
  mediaUrl = url;
}

/** The API token as the background keeps it (IndexedDB of the extension's origin, out of content scripts' reach). */
export function storedKey(worker: Worker) {
  return worker.evaluate(
    () =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open("clipcut", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("secrets");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction("secrets").objectStore("secrets").get("apiKey");
          get.onsuccess = () => resolve(get.result ?? null);
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

export async function openPanel(page: Page) {
  await page.getByRole("button", { name: "Clip", exact: true }).click();
  await expect(page.getByRole("button", { name: "Create clip" })).toBeEnabled({ timeout: 15_000 });
}
