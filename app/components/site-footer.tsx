import { Link } from "@remix-run/react";
import { SITE } from "~/domain/site";
import { Logo } from "./logo";

const COLUMNS = [
  {
    title: "Product",
    links: [
      { to: "/features", label: "Features" },
      { to: "/pricing", label: "Pricing" },
      { to: "/download", label: "Download" },
      { to: "/clip", label: "Video Cutter" },
    ],
  },
  {
    title: "Resources",
    links: [
      { to: "/blog", label: "Blog" },
      { to: "/contact", label: "Contact us" },
      { to: "/help", label: "Help Center" },
    ],
  },
  {
    title: "Company",
    links: [
      { to: "/about", label: "About" },
      { to: "/privacy", label: "Privacy policy" },
      { to: "/terms", label: "Terms of service" },
    ],
  },
] as const;

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="container-page grid gap-10 py-12 md:grid-cols-4">
        <div className="space-y-4">
          <Logo />
          <p className="max-w-xs text-sm text-slate-600">{SITE.tagline}</p>
          <ul className="flex flex-wrap gap-3" aria-label="ClipCut on social media">
            {SITE.social.map((s) => (
              <li key={s.name}>
                <a
                  href={s.href}
                  className="text-sm text-slate-600 underline-offset-4 hover:text-brand-700 hover:underline"
                  rel="noopener noreferrer"
                  target="_blank"
                >
                  {s.name}
                </a>
              </li>
            ))}
          </ul>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold text-slate-900">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-sm text-slate-600 hover:text-brand-700">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-200 py-6 text-center text-xs text-slate-500">
        © {new Date().getFullYear()} ClipCut. All rights reserved.
      </div>
    </footer>
  );
}
