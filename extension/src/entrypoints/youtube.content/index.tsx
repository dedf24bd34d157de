import { createRoot, type Root } from "react-dom/client";
import { createShadowRootUi } from "wxt/utils/content-script-ui/shadow-root";
import { defineContentScript } from "wxt/utils/define-content-script";
import "../../styles/panel.css";
import { ANCHORS, videoKey, waitForElement } from "../../lib/youtube-page";
import { ClipPanel } from "./clip-panel";

/**
 * The clip panel on YouTube watch and shorts pages. YouTube navigates in-page, so the panel is rebuilt for every
 * video, and each page gets one AbortController: aborting it removes listeners, timers and the UI of the old page.
 */
export default defineContentScript({
  matches: ["https://www.youtube.com/*", "https://m.youtube.com/*"],
  cssInjectionMode: "ui",
  runAt: "document_idle",
  async main(ctx) {
    let current: { key: string; controller: AbortController } | null = null;

    async function onPage() {
      const key = videoKey(new URL(location.href));
      if (current && current.key === key) return;
      current?.controller.abort();
      current = null;
      if (!key) return;
      const controller = new AbortController();
      current = { key, controller };
      const { signal } = controller;
      const anchor = await waitForElement(ANCHORS, signal);
      if (!anchor || signal.aborted) return;
      let root: Root | null = null;
      const ui = await createShadowRootUi(ctx, {
        name: "clipcut-panel",
        position: "inline",
        anchor,
        append: "first",
        mode: "open",
        onMount(container) {
          root = createRoot(container);
          root.render(<ClipPanel key={key} signal={signal} pageUrl={location.href} />);
          return root;
        },
        onRemove() {
          root?.unmount();
        },
      });
      if (signal.aborted) return;
      ui.mount();
      signal.addEventListener("abort", () => ui.remove(), { once: true });
    }

    ctx.addEventListener(window, "wxt:locationchange", () => void onPage());
    // YouTube's own event after an in-page navigation, sooner than the location poll.
    ctx.addEventListener(document, "yt-navigate-finish" as keyof DocumentEventMap, () => void onPage());
    ctx.onInvalidated(() => current?.controller.abort());
    await onPage();
  },
});
