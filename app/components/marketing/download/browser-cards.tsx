import type { StoreBrowser as StoreKey } from "~/domain/extension";
import { BrowserIcon, type BrowserName } from "../icons";
import { NotifyForm } from "./notify-form";

interface StoreBrowser {
  name: Exclude<BrowserName, "Safari">;
  key: StoreKey;
  store: string;
  recommended?: boolean;
  note: string;
}

/** The browsers with a store listing (URLs come from the deployment's settings). */
const STORE_BROWSERS: readonly StoreBrowser[] = [
  {
    name: "Chrome",
    key: "chrome",
    store: "Chrome Web Store",
    recommended: true,
    note: "Best performance and the newest features first.",
  },
  {
    name: "Firefox",
    key: "firefox",
    store: "Firefox Add-ons",
    note: "Every ClipCut feature, in Firefox.",
  },
  {
    name: "Edge",
    key: "edge",
    store: "Edge Add-ons",
    note: "Built on the same engine as Chrome, with the same features.",
  },
];

/** Where the buttons lead: the store listings, or in local mode the instructions for the local build. */
export type ListingLinks = { local: true } | { local: false; stores: Record<StoreKey, string> };

function StoreCard({ browser, links }: { browser: StoreBrowser; links: ListingLinks }) {
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
      {links.local ? (
        <a href="#try-locally" className={`${browser.recommended ? "btn-primary" : "btn-secondary"} mt-6 w-full`}>
          Add to {browser.name}
          <span className="sr-only"> from the local build (instructions below)</span>
        </a>
      ) : (
        <a
          href={links.stores[browser.key]}
          target="_blank"
          rel="noopener noreferrer"
          className={`${browser.recommended ? "btn-primary" : "btn-secondary"} mt-6 w-full`}
        >
          Add to {browser.name}
          <span className="sr-only"> from the {browser.store} (opens in a new tab)</span>
        </a>
      )}
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

export function BrowserCards({ links }: { links: ListingLinks }) {
  return (
    <ul className="mt-10 grid gap-6 md:grid-cols-2 xl:grid-cols-4" aria-labelledby="browsers-heading">
      {STORE_BROWSERS.map((browser) => (
        <StoreCard key={browser.name} browser={browser} links={links} />
      ))}
      <SafariCard />
    </ul>
  );
}
