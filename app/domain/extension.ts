import { z } from "zod";
import { clipFields, withClipRange } from "./clip-request";
import { STORED_PLANS } from "./plans";

/** How the website, the extension and the companion find each other. */

/**
 * Chrome/Edge extension id used when the admin has stored none in settings (key extension_id). It is the id that
 * the public `key` in the local build's manifest gives the unpacked extension (extension/wxt.config.ts).
 */
export const DEFAULT_EXTENSION_ID = "nlilpjbbdonloffboidegefelpmmcofe";
export const EXTENSION_ID_SETTING = "extension_id";

/** Chrome ids are 32 letters a–p. */
export const CHROME_EXTENSION_ID = /^[a-p]{32}$/;

/** Default port of the local companion server (127.0.0.1 only). */
export const COMPANION_DEFAULT_PORT = 17327;

export const STORE_BROWSERS = ["chrome", "firefox", "edge"] as const;
export type StoreBrowser = (typeof STORE_BROWSERS)[number];

/** Built-in store listings; each can be replaced per deployment (EXTENSION_STORE_CHROME/FIREFOX/EDGE). */
export const DEFAULT_STORE_LISTINGS: Record<StoreBrowser, string> = {
  chrome: `https://chromewebstore.google.com/detail/${DEFAULT_EXTENSION_ID}`,
  firefox: "https://addons.mozilla.org/firefox/addon/clipcut/",
  edge: "https://microsoftedge.microsoft.com/addons/search/clipcut",
};

/** The listing per browser: a configured https URL wins, anything else falls back to the built-in one. */
export function storeListings(configured: Partial<Record<StoreBrowser, string | undefined>>) {
  const pick = (browser: StoreBrowser) => {
    const value = configured[browser]?.trim() ?? "";
    return /^https:\/\/[^\s]+$/.test(value) ? value : DEFAULT_STORE_LISTINGS[browser];
  };
  return { chrome: pick("chrome"), firefox: pick("firefox"), edge: pick("edge") };
}

/** A clip handed from the website's /clip page to the extension, which runs it through the companion. */
export const createClipMessageSchema = withClipRange(
  z.object({ action: z.literal("createClip"), ...clipFields }).strict(),
);

/** Every message the website may send to the extension; anything else is refused. */
export const siteMessageSchema = z.union([
  z.object({ action: z.literal("ping") }).strict(),
  z.object({ action: z.literal("setApiKey"), apiKey: z.string().min(8).max(4096) }).strict(),
  z.object({ action: z.literal("clearApiKey") }).strict(),
  z.object({ action: z.literal("userPlanUpdated"), plan: z.enum(STORED_PLANS) }).strict(),
  createClipMessageSchema,
]);
export type SiteMessage = z.infer<typeof siteMessageSchema>;

/** The extension's answer to every site message. */
export const extensionReplySchema = z.object({ success: z.boolean(), message: z.string().optional() });
export type ExtensionReply = z.infer<typeof extensionReplySchema>;

export { EXTENSION_SOURCE, PAGE_SOURCE } from "./extension-envelope";
