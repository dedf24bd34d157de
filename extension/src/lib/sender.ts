import type { Sender } from "./messages";

/** The part of the browser's MessageSender we look at. */
export interface SenderInfo {
  id?: string;
  url?: string;
  tab?: unknown;
}

export interface Self {
  id: string;
  /** browser.runtime.getURL("/"): chrome-extension://<id>/ or moz-extension://<uuid>/. */
  base: string;
  siteOrigins: readonly string[];
}

const YOUTUBE_HOSTS = new Set(["www.youtube.com", "m.youtube.com"]);

/**
 * Which part of ClipCut sent a message, from where it runs: our popup page, the panel on a YouTube page, or the
 * Firefox bridge on one of our site origins (full origin, port included). Anyone else gets no answer.
 */
export function senderOf(sender: SenderInfo, self: Self): Sender | null {
  if (sender.id !== self.id || !sender.url) return null;
  // Extension URLs: compared as text, since URL.origin is "null" for moz-extension: outside Firefox.
  if (sender.url.startsWith(self.base)) {
    const path = sender.url.slice(self.base.length).split(/[?#]/)[0];
    return path === "popup.html" ? "popup" : null;
  }
  if (!sender.tab) return null;
  let url: URL;
  try {
    url = new URL(sender.url);
  } catch {
    return null;
  }
  if (self.siteOrigins.includes(url.origin)) return "bridge";
  if (url.protocol === "https:" && YOUTUBE_HOSTS.has(url.hostname)) return "panel";
  return null;
}
