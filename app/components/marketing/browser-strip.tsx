import { Link } from "@remix-run/react";
import { BrowserIcon, type BrowserName } from "./icons";

const BROWSERS: readonly { name: BrowserName; note?: string }[] = [
  { name: "Chrome" },
  { name: "Firefox" },
  { name: "Edge" },
  { name: "Safari", note: "Coming soon" },
];

/** "Available for" strip under the hero: every browser links to its card on /download. */
export function BrowserStrip() {
  return (
    <section aria-labelledby="browsers-heading" className="border-y border-slate-200 bg-white">
      <div className="container-page flex flex-col items-center gap-5 py-8 md:flex-row md:justify-between">
        <h2 id="browsers-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-600">
          Available for your browser
        </h2>
        <ul className="grid w-full grid-cols-2 gap-3 sm:grid-cols-4 md:w-auto">
          {BROWSERS.map((browser) => (
            <li key={browser.name}>
              <Link
                to={`/download#${browser.name.toLowerCase()}`}
                className="flex items-center gap-3 rounded-xl border border-slate-200 px-4 py-2.5 transition hover:border-brand-300 hover:bg-brand-50"
              >
                <BrowserIcon browser={browser.name} className="h-7 w-7 shrink-0" />
                <span className="leading-tight">
                  <span className="block text-sm font-semibold text-slate-900">{browser.name}</span>
                  <span className="block text-xs text-slate-600">{browser.note ?? "Extension"}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
