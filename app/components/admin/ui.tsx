import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { pageWindow, showingText } from "~/domain/admin";

export function PageHeader({ title, crumb, actions }: { title: string; crumb?: string; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
          <ol className="flex gap-1">
            <li>
              <Link to="/admin" className="hover:underline">
                Home
              </Link>
            </li>
            <li aria-hidden="true">/</li>
            <li aria-current="page" className="text-slate-700">
              {crumb ?? title}
            </li>
          </ol>
        </nav>
        <h1 className="mt-1 text-2xl font-bold tracking-tight">{title}</h1>
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function StatCard({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-2 text-xl font-bold tabular-nums sm:text-2xl" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">{children}</div>;
}

export function Panel({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" aria-label={title}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          {title && <h2 className="text-lg font-semibold">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** A server-rendered table; `empty` shows as one full-width row when there are no rows. */
export function DataTable({
  headers,
  children,
  empty,
  isEmpty,
  caption,
}: {
  headers: string[];
  children: ReactNode;
  empty: string;
  isEmpty: boolean;
  caption?: string;
}) {
  return (
    // Focusable so keyboard users can scroll a wide table sideways on small screens.
    <div
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white"
      tabIndex={0}
      role="region"
      aria-label={caption ?? "Table"}
    >
      <table className="w-full min-w-[640px] text-left text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {headers.map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-4 py-3 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {isEmpty ? (
            <tr>
              <td colSpan={headers.length} className="px-4 py-10 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

export const Td = ({ children, className = "" }: { children: ReactNode; className?: string }) => (
  <td className={`whitespace-nowrap px-4 py-3 ${className}`}>{children}</td>
);

/** First / previous / up to 3 numbers / next / last, as links that keep the rest of the query. */
export function Pagination({
  page,
  pages,
  total,
  pageSize,
  href,
}: {
  page: number;
  pages: number;
  total: number;
  pageSize: number;
  href: (page: number) => string;
}) {
  const item = (label: string, target: number, disabled: boolean, current = false, aria?: string) => (
    <li key={`${label}-${target}`}>
      {disabled || current ? (
        <span
          aria-current={current ? "page" : undefined}
          aria-disabled={disabled || undefined}
          className={`inline-flex min-w-9 justify-center rounded-md border px-3 py-1.5 text-sm ${
            current ? "border-brand-600 bg-brand-600 font-semibold text-white" : "border-slate-200 text-slate-400"
          }`}
        >
          {label}
        </span>
      ) : (
        <Link
          to={href(target)}
          aria-label={aria}
          preventScrollReset
          className="inline-flex min-w-9 justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50"
        >
          {label}
        </Link>
      )}
    </li>
  );
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600" data-testid="showing">
        {showingText(page, pageSize, total)}
      </p>
      <nav aria-label="Pagination">
        <ul className="flex flex-wrap gap-1">
          {item("«", 1, page <= 1, false, "First page")}
          {item("‹", page - 1, page <= 1, false, "Previous page")}
          {pageWindow(page, pages).map((n) => item(String(n), n, false, n === page, `Page ${n}`))}
          {item("›", page + 1, page >= pages, false, "Next page")}
          {item("»", pages, page >= pages, false, "Last page")}
        </ul>
      </nav>
    </div>
  );
}

export const formatDate = (value: string | number | Date) =>
  new Date(value).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
export const formatDateTime = (value: string | number | Date) =>
  new Date(value).toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  });
export const formatTime = (value: string | number | Date) =>
  new Date(value).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
