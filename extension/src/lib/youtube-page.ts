/** YouTube pages the panel works on, and the landmarks it uses. */
export const PLAYER_VIDEO = "#movie_player video.html5-main-video";
export const TITLE = "#above-the-fold h1";
export const ANCHORS = ["#above-the-fold", "ytd-reel-video-renderer[is-active] #overlay", "#shorts-container"];

/** The video a page shows: watch?v=<id> or /shorts/<id>; null elsewhere. */
export function videoKey(url: URL): string | null {
  if (url.hostname !== "www.youtube.com" && url.hostname !== "m.youtube.com") return null;
  if (url.pathname === "/watch") return url.searchParams.get("v");
  const shorts = /^\/shorts\/([\w-]{6,})/.exec(url.pathname);
  return shorts?.[1] ?? null;
}

/** Waits for an element, giving up when the page changes (signal) or after `timeoutMs`. */
export function waitForElement(selectors: readonly string[], signal: AbortSignal, timeoutMs = 15_000) {
  return new Promise<Element | null>((resolve) => {
    const find = () => selectors.map((s) => document.querySelector(s)).find(Boolean) ?? null;
    const found = find();
    if (found) return resolve(found);
    const observer = new MutationObserver(() => {
      const el = find();
      if (el) done(el);
    });
    const timer = setTimeout(() => done(null), timeoutMs);
    const done = (el: Element | null) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(el);
    };
    signal.addEventListener("abort", () => done(null), { once: true });
    observer.observe(document.documentElement, { childList: true, subtree: true });
  });
}
