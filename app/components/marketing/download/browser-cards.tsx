import { DEFAULT_EXTENSION_ID } from "~/domain/extension";
import { BrowserIcon, type BrowserName } from "../icons";
import { NotifyForm } from "./notify-form";

interface StoreBrowser {
  name: Exclude<BrowserName, "Safari">;
  store: string;
  href: string;
  recommended?: boolean;
  note: string;
}

/** Store listings for the extension. */
const STORE_BROWSERS: readonly StoreBrowser[] = [
  {
    name: "Chrome",
    store: "Chrome Web Store",
    href: `https://chromewebstore.google.com/detail/${DEFAULT_EXTENSION_ID}`,
    recommended: true,
    note: "Best performance and the newest features first.",
  },
  {
    name: "Firefox",
    store: "Firefox Add-ons",
    href: "https://addons.mozilla.org/firefox/addon/clipcut/",
    note: "Every ClipCut feature, in Firefox.",
  },
  {
    name: "Edge",
    store: "Edge Add-ons",
    href: "https://microsoftedge.microsoft.com/addons/search/clipcut",
    note: "Built on the same engine as Chrome, with the same features.",
  },
];

function StoreCard({ browser }: { browser: StoreBrowser }) {
  const id = browser.name.toLowerCase();
  return (
    <li
      id={id}
      className={`card relative flex scroll-mt-24 flex-col ${browser.recommended ? "border-brand-500 ring-2 ring-brand-500" : ""}`}
    >
      {browser.recommended && (
        <p className="absolute -top-3 left-6 rounded-full bg-brand-600 px-3 py-0.5 text-xs font-semibold text-white">
          Recommended
        </p>
      )}
      <BrowserIcon browser={browser.name} className="h-12 w-12" />
      <h3 className="mt-4 text-lg font-semibold text-slate-900">ClipCut for {browser.name}</h3>
      <p className="mt-1 flex-1 text-sm leading-6 text-slate-600">{browser.note}</p>
      <a
        href={browser.href}
        target="_blank"
        rel="noopener noreferrer"
        className={`${browser.recommended ? "btn-primary" : "btn-secondary"} mt-6 w-full`}
      >
        Add to {browser.name}
        <span className="sr-only"> from the {browser.store} (opens in a new tab)</span>
      </a>
    </li>
  );
}

function SafariCard() {
  return (
    <li id="safari" className="card flex scroll-mt-24 flex-col bg-slate-50">
      <div className="flex items-start justify-between gap-3">
        <BrowserIcon browser="Safari" className="h-12 w-12" />
        <p className="rounded-full bg-amber-100 px-3 py-0.5 text-xs font-semibold text-amber-900">Coming soon</p>
      </div>
      <h3 className="mt-4 text-lg font-semibold text-slate-900">ClipCut for Safari</h3>
      <p className="mt-1 text-sm leading-6 text-slate-600">
        We&apos;re building it now. Leave your email and we&apos;ll tell you the day it launches.
      </p>
      <NotifyForm />
    </li>
  );
}

export function BrowserCards() {
  return (
    <ul className="mt-10 grid gap-6 md:grid-cols-2 xl:grid-cols-4" aria-labelledby="browsers-heading">
      {STORE_BROWSERS.map((browser) => (
        <StoreCard key={browser.name} browser={browser} />
      ))}
      <SafariCard />
    </ul>
  );
}
