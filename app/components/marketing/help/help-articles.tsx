import { Link } from "@remix-run/react";
import type { HelpArticle } from "~/domain/help";

/** The popular article list; each article opens in place (details/summary, no JavaScript). */
export function HelpArticles({ articles, query }: { articles: readonly HelpArticle[]; query: string }) {
  if (articles.length === 0) {
    return (
      <div className="mt-6 rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center">
        <p className="text-lg font-semibold text-slate-900">No articles match “{query}”</p>
        <p className="mt-2 text-slate-600">Try different words, or ask our support team directly.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/help" replace preventScrollReset className="btn-secondary">
            Clear search
          </Link>
          <Link to="/contact" className="btn-primary">
            Contact Support
          </Link>
        </div>
      </div>
    );
  }
  return (
    <ul className="mt-6 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white">
      {articles.map((article) => (
        <li key={article.id}>
          <details className="group">
            <summary className="flex cursor-pointer list-none items-start gap-4 px-5 py-4 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
              <span className="flex-1">
                <span className="block font-semibold text-slate-900">{article.title}</span>
                <span className="mt-1 block text-sm text-slate-600">{article.summary}</span>
              </span>
              <span className="hidden shrink-0 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 sm:inline">
                {article.category}
              </span>
              <svg
                viewBox="0 0 20 20"
                className="mt-1 h-5 w-5 shrink-0 text-slate-500 transition group-open:rotate-180"
                fill="currentColor"
                aria-hidden="true"
              >
                <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06z" />
              </svg>
            </summary>
            <div className="space-y-3 px-5 pb-5 leading-7 text-slate-700">
              {article.body.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
