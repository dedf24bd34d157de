import { Form, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { normalizeHelpQuery } from "~/domain/help";

/**
 * The query the page filters by. Without JavaScript the GET form reloads the page with `?q=`; with it, typing
 * filters at once and the URL follows (replaced, debounced) so the search stays shareable.
 */
export function useHelpQuery(loaderQuery: string) {
  const [query, setQuery] = useState(loaderQuery);
  const [, setSearchParams] = useSearchParams();
  const lastSent = useRef(loaderQuery);

  // The URL changed from outside the box (a link, back/forward): show that query.
  useEffect(() => {
    if (loaderQuery !== lastSent.current) {
      lastSent.current = loaderQuery;
      setQuery(loaderQuery);
    }
  }, [loaderQuery]);

  useEffect(() => {
    const next = normalizeHelpQuery(query);
    if (next === lastSent.current) return;
    const timer = setTimeout(() => {
      lastSent.current = next;
      setSearchParams(next ? { q: next } : {}, { replace: true, preventScrollReset: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [query, setSearchParams]);

  return [query, setQuery] as const;
}

export function HelpSearch({ query, onQueryChange }: { query: string; onQueryChange: (query: string) => void }) {
  return (
    <Form method="get" action="/help" replace preventScrollReset role="search" className="mx-auto mt-8 max-w-xl">
      <label htmlFor="help-q" className="sr-only">
        Search help articles
      </label>
      <div className="flex gap-2 rounded-xl border border-slate-300 bg-white p-1.5 shadow-sm focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30">
        <div className="relative flex-1">
          <svg
            viewBox="0 0 20 20"
            className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-500"
            fill="currentColor"
            aria-hidden="true"
          >
            <path d="M9 3.5a5.5 5.5 0 1 0 3.4 9.8l3.15 3.15a.75.75 0 1 0 1.06-1.06l-3.15-3.15A5.5 5.5 0 0 0 9 3.5zM5 9a4 4 0 1 1 8 0 4 4 0 0 1-8 0z" />
          </svg>
          <input
            id="help-q"
            type="search"
            name="q"
            value={query}
            onChange={(event) => onQueryChange(event.target.value)}
            placeholder="Search for answers, e.g. credits"
            autoComplete="off"
            maxLength={100}
            className="h-11 w-full rounded-lg border-0 bg-transparent pl-10 pr-3 text-base text-slate-900 placeholder:text-slate-500 focus:outline-none focus:ring-0"
          />
        </div>
        <button type="submit" className="btn-primary">
          Search
        </button>
      </div>
    </Form>
  );
}
