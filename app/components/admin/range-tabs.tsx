import { Link } from "@remix-run/react";

/** Range selector as links (works without JavaScript; the range lives in the URL). */
export function RangeTabs({
  ranges,
  current,
  param = "range",
}: {
  ranges: readonly string[];
  current: string;
  param?: string;
}) {
  return (
    <nav aria-label="Range">
      <ul className="inline-flex rounded-lg border border-slate-200 bg-slate-50 p-0.5 text-sm">
        {ranges.map((r) => (
          <li key={r}>
            <Link
              to={`?${param}=${r}`}
              preventScrollReset
              aria-current={r === current ? "true" : undefined}
              className={`block rounded-md px-3 py-1 ${r === current ? "bg-white font-semibold shadow-sm" : "text-slate-700"}`}
            >
              {r}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
